import dataclasses
from types import SimpleNamespace

import jax
import jax.numpy as jnp


def field(*, static=False, **kwargs):
    return dataclasses.field(metadata={"static": static}, **kwargs)


class Module:
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True)(cls)


class MLP(Module):
    weight: jax.Array
    bias: jax.Array
    verbose: bool = field(static=True, default=False)

    def __call__(self, x):
        h = jnp.tanh(x @ self.weight + self.bias)
        if self.verbose:
            jax.debug.print("activation norm {n}", n=jnp.linalg.norm(h))
        return h


class Trainer:
    def __init__(self, config):
        self.config = config
        key = jax.random.key(config.seed)
        d = config.model.width
        self.model = MLP(jax.random.normal(key, (d, d)), jnp.zeros(d), verbose=config.model.verbose)

    def loss(self, x):
        return jnp.mean(self.model(x) ** 2)

    def aot(self, batch):
        platform = self.config.model.platform or jax.default_backend()
        traced = jax.jit(jax.value_and_grad(self.loss)).trace(batch)
        return traced.lower(lowering_platforms=(platform,))


config = SimpleNamespace(
    seed=0,
    model=SimpleNamespace(width=32, verbose=True, platform=None),
)

if __name__ == "__main__":
    trainer = Trainer(config)
    lowered = trainer.aot(jax.ShapeDtypeStruct((4, 32), jnp.float32))
    compiled = lowered.compile()
    print(compiled(jnp.ones((4, 32))))
