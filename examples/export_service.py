"""Exports serving functions as StableHLO artifacts for the fleet's accelerators.

Contains JP005 and JP001 mistakes on purpose, next to correct calls.
"""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax import export

SERVING_PLATFORM = "tpu"
FALLBACK_PLATFORMS = ("cpu",)


def score(w, x):
    return jax.nn.sigmoid(x @ w)


def score_with_logging(w, x):
    y = score(w, x)
    jax.debug.print("mean score {m}", m=y.mean())
    return y


def _host_calibrate(y):
    return np.clip(y, 0.01, 0.99).astype(y.dtype)


def calibrated_score(w, x):
    y = score(w, x)
    return jax.pure_callback(_host_calibrate, jax.ShapeDtypeStruct(y.shape, y.dtype), y)


@dataclasses.dataclass
class ExportJob:
    features: int = 64
    batch: int = 32
    platforms: tuple = ("tpu",)

    def specs(self):
        w = jax.ShapeDtypeStruct((self.features, 1), jnp.float32)
        x = jax.ShapeDtypeStruct((self.batch, self.features), jnp.float32)
        return w, x

    def export_score(self):
        # Fine: a proper tuple of platforms.
        return export.export(jax.jit(score), platforms=self.platforms)(*self.specs())

    def export_score_for_serving(self):
        # Mistake (JP005): SERVING_PLATFORM is the bare string "tpu"; export does
        # tuple("tpu") and exports for ('t', 'p', 'u'). Nothing fails here; later
        # Exported.call says "Function 'score' was exported for platforms '('t', 'p', 'u')'".
        return export.export(jax.jit(score), platforms=SERVING_PLATFORM)(*self.specs())

    def export_score_list(self):
        # Fine: jax.export takes any sequence, so a list is OK here.
        return export.export(jax.jit(score), platforms=[SERVING_PLATFORM])(*self.specs())

    def export_logged(self):
        # Mistake (JP001): jax.debug.print is a host callback; exported for tpu from a
        # CPU process JAX raises "the platform for the specified backend cpu is different
        # from the lowering platform tpu".
        return export.export(jax.jit(score_with_logging), platforms=self.platforms)(*self.specs())

    def lower_calibrated_locally(self):
        # Fine: the callback is lowered for the host's own platform.
        traced = jax.jit(calibrated_score).trace(*self.specs())
        return traced.lower(lowering_platforms=FALLBACK_PLATFORMS)

    def lower_for_smoke_test(self):
        traced = jax.jit(score).trace(*self.specs())
        # Mistake (JP005): ("cpu") is the string "cpu", lowered for ('c', 'p', 'u');
        # .compile() then fails with "safe_zip() argument 1 has length 1 ...".
        return traced.lower(lowering_platforms=("cpu"))


if __name__ == "__main__":
    job = ExportJob()
    print(job.export_score().platforms, job.export_score_list().platforms)
    print(job.lower_calibrated_locally().compile() is not None)
