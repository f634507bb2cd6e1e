"""A minimal attribute-style config (ml_collections.ConfigDict style)."""


class ConfigDict(dict):
    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(name) from e

    def __setattr__(self, name, value):
        self[name] = value


def get_config():
    config = ConfigDict()
    config.model = ConfigDict()
    config.model.width = 256
    config.model.block_rows = 8
    config.kernel = ConfigDict()
    config.kernel.use_pallas = True
    config.kernel.vmem_limit_mib = 16
    config.export = ConfigDict()
    config.export.platforms = ("tpu", "cuda")
    config.export.name = "rms_norm_head"
    return config
