"""Command-line export of a quantized embedding lookup; options come from dataclasses turned into
argparse flags (DataClassArgumentParser / Argu shaped like eformer.aparser)."""
import dataclasses
import sys
from argparse import ArgumentParser

import jax
import jax.numpy as jnp


def Argu(default=dataclasses.MISSING, help=None, **kw):
  return dataclasses.field(default=default, metadata={"help": help, **kw})


@dataclasses.dataclass
class ExportArgs:
  vocab: int = Argu(1024, help="vocabulary size")
  dim: int = Argu(64, help="embedding width")
  platforms: str = Argu("tpu", help="platform(s) to export for")


class DataClassArgumentParser(ArgumentParser):
  def __init__(self, dataclass_types):
    super().__init__()
    self.dataclass_types = list(dataclass_types)
    for dtype in self.dataclass_types:
      for f in dataclasses.fields(dtype):
        kwargs = {"default": f.default, "help": f.metadata.get("help")}
        if "nargs" in f.metadata:
          kwargs["nargs"] = f.metadata["nargs"]
          kwargs["type"] = str
        else:
          kwargs["type"] = f.type if isinstance(f.type, type) else eval(f.type)
        self.add_argument(f"--{f.name}", **kwargs)

  def parse_args_into_dataclasses(self, args=None):
    ns = self.parse_args(args)
    return tuple(dt(**{f.name: getattr(ns, f.name) for f in dataclasses.fields(dt)}) for dt in self.dataclass_types)


def embed(table, scales, ids):
  return table[ids].astype(jnp.float32) * scales[ids]


if __name__ == "__main__":
  (args,) = DataClassArgumentParser([ExportArgs]).parse_args_into_dataclasses(sys.argv[1:])
  specs = (jax.ShapeDtypeStruct((args.vocab, args.dim), jnp.int8), jax.ShapeDtypeStruct((args.vocab, 1), jnp.float32),
           jax.ShapeDtypeStruct((8,), jnp.int32))
  exported = jax.export.export(jax.jit(embed), platforms=args.platforms)(*specs)
  print(exported.platforms)
