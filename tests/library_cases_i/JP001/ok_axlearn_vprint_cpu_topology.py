"""AOT compilation of a trainer's step for the host topology (axlearn aot_compilation layout)."""

import dataclasses

import jax
import jax.numpy as jnp

from _axlearn_module import Module


@dataclasses.dataclass
class SystemCharacteristics:
    platform: str
    topology_name: str
    devices_per_slice: int


USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS = {
    "cpu-1": SystemCharacteristics("cpu", "cpu:1", 1),
    "v5e-16": SystemCharacteristics("tpu", "v5e:4x4", 16),
    "v4-8": SystemCharacteristics("tpu", "v4:2x2x1", 4),
}


class Linear(Module):
    @dataclasses.dataclass
    class Config(Module.Config):
        input_dim: int = 16
        output_dim: int = 8

    def forward(self, params, x):
        y = x @ params["w"]
        self.vprint(2, "linear out norm={n}", n=jnp.linalg.norm(y))
        return y


class Trainer(Module):
    @dataclasses.dataclass
    class Config(Module.Config):
        model: Module.Config = None
        learning_rate: float = 0.1

    def __init__(self, cfg, *, parent=None):
        super().__init__(cfg, parent=parent)
        self.model = cfg.model.clone(name="model").instantiate(parent=self)

    def train_step(self, params, x, y):
        def loss_fn(p):
            return jnp.mean((self.model.forward(p, x) - y) ** 2)
        loss, grads = jax.value_and_grad(loss_fn)(params)
        self.vprint(1, "loss={l}", l=loss)
        return jax.tree.map(lambda p, g: p - self.config.learning_rate * g, params, grads), loss


def compile_trainer_programs(trainer_config, *, topology):
    target = USER_FACING_NAME_TO_SYSTEM_CHARACTERISTICS[topology]
    trainer = trainer_config.clone(name="trainer").instantiate(parent=None)
    mcfg = trainer_config.model
    params = {"w": jax.ShapeDtypeStruct((mcfg.input_dim, mcfg.output_dim), jnp.float32)}
    x = jax.ShapeDtypeStruct((32, mcfg.input_dim), jnp.float32)
    y = jax.ShapeDtypeStruct((32, mcfg.output_dim), jnp.float32)
    traced = jax.jit(trainer.train_step).trace(params, x, y)
    return {"train_step": traced.lower(lowering_platforms=(target.platform,))}


def fuji_debug_config():
    model = Linear.default_config().set(input_dim=16, output_dim=8)
    return Trainer.default_config().set(model=model, vlog=2)


if __name__ == "__main__":
    programs = compile_trainer_programs(fuji_debug_config(), topology="cpu-1")
    print(sorted(programs))
