from dataclasses import dataclass

import jax
import jax.numpy as jnp


@dataclass(frozen=True)
class ArtifactConfig:
  name: str = "ranker"
  platforms: tuple = ("cpu", "tpu")
  num_items: int = 256


def score(query, items, temperature):
  logits = items @ query / temperature
  return jax.nn.log_softmax(logits)


def export_all(cfg: ArtifactConfig, dim=64):
  specs = (jax.ShapeDtypeStruct((dim,), jnp.float32),
           jax.ShapeDtypeStruct((cfg.num_items, dim), jnp.float32),
           jax.ShapeDtypeStruct((), jnp.float32))
  jitted = jax.jit(score)
  artifacts = {}
  for platform in cfg.platforms:
    artifacts[f"{cfg.name}-{platform}"] = jax.export.export(jitted, platforms=[platform])(*specs)
  return artifacts


if __name__ == "__main__":
  artifacts = export_all(ArtifactConfig())
  print({k: v.platforms for k, v in artifacts.items()})
