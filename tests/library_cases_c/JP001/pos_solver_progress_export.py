import dataclasses

import jax
import jax.numpy as jnp
from jax.experimental import io_callback

SOLVER_YAML = """
solver: heun
dt0: 0.05
num_steps: 40
progress_meter: text
export_platform: tpu
"""


def load_config(text):
    out = {}
    for raw in text.strip().splitlines():
        key, _, value = raw.partition(":")
        value = value.strip()
        try:
            value = float(value) if "." in value else int(value)
        except ValueError:
            pass
        out[key.strip()] = value
    return out


class NoProgressMeter:
    def step(self, progress):
        return progress


class TextProgressMeter:
    def _print(self, progress):
        print(f"{100 * float(progress):.1f}%")

    def step(self, progress):
        return io_callback(self._print, None, progress, ordered=True) or progress


METERS = {"none": NoProgressMeter, "text": TextProgressMeter}


@dataclasses.dataclass(frozen=True)
class Heun:
    dt0: float
    num_steps: int

    def solve(self, vector_field, y0, meter):
        def body(i, y):
            k1 = vector_field(y)
            k2 = vector_field(y + self.dt0 * k1)
            meter.step(i / self.num_steps)
            return y + 0.5 * self.dt0 * (k1 + k2)

        return jax.lax.fori_loop(0, self.num_steps, body, y0)


def build(cfg):
    solver = Heun(cfg["dt0"], cfg["num_steps"])
    meter = METERS[cfg["progress_meter"]]()
    return lambda y0: solver.solve(lambda y: -0.5 * y, y0, meter)


if __name__ == "__main__":
    cfg = load_config(SOLVER_YAML)
    fn = jax.jit(build(cfg))
    y0 = jax.ShapeDtypeStruct((16,), jnp.float32)
    exported = jax.export.export(fn, platforms=[cfg["export_platform"]])(y0)
    print(exported.platforms)
