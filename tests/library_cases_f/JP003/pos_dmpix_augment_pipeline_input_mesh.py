"""Data-parallel image augmentation, compiled for the input-pipeline mesh.

The augmentation ops follow dm-pix (``random_flip_left_right``,
``random_brightness``, ``random_contrast``, ``random_gamma`` each take a key
and a single image; batched use goes through ``jax.vmap``).  The pipeline is
described as an ordered list of ``(name, op, kwargs)`` entries from the
experiment config, composed into one per-image function.  A
``PipelineConfig`` describes the global input mesh (hosts x devices per host);
the pipeline is compiled under that mesh before the training job is launched.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, PartitionSpec as P

Array = jax.Array


# --------------------------------------------------------------------------
# augmentations (per image, HWC)
# --------------------------------------------------------------------------


def adjust_brightness(image: Array, delta) -> Array:
  return image + delta


def adjust_contrast(image: Array, factor) -> Array:
  mean = jnp.mean(image, axis=(-3, -2), keepdims=True)
  return factor * (image - mean) + mean


def adjust_gamma(image: Array, gamma, gain=1.0) -> Array:
  return gain * jnp.power(jnp.clip(image, 0.0, None), gamma)


def flip_left_right(image: Array) -> Array:
  return jnp.flip(image, axis=-2)


def random_flip_left_right(key, image, probability=0.5):
  should = jax.random.bernoulli(key, probability)
  return jax.lax.select(should, flip_left_right(image), image)


def random_brightness(key, image, max_delta):
  delta = jax.random.uniform(key, (), minval=-max_delta, maxval=max_delta)
  return adjust_brightness(image, delta)


def random_contrast(key, image, lower, upper):
  factor = jax.random.uniform(key, (), minval=lower, maxval=upper)
  return adjust_contrast(image, factor)


def random_gamma(key, image, min_gamma, max_gamma):
  gamma = jax.random.uniform(key, (), minval=min_gamma, maxval=max_gamma)
  return adjust_gamma(image, gamma)


AUGMENTATIONS: dict[str, Callable[..., Array]] = {
    "flip_lr": random_flip_left_right,
    "brightness": random_brightness,
    "contrast": random_contrast,
    "gamma": random_gamma,
}


def compose(spec: Sequence[tuple[str, dict[str, Any]]]) -> Callable[[Array, Array], Array]:
  ops = [functools.partial(AUGMENTATIONS[name], **kwargs) for name, kwargs in spec]

  def augment_one(key, image):
    for op, op_key in zip(ops, jax.random.split(key, len(ops))):
      image = op(op_key, image)
    return jnp.clip(image, 0.0, 1.0)

  return augment_one


# --------------------------------------------------------------------------
# pipeline
# --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class PipelineConfig:
  num_hosts: int = 4
  devices_per_host: int = 4
  per_device_batch: int = 8
  image_size: int = 64
  augmentations: tuple = (
      ("flip_lr", {}),
      ("brightness", {"max_delta": 0.2}),
      ("contrast", {"lower": 0.8, "upper": 1.2}),
      ("gamma", {"min_gamma": 0.9, "max_gamma": 1.1}),
  )

  @property
  def global_batch(self) -> int:
    return self.num_hosts * self.devices_per_host * self.per_device_batch

  def input_mesh(self) -> AbstractMesh:
    return AbstractMesh((self.num_hosts * self.devices_per_host,), ("data",))


def build_augment_fn(config: PipelineConfig):
  augment_one = compose(config.augmentations)
  batched = jax.vmap(augment_one)
  return jax.jit(batched, in_shardings=(P("data"), P("data")), out_shardings=P("data"))


def compile_pipeline(config: PipelineConfig):
  size = config.image_size
  keys = jax.ShapeDtypeStruct((config.global_batch, 2), jnp.uint32)
  images = jax.ShapeDtypeStruct((config.global_batch, size, size, 3), jnp.float32)
  augment = build_augment_fn(config)
  with jax.sharding.use_abstract_mesh(config.input_mesh()):
    traced = augment.trace(keys, images)
    lowered = traced.lower()
  return lowered


def main():
  config = PipelineConfig()
  augment_one = compose(config.augmentations)
  image = jnp.full((config.image_size, config.image_size, 3), 0.5)
  print("local sample mean:", float(augment_one(jax.random.PRNGKey(0), image).mean()))
  lowered = compile_pipeline(config)
  print("pipeline compiled for", config.global_batch, "images:", len(lowered.as_text()))


if __name__ == "__main__":
  main()
