"""Maximum-likelihood fitting step of a flow density (flowjax train/losses layout), lowered
once for every accelerator kind found across the observing sites."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass
class Affine:
    loc: jax.Array
    log_scale: jax.Array

    def inverse_and_log_det(self, y):
        return (y - self.loc) * jnp.exp(-self.log_scale), -jnp.sum(self.log_scale)


def standard_normal_logpdf(z):
    return -0.5 * jnp.sum(z**2 + jnp.log(2 * jnp.pi), axis=-1)


def flow_log_prob(params, x):
    bij = Affine(params["loc"], params["log_scale"])
    z, log_det = bij.inverse_and_log_det(x)
    return standard_normal_logpdf(z) + log_det


class MaximumLikelihoodLoss:
    def __call__(self, params, x):
        return -jnp.mean(flow_log_prob(params, x))


def make_step(loss_fn, learning_rate):
    @jax.jit
    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        return jax.tree.map(lambda p, g: p - learning_rate * g, params, grads), loss
    return step


SITES = {
    "paranal": {"accelerator": "cuda", "batch": 128},
    "la_silla": {"accelerator": "cuda", "batch": 64},
    "mauna_kea": {"accelerator": "rocm", "batch": 128},
}


def site_platforms(sites):
    return tuple(sorted({site["accelerator"] for site in sites.values()}))


def lower_fit_step(dim=3, batch=128):
    step = make_step(MaximumLikelihoodLoss(), learning_rate=5e-3)
    params = {"loc": jax.ShapeDtypeStruct((dim,), jnp.float32), "log_scale": jax.ShapeDtypeStruct((dim,), jnp.float32)}
    traced = step.trace(params, jax.ShapeDtypeStruct((batch, dim), jnp.float32))
    platforms = site_platforms(SITES)
    return traced.lower(lowering_platforms=platforms)


if __name__ == "__main__":
    lowered = lower_fit_step()
    print(lowered.as_text()[:60])
