"""Compiles the train step of a trainer config named on the command line, with the AOT target
read from a flag into the trainer config (axlearn launch/aot layout)."""

import jax
import jax.numpy as jnp

from _axlearn_launch import SpmdTrainerConfig, define_flags

CONFIGS = {
    "fuji-test-v1": lambda: SpmdTrainerConfig(name="fuji-test", model_dim=64, vocab_size=256),
    "fuji-1B-v3": lambda: SpmdTrainerConfig(name="fuji-1B", model_dim=2048, vocab_size=32768),
}


class SpmdTrainer:
    def __init__(self, cfg):
        self.config = cfg

    def _loss(self, params, tokens):
        x = params["embed"][tokens[:, :-1]]
        logits = jnp.tanh(x @ params["hidden"]) @ params["embed"].T
        logp = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(logp, tokens[:, 1:, None], axis=-1))

    def train_step(self, params, tokens):
        loss, grads = jax.value_and_grad(self._loss)(params, tokens)
        return jax.tree.map(lambda p, g: p - self.config.learning_rate * g, params, grads), loss

    def compile_train_step(self):
        cfg = self.config
        params = {"embed": jax.ShapeDtypeStruct((cfg.vocab_size, cfg.model_dim), jnp.float32),
                  "hidden": jax.ShapeDtypeStruct((cfg.model_dim, cfg.model_dim), jnp.float32)}
        tokens = jax.ShapeDtypeStruct((cfg.global_batch_size, cfg.seq_len), jnp.int32)
        traced = jax.jit(self.train_step).trace(params, tokens)
        return traced.lower(lowering_platforms=cfg.lowering_platforms)


def main(argv=None):
    flags = define_flags().parse_args(argv)
    cfg = CONFIGS[flags.config]().clone(name=f"{flags.config}-aot")
    cfg.set(lowering_platforms=(flags.aot_platform,))
    trainer = SpmdTrainer(cfg)
    return trainer.compile_train_step()


if __name__ == "__main__":
    print(main([]).as_text()[:60])
