"""Batched Gauss-Kronrod integration of a parameterised integrand; the results are laid out over
the planned batch axis (fixed-order rule shaped like quadax's GK21 tables and `quadgk` signature)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

_XK = np.polynomial.legendre.leggauss(15)


def fixed_quadgk(fun, interval, args=(), order=15):
  x, w = map(jnp.asarray, np.polynomial.legendre.leggauss(order))
  a, b = interval
  h = 0.5 * (b - a)
  c = 0.5 * (b + a)
  y = jax.vmap(lambda t: fun(c + h * t, *args))(x)
  return h * jnp.sum(w * y), jnp.zeros(())


def integrand(t, k, s):
  return jnp.exp(-k * t) * jnp.cos(s * t)


PLAN = AbstractMesh((4,), ("batch",), axis_types=(AxisType.Auto,))
RESULT_SHARDING = NamedSharding(PLAN, P("batch"))


@functools.partial(jax.jit, out_shardings=RESULT_SHARDING)
def integrate_all(ks, ss):
  return jax.vmap(lambda k, s: fixed_quadgk(integrand, (0.0, 5.0), (k, s))[0])(ks, ss)


if __name__ == "__main__":
  ks = jax.ShapeDtypeStruct((64,), jnp.float32)
  lowered = integrate_all.lower(ks, ks)
  print(lowered.as_text()[:60])
