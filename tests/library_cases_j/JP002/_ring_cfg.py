"""Shared configuration for the ring-attention kernels (shaped like ringattention's BlockSizes and
its module-level backend dispatch)."""
import dataclasses


@dataclasses.dataclass(frozen=True)
class BlockSizes:
  block_q: int
  block_k_major: int
  block_k: int
  block_b: int

  def __post_init__(self):
    if self.block_k > self.block_k_major or self.block_k_major % self.block_k:
      raise ValueError(f"block_k={self.block_k} should divide block_k_major={self.block_k_major}")

  @classmethod
  def get_default(cls, batch_size, num_heads, q_seq_len, kv_len, d_model):
    del batch_size, num_heads, q_seq_len, kv_len, d_model
    return BlockSizes(block_q=8, block_k_major=128, block_k=128, block_b=1)


TOPOLOGIES = {
    "v5e-8": {"platform": "tpu", "chips": 8},
    "v5p-16": {"platform": "tpu", "chips": 16},
    "h100-8": {"platform": "cuda", "chips": 8},
    "mi300-8": {"platform": "rocm", "chips": 8},
}


def canonical_backend(platform: str) -> str:
  """Kernel family for a platform name: cuda and rocm share the Triton kernels."""
  return "gpu" if platform in ("cuda", "rocm", "gpu") else platform


@dataclasses.dataclass
class Recipe:
  topology: str = "h100-8"
  attention_backend: str = "gpu"
  float32_logits: bool = True

  @property
  def platform(self):
    return TOPOLOGIES[self.topology]["platform"]
