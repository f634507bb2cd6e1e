from jax.sharding import AbstractDevice

TOPOLOGIES = {
    "v5e-8": ((8,), AbstractDevice(device_kind="TPU v5 lite", num_cores=1, platform="tpu")),
    "v6e-4": ((4,), AbstractDevice(device_kind="TPU v6 lite", num_cores=1, platform="tpu")),
}
