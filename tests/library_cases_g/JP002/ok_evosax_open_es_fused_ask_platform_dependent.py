"""Lower an evolution strategy's ``ask`` for the GPU evaluation workers.

The strategy follows an evolutionary-algorithm library's layout: a base class
with ``init``/``ask``/``tell`` that delegate to ``_init``/``_ask``/``_tell``,
``@struct``-like state and params dataclasses, a distribution-based subclass,
and an algorithm registry looked up by name. The population is drawn by a fused
Pallas kernel whose compiler params are a class attribute; other platforms
take the plain jnp expression.
"""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


@partial(jax.tree_util.register_dataclass)
@dataclasses.dataclass
class State:
    mean: jax.Array
    std: jax.Array
    best_fitness: jax.Array
    generation_counter: jax.Array


@dataclasses.dataclass(frozen=True)
class Params:
    std_init: float = 1.0
    std_decay: float = 0.999
    lr: float = 0.05


def _perturb_kernel(mean_ref, z_ref, std_ref, out_ref):
    out_ref[...] = mean_ref[...] + std_ref[0, 0] * z_ref[...]


class EvolutionaryAlgorithm:
    population_block: int = 8
    kernel_compiler_params = None

    def __init__(self, population_size: int, solution: jax.Array):
        assert population_size > 0, "Population size must be greater than 0"
        self.population_size = population_size
        self.num_dims = solution.size

    @property
    def default_params(self) -> Params:
        return Params()

    def init(self, key, mean, params):
        return self._init(key, mean, params)

    def ask(self, key, state, params):
        population, state = self._ask(key, state, params)
        return population, state

    def tell(self, key, population, fitness, state, params):
        state = self._tell(key, population, fitness, state, params)
        best = jnp.minimum(state.best_fitness, fitness.min())
        return dataclasses.replace(state, best_fitness=best, generation_counter=state.generation_counter + 1)

    def _fused_perturb(self, mean, z, std):
        pop, dims = z.shape
        return pl.pallas_call(
            _perturb_kernel,
            out_shape=jax.ShapeDtypeStruct(z.shape, z.dtype),
            grid=(pop // self.population_block,),
            in_specs=[pl.BlockSpec((1, dims), lambda i: (0, 0)),
                      pl.BlockSpec((self.population_block, dims), lambda i: (i, 0)),
                      pl.BlockSpec((1, 1), lambda i: (0, 0))],
            out_specs=pl.BlockSpec((self.population_block, dims), lambda i: (i, 0)),
            compiler_params=self.kernel_compiler_params,
        )(mean[None, :], z, jnp.reshape(std, (1, 1)))


class DistributionBasedAlgorithm(EvolutionaryAlgorithm):
    def _init(self, key, mean, params):
        return State(mean=mean, std=jnp.float32(params.std_init),
                     best_fitness=jnp.float32(jnp.inf), generation_counter=jnp.int32(0))


class Open_ES(DistributionBasedAlgorithm):
    kernel_compiler_params = pltpu.CompilerParams(dimension_semantics=("parallel",))

    def __init__(self, population_size, solution, use_antithetic_sampling=True):
        assert population_size % 2 == 0, "Population size must be even."
        super().__init__(population_size, solution)
        self.use_antithetic_sampling = use_antithetic_sampling

    def _ask(self, key, state, params):
        if self.use_antithetic_sampling:
            z_plus = jax.random.normal(key, (self.population_size // 2, self.num_dims))
            z = jnp.concatenate([z_plus, -z_plus])
        else:
            z = jax.random.normal(key, (self.population_size, self.num_dims))
        population = jax.lax.platform_dependent(
            state.mean, z, state.std,
            tpu=self._fused_perturb,
            default=lambda mean, z, std: mean[None, :] + std * z)
        return population, state

    def _tell(self, key, population, fitness, state, params):
        z = (population - state.mean) / state.std
        shaped = (fitness - fitness.mean()) / (fitness.std() + 1e-8)
        grad = shaped @ z / (self.population_size * state.std)
        return dataclasses.replace(state, mean=state.mean - params.lr * grad,
                                   std=state.std * params.std_decay)


algorithms = {"Open_ES": Open_ES}


def lower_ask(algo_name: str, population_size: int, num_dims: int, platform: str):
    es = algorithms[algo_name](population_size=population_size, solution=jnp.zeros(num_dims))
    params = es.default_params
    state = jax.eval_shape(lambda k, m: es.init(k, m, params),
                           jax.random.key(0), jnp.zeros(num_dims, jnp.float32))
    key = jax.eval_shape(lambda: jax.random.key(0))
    ask = jax.jit(partial(es.ask, params=params))
    return ask.trace(key, state).lower(lowering_platforms=(platform,))


if __name__ == "__main__":
    lowered = lower_ask("Open_ES", population_size=256, num_dims=128, platform="cuda")
    print(lowered.as_text()[:160])
