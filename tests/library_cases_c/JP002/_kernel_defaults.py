from jax.experimental.pallas import triton as pltriton

BLOCK_ROWS = 16
GPU_PARAMS = pltriton.CompilerParams(num_warps=8, num_stages=2)
