"""Lower a sharded random-walk sampler for a model built with a debug level.

After a "bring your own log density" inference front end: a ``Model`` dataclass
holding ``log_density``, ``test_point`` and a ``transform_fn``, methods grouped
into namespaces (``model.mcmc.<name>``) bound to the model on construction,
``constrained_log_density`` that composes the density with the transform, and
a debug level that, at 2 and above, guards the density so that non-finite
evaluations are reported to the host.
"""

import dataclasses
import sys
from typing import Any, Callable, Optional

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P


def _report_nonfinite(value, point_norm):
    if not np.isfinite(value):
        print(f"non-finite log density at |x|={float(point_norm):.3g}", file=sys.stderr)
    return np.asarray(np.isfinite(value))


def guard_nonfinite(log_density):
    def guarded(x):
        value = log_density(x)
        norm = jnp.sqrt(sum(jnp.sum(v**2) for v in jax.tree.leaves(x)))
        ok = io_callback(_report_nonfinite, jax.ShapeDtypeStruct((), jnp.bool_), value, norm)
        return jnp.where(ok, value, -jnp.inf)
    return guarded


def constrain(transform_fn, inverse_log_det_jacobian):
    def wrap(log_density):
        def constrained(x):
            return log_density(transform_fn(x)) - inverse_log_det_jacobian(transform_fn(x))
        return constrained
    return wrap


class _Namespace:
    def __setclass__(self, cls, model):
        setattr(self, cls.name, cls(model))


class RandomWalkMetropolis:
    name = "random_walk"

    def __init__(self, model):
        self.model = model

    def get_kwargs(self, **kwargs):
        defaults = {"num_draws": 1000, "scale": 0.3, "num_chains": 8}
        defaults.update(kwargs)
        return defaults

    def _sampler(self, kwargs):
        logp = self.model.constrained_log_density()

        def run(init, seed):
            def step(carry, key):
                x, lp = carry
                k1, k2 = jax.random.split(key)
                prop = x + kwargs["scale"] * jax.random.normal(k1, x.shape)
                lp_prop = jax.vmap(logp)(prop)
                accept = jnp.log(jax.random.uniform(k2, lp.shape)) < lp_prop - lp
                x = jnp.where(accept[:, None], prop, x)
                return (x, jnp.where(accept, lp_prop, lp)), x

            keys = jax.random.split(jax.random.wrap_key_data(seed), kwargs["num_draws"])
            _, draws = jax.lax.scan(step, (init, jax.vmap(logp)(init)), keys)
            return self.model.transform_fn(draws)

        return run

    def lower(self, mesh, platform: str, **kwargs):
        kwargs = self.get_kwargs(**kwargs)
        dim = self.model.test_point.shape[0]
        chains = NamedSharding(mesh, P("chain", None))
        init = jax.ShapeDtypeStruct((kwargs["num_chains"], dim), jnp.float32, sharding=chains)
        seed = jax.ShapeDtypeStruct((2,), jnp.uint32, sharding=NamedSharding(mesh, P()))
        run = jax.jit(self._sampler(kwargs), out_shardings=NamedSharding(mesh, P(None, "chain", None)))
        return run.trace(init, seed).lower(lowering_platforms=(platform,))


@dataclasses.dataclass
class Model:
    log_density: Callable
    test_point: Any
    transform_fn: Callable = lambda x: x
    inverse_log_det_jacobian: Optional[Callable] = None
    debug_level: int = 0

    def __post_init__(self):
        if self.inverse_log_det_jacobian is None:
            self.inverse_log_det_jacobian = lambda y: 0.0
        self.mcmc = _Namespace()
        self.mcmc.__setclass__(RandomWalkMetropolis, self)

    def constrained_log_density(self):
        logp = constrain(self.transform_fn, self.inverse_log_det_jacobian)(self.log_density)
        if self.debug_level >= 2:
            logp = guard_nonfinite(logp)
        return logp


def eight_schools_like(x):
    tau = x[0]
    theta = x[1:]
    y = jnp.array([28.0, 8.0, -3.0, 7.0, -1.0, 1.0, 18.0, 12.0])
    sigma = jnp.array([15.0, 10.0, 16.0, 11.0, 9.0, 11.0, 10.0, 18.0])
    return (-0.5 * jnp.sum(((y - theta) / sigma) ** 2) - 0.5 * jnp.sum((theta / tau) ** 2)
            - 8 * jnp.log(tau) - 0.5 * tau**2 / 25.0)


def _exp_first(x):
    return jnp.concatenate([jnp.exp(x[..., :1]), x[..., 1:]], axis=-1)


if __name__ == "__main__":
    model = Model(log_density=eight_schools_like, test_point=jnp.ones(9),
                  transform_fn=_exp_first,
                  inverse_log_det_jacobian=lambda y: -jnp.log(y[0]),
                  debug_level=2)
    pod = AbstractMesh((16,), ("chain",), axis_types=(AxisType.Auto,))
    lowered = model.mcmc.random_walk.lower(pod, platform="tpu", num_chains=256, num_draws=500)
    print(len(lowered.as_text()))
