import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


def _raise_on_host(pred):
    if np.any(pred):
        raise RuntimeError("non-finite values in state")
    return np.zeros((), np.int32)


def error_if(x, pred):
    token = jax.pure_callback(
        _raise_on_host, jax.ShapeDtypeStruct((), jnp.int32), jnp.any(pred), vmap_method="broadcast_all"
    )
    return x + token.astype(x.dtype) * 0


@dataclasses.dataclass(frozen=True)
class Diffusion:
    coef: float = 0.1
    check_finite: bool = True

    def vector_field(self, t, y):
        lap = jnp.roll(y, 1, axis=-1) + jnp.roll(y, -1, axis=-1) - 2 * y
        dy = self.coef * lap
        if self.check_finite:
            dy = error_if(dy, ~jnp.isfinite(dy))
        return dy

    def step(self, y, dt):
        return y + dt * self.vector_field(0.0, y)


def export_step(term, mesh, grid_shape, platforms):
    field = NamedSharding(mesh, P("x", None))
    y = jax.ShapeDtypeStruct(grid_shape, jnp.float32, sharding=field)
    dt = jax.ShapeDtypeStruct((), jnp.float32, sharding=NamedSharding(mesh, P()))
    jitted = jax.jit(term.step, out_shardings=field)
    return jax.export.export(jitted, platforms=platforms)(y, dt)


if __name__ == "__main__":
    mesh = AbstractMesh((4,), ("x",), axis_types=(AxisType.Auto,))
    exported = export_step(Diffusion(check_finite=False), mesh, (64, 256), platforms=("tpu",))
    print(exported.platforms)
