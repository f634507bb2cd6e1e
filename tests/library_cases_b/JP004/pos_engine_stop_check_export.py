import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P

STOP_IDS = np.array([2, 50256, 128001], dtype=np.int32)


def _hits_stop(ids):
    return np.isin(np.asarray(ids), STOP_IDS)


class ServingEngine:
    def __init__(self, topology, vocab_size):
        shape, names = topology
        self.mesh = AbstractMesh(shape, names)
        self.vocab_size = vocab_size
        self.batch_sharding = NamedSharding(self.mesh, P("data"))

    def decode_step(self, logits):
        ids = jnp.argmax(logits, axis=-1).astype(jnp.int32)
        done = jax.pure_callback(_hits_stop, jax.ShapeDtypeStruct(ids.shape, jnp.bool_), ids)
        return ids, done

    def export_step(self, batch, platforms=("tpu",)):
        jitted = jax.jit(self.decode_step, in_shardings=self.batch_sharding)
        spec = jax.ShapeDtypeStruct((batch, self.vocab_size), jnp.float32)
        return jax.export.export(jitted, platforms=platforms)(spec)


if __name__ == "__main__":
    engine = ServingEngine(topology=((4,), ("data",)), vocab_size=512)
    exported = engine.export_step(batch=32)
    print(exported.platforms)
