"""Compile the SVI training step of a program-combinator model for the pod.

Written after an inference-combinator library: a backend registry
(``register_backend``/``set_backend``/``get_backend``) supplies
``traced_evaluate``, programs return ``(out, trace, metrics)``, ``propose(p, q,
loss_fn=...)`` scores a target against a proposal and ``svi`` is
``propose(target, proposal, loss_fn=elbo_loss)``. Compile options are a frozen
dataclass with defaults for the production pod.
"""

import dataclasses
import importlib
from functools import partial

import jax
import jax.numpy as jnp

_BACKENDS = {}
_BACKEND = None


def register_backend(backend, traced_evaluate=None, prng_key=None):
    _BACKENDS[backend] = {"traced_evaluate": traced_evaluate, "prng_key": prng_key}


def set_backend(backend):
    global _BACKEND
    if backend not in _BACKENDS:
        module = importlib.import_module(backend)
        register_backend(backend, getattr(module, "traced_evaluate", None), getattr(module, "prng_key", None))
    _BACKEND = backend


def get_backend():
    return _BACKENDS[_BACKEND]


def _dict_traced_evaluate(p, latents=None):
    """The in-house backend: a program writes sites into the ``trace`` dict it is handed."""
    def wrapped(*args, **kwargs):
        trace, metrics = {}, {}
        out = p(*args, trace=trace, latents=latents or {}, **kwargs)
        return out, trace, metrics
    return wrapped


register_backend("dict", traced_evaluate=_dict_traced_evaluate)
set_backend("dict")


def traced_evaluate(p, latents=None):
    return get_backend()["traced_evaluate"](p, latents=latents)


def normal_site(trace, latents, name, key, loc, scale, obs=None):
    value = obs if obs is not None else latents.get(name, loc + scale * jax.random.normal(key, jnp.shape(loc)))
    log_prob = -0.5 * ((value - loc) / scale) ** 2 - jnp.log(scale) - 0.5 * jnp.log(2 * jnp.pi)
    trace[name] = {"value": value, "log_prob": log_prob, "is_observed": obs is not None}
    return value


def elbo_loss(q_trace, p_trace, incoming_log_weight, incremental_log_weight):
    return -jnp.mean(incoming_log_weight + incremental_log_weight)


def propose(p, q, *, loss_fn=None):
    def wrapped(key, *args, **kwargs):
        key_p, key_q = jax.random.split(key)
        _, q_trace, _ = traced_evaluate(q)(key_q, *args, **kwargs)
        latents = {k: s["value"] for k, s in q_trace.items() if not s["is_observed"]}
        out, p_trace, _ = traced_evaluate(p, latents=latents)(key_p, *args, **kwargs)
        p_lp = sum(s["log_prob"].sum(-1) for s in p_trace.values())
        q_lp = sum(s["log_prob"].sum(-1) for s in q_trace.values())
        log_weight = p_lp - q_lp
        metrics = {"log_weight": log_weight}
        if loss_fn is not None:
            metrics["loss"] = loss_fn(q_trace, p_trace, jnp.zeros_like(log_weight), log_weight)
        return out, p_trace, metrics
    return wrapped


def svi(target, proposal):
    return propose(target, proposal, loss_fn=elbo_loss)


def make_target(x_obs):
    def target(key, params, *, trace, latents):
        z = normal_site(trace, latents, "z", key, jnp.zeros_like(x_obs), 1.0)
        return normal_site(trace, latents, "x", key, z, 0.5, obs=x_obs)
    return target


def proposal(key, params, *, trace, latents):
    return normal_site(trace, latents, "z", key, params["loc"], jnp.exp(params["log_scale"]))


@dataclasses.dataclass(frozen=True)
class CompileOptions:
    platforms: tuple = ("tpu")  # the production pod
    num_particles: int = 16
    learning_rate: float = 1e-2


def make_train_step(x_obs, opts: CompileOptions):
    program = svi(make_target(x_obs), proposal)

    def loss_fn(params, key):
        keys = jax.random.split(key, opts.num_particles)
        _, _, metrics = jax.vmap(lambda k: program(k, params))(keys)
        return metrics["loss"].mean()

    def train_step(params, key):
        loss, grads = jax.value_and_grad(loss_fn)(params, key)
        return jax.tree.map(lambda p, g: p - opts.learning_rate * g, params, grads), loss

    return train_step


def compile_for_pod(num_points=4096, opts=CompileOptions()):
    x_obs = jnp.linspace(-1.0, 1.0, num_points)
    step = jax.jit(make_train_step(x_obs, opts), donate_argnums=0)
    params = {"loc": jax.ShapeDtypeStruct((num_points,), jnp.float32),
              "log_scale": jax.ShapeDtypeStruct((num_points,), jnp.float32)}
    key = jax.eval_shape(lambda: jax.random.key(0))
    return step.trace(params, key).lower(lowering_platforms=opts.platforms)


if __name__ == "__main__":
    lowered = compile_for_pod()
    print(lowered.as_text()[:120])
