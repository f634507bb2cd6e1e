"""Flag definitions and a trainer config in the manner of axlearn's launch_trainer.py and
config.py (flags are read into a config with .set(...))."""

import argparse
import copy
import dataclasses


def define_flags(parser=None):
    parser = parser or argparse.ArgumentParser()
    parser.add_argument("--module", default="text.gpt.c4_trainer")
    parser.add_argument("--config", default="fuji-test-v1")
    parser.add_argument("--aot_platform", default="tpu")
    parser.add_argument("--mesh_shape", default="1,1")
    return parser


@dataclasses.dataclass
class ConfigBase:
    def set(self, **kwargs):
        for k, v in kwargs.items():
            if not hasattr(self, k):
                raise AttributeError(f"{type(self).__name__}.{k}")
            setattr(self, k, v)
        return self

    def clone(self, **kwargs):
        return copy.deepcopy(self).set(**kwargs)


@dataclasses.dataclass
class SpmdTrainerConfig(ConfigBase):
    name: str = "trainer"
    model_dim: int = 64
    vocab_size: int = 256
    seq_len: int = 32
    global_batch_size: int = 8
    lowering_platforms: tuple = None
    learning_rate: float = 1e-3
