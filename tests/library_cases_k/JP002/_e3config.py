"""Library-wide settings, read with ``config(name)`` and changed with
``config(name, value)`` (one dict for the whole process)."""

__default_conf = {
    "irrep_normalization": "component",
    "path_normalization": "element",
    "gradient_normalization": "path",
    "spherical_harmonics_algorithm": "automatic",
    "tensor_product_kernel": "einsum",  # "einsum" or "mosaic"
    "tensor_product_block": 8,
}

__conf = __default_conf.copy()


def config(name, value=None):
  if value is None:
    return __conf[name]
  if name in __conf:
    __conf[name] = value
  else:
    raise ValueError("Unknown configuration option: {}".format(name))


def reset():
  __conf.clear()
  __conf.update(__default_conf)
