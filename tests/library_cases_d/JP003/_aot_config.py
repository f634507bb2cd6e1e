"""Experiment config for the AOT sanity check (ml_collections ConfigDict style)."""


class ConfigDict(dict):
    __getattr__ = dict.__getitem__

    def __setattr__(self, name, value):
        self[name] = value

    def get(self, name, default=None):
        return super().get(name, default)


def get_config():
    config = ConfigDict()
    config.mesh = ConfigDict(shape=(2, 4), axis_names=("data", "model"), axis_type="auto")
    config.model = ConfigDict(d_model=512, d_ff=2048, seq_len=128)
    config.batch_size = 32
    config.aot = ConfigDict()
    # Filled in by the launcher for cross-compilation; None means "local backend".
    config.aot.lowering_platforms = None
    config.aot.dump_hlo = False
    return config
