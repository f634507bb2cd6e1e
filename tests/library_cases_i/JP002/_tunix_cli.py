"""Raw-key config with environment overrides and a model catalog, after tunix's cli/config.py
and models/registry.py."""

import dataclasses
import os

_TUNIX_PREFIX = "TUNIX_"


def yaml_key_to_env_key(s):
    return _TUNIX_PREFIX + s.upper()


DEFAULTS = {
    "model_name": "gemma-2b-it",
    "export_platforms": "tpu,cuda",
    "decode_block": 8,
}


def load_raw_keys(overrides=None):
    raw = dict(DEFAULTS)
    for key, value in raw.items():
        env_value = os.environ.get(yaml_key_to_env_key(key))
        if env_value is not None:
            raw[key] = type(value)(env_value)
    raw.update(overrides or {})
    raw["export_platforms"] = [p.strip() for p in raw["export_platforms"].split(",") if p.strip()]
    return raw


@dataclasses.dataclass(frozen=True)
class ModelNaming:
    model_id: str
    model_name: str
    model_family: str
    embed_dim: int


MODEL_CATALOG = (
    ModelNaming("google/gemma-2b", "gemma-2b", "gemma", 256),
    ModelNaming("google/gemma-2b-it", "gemma-2b-it", "gemma", 256),
    ModelNaming("meta-llama/Llama-3.2-1B", "llama3.2-1b", "llama3", 128),
)


def lookup(model_name):
    for naming in MODEL_CATALOG:
        if naming.model_name == model_name:
            return naming
    raise ValueError(model_name)
