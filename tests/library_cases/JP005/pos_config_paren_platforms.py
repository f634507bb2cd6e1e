"""Lowers a convolutional classifier head for the deployment described by a frozen config."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True, kw_only=True)
class DeployConfig:
  image_size: int = 32
  channels: int = 16
  num_classes: int = 10
  batch_size: int = 8
  platforms: tuple[str, ...] = ("cuda")


def classifier(params, images):
  x = jax.lax.conv_general_dilated(images, params["conv"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
  x = jax.nn.relu(x).mean(axis=(1, 2))
  return x @ params["head"]


def lower_for_deploy(cfg: DeployConfig):
  params = {
      "conv": jax.ShapeDtypeStruct((3, 3, 3, cfg.channels), jnp.float32),
      "head": jax.ShapeDtypeStruct((cfg.channels, cfg.num_classes), jnp.float32),
  }
  images = jax.ShapeDtypeStruct((cfg.batch_size, cfg.image_size, cfg.image_size, 3), jnp.float32)
  traced = jax.jit(classifier).trace(params, images)
  return traced.lower(lowering_platforms=cfg.platforms)


if __name__ == "__main__":
  lowered = lower_for_deploy(DeployConfig())
  print(lowered.as_text()[:80])
