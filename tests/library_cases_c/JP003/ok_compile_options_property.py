import dataclasses
import json

import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, AxisType, NamedSharding, PartitionSpec as P

OPTIONS_JSON = '{"mesh": {"data": 8}, "platforms": ["tpu"], "donate_params": true}'


@dataclasses.dataclass
class CompileOptions:
    mesh: dict
    platforms: list
    donate_params: bool = False

    @classmethod
    def from_json(cls, text):
        return cls(**json.loads(text))

    @property
    def lowering_platforms(self):
        return tuple(self.platforms) if self.platforms else None

    @property
    def abstract_mesh(self):
        names = tuple(self.mesh)
        return AbstractMesh(tuple(self.mesh.values()), names, axis_types=(AxisType.Auto,) * len(names))


def eval_step(params, tokens):
    emb = params["embed"][tokens]
    return jnp.mean(emb @ params["head"], axis=-1)


def lower_eval(opts):
    data = NamedSharding(opts.abstract_mesh, P("data"))
    repl = NamedSharding(opts.abstract_mesh, P())
    params = {
        "embed": jax.ShapeDtypeStruct((1000, 64), jnp.float32),
        "head": jax.ShapeDtypeStruct((64, 10), jnp.float32),
    }
    tokens = jax.ShapeDtypeStruct((32, 16), jnp.int32)
    jitted = jax.jit(eval_step, in_shardings=({"embed": repl, "head": repl}, data), out_shardings=data)
    return jitted.trace(params, tokens).lower(lowering_platforms=opts.lowering_platforms)


if __name__ == "__main__":
    opts = CompileOptions.from_json(OPTIONS_JSON)
    print(lower_eval(opts).as_text()[:80])
