"""Compile a whole SNES run on a BBOB function ahead of time, from a JSON run file.

The run is put together like an evolutionary-optimisation library's examples:
a ``Problem`` with ``init``/``sample``/``eval``, BBOB functions picked by name
with a random rotation and optimum, an algorithm with ``init``/``ask``/``tell``
and default params, and a ``lax.scan`` over generations. The run file also
says where the compiled run goes.
"""

import dataclasses
import json
from functools import partial

import jax
import jax.numpy as jnp

RUN_FILE = """
{
  "algorithm": {"name": "SNES", "population_size": 64, "std_init": 1.0},
  "problem": {"fn_name": "rastrigin", "num_dims": 16, "seed": 3},
  "num_generations": 300,
  "aot": {"platforms": ["tpu"], "dump_hlo": false}
}
"""


def sphere(x, x_opt, R):
    z = R @ (x - x_opt)
    return jnp.sum(z**2)


def rastrigin(x, x_opt, R):
    z = R @ (x - x_opt)
    return 10.0 * z.shape[0] + jnp.sum(z**2 - 10.0 * jnp.cos(2 * jnp.pi * z))


BBOB_FNS = {"sphere": sphere, "rastrigin": rastrigin}


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class ProblemState:
    counter: jax.Array


class BBOBProblem:
    def __init__(self, fn_name="sphere", num_dims=2, seed=0):
        self.fn = BBOB_FNS[fn_name]
        self.num_dims = num_dims
        k1, k2 = jax.random.split(jax.random.key(seed))
        self.x_opt = jax.random.uniform(k1, (num_dims,), minval=-4.0, maxval=4.0)
        self.R, _ = jnp.linalg.qr(jax.random.normal(k2, (num_dims, num_dims)))

    def init(self, key):
        return ProblemState(counter=jnp.int32(0))

    def sample(self, key):
        return jax.random.uniform(key, (self.num_dims,), minval=-5.0, maxval=5.0)

    def eval(self, key, solutions, state):
        fitness = jax.vmap(self.fn, in_axes=(0, None, None))(solutions, self.x_opt, self.R)
        return fitness, ProblemState(state.counter + 1), {"mean_fitness": fitness.mean()}


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class SNESState:
    mean: jax.Array
    std: jax.Array
    z: jax.Array
    best_fitness: jax.Array


@dataclasses.dataclass(frozen=True)
class SNESParams:
    lr_mean: float = 1.0
    lr_std: float = 0.2


class SNES:
    def __init__(self, population_size, num_dims, std_init=1.0):
        self.population_size, self.num_dims, self.std_init = population_size, num_dims, std_init

    @property
    def default_params(self):
        return SNESParams(lr_std=(3 + jnp.log(self.num_dims)) / (5 * jnp.sqrt(self.num_dims)).item())

    def init(self, key, mean, params):
        return SNESState(mean, jnp.full_like(mean, self.std_init),
                         jnp.zeros((self.population_size, self.num_dims)), jnp.float32(jnp.inf))

    def ask(self, key, state, params):
        z = jax.random.normal(key, (self.population_size, self.num_dims))
        return state.mean + state.std * z, dataclasses.replace(state, z=z)

    def tell(self, key, population, fitness, state, params):
        ranks = jnp.argsort(jnp.argsort(fitness))
        util = jnp.maximum(0.0, jnp.log(self.population_size / 2 + 1) - jnp.log(ranks + 1.0))
        util = util / util.sum() - 1.0 / self.population_size
        grad_mean = util @ state.z
        grad_std = util @ (state.z**2 - 1.0)
        return SNESState(state.mean + params.lr_mean * state.std * grad_mean,
                         state.std * jnp.exp(0.5 * params.lr_std * grad_std), state.z,
                         jnp.minimum(state.best_fitness, fitness.min()))


def make_run(algo, problem, num_generations):
    params = algo.default_params

    def run(key):
        k_init, k_mean, k_loop = jax.random.split(key, 3)
        state = algo.init(k_init, problem.sample(k_mean), params)
        pstate = problem.init(k_init)

        def generation(carry, k):
            state, pstate = carry
            k_ask, k_eval, k_tell = jax.random.split(k, 3)
            population, state = algo.ask(k_ask, state, params)
            fitness, pstate, metrics = problem.eval(k_eval, population, pstate)
            state = algo.tell(k_tell, population, fitness, state, params)
            return (state, pstate), metrics["mean_fitness"]

        (state, _), curve = jax.lax.scan(generation, (state, pstate), jax.random.split(k_loop, num_generations))
        return state.best_fitness, curve

    return run


ALGORITHMS = {"SNES": SNES}


def compile_run(run_cfg: dict):
    problem = BBOBProblem(**run_cfg["problem"])
    algo_cfg = dict(run_cfg["algorithm"])
    algo = ALGORITHMS[algo_cfg.pop("name")](num_dims=problem.num_dims, **algo_cfg)
    run = jax.jit(make_run(algo, problem, run_cfg["num_generations"]))
    traced = run.trace(jax.eval_shape(lambda: jax.random.key(0)))
    return traced.lower(lowering_platforms=run_cfg["aot"]["platforms"])


if __name__ == "__main__":
    lowered = compile_run(json.loads(RUN_FILE))
    print(lowered.as_text()[:120])
