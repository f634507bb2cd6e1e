import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.experimental import io_callback
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P


def _histogram(x):
    counts, _ = np.histogram(np.asarray(x), bins=8)
    print("logit histogram", counts.tolist())


def _with_host_histogram(logits):
    io_callback(_histogram, None, logits)
    return logits


class Postprocessor:
    def __init__(self, mesh, temperature=0.7):
        self.mesh = mesh
        self.temperature = temperature

    def __call__(self, logits):
        logits = lax.platform_dependent(logits, cpu=_with_host_histogram, default=lambda v: v)
        return jax.nn.softmax(logits / self.temperature, axis=-1)

    def export(self, spec, platforms):
        jitted = jax.jit(self, in_shardings=NamedSharding(self.mesh, P("batch")))
        return jax.export.export(jitted, platforms=platforms)(spec)


if __name__ == "__main__":
    post = Postprocessor(AbstractMesh((4,), ("batch",)))
    exported = post.export(jax.ShapeDtypeStruct((16, 1000), jnp.float32), platforms=("tpu",))
    print(exported.platforms)
