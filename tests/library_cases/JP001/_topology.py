"""Names of compile targets, the way a launcher describes the hardware it compiles for."""

import dataclasses


@dataclasses.dataclass(frozen=True)
class SystemCharacteristics:
  platform: str
  topology_name: str
  chip_config_name: str
  chips_per_host_bounds: tuple[int, int, int]
  devices_per_slice: int


USER_FACING_NAME_TO_SYSTEM = {
    "v5e-8": SystemCharacteristics("tpu", "v5e:2x4", "default", (2, 2, 1), 8),
    "v6e-8": SystemCharacteristics("tpu", "v6e:2x4", "default", (2, 2, 1), 8),
    "a3-8": SystemCharacteristics("cuda", "a3", "default", (1, 1, 1), 8),
    "host": SystemCharacteristics("cpu", "host", "default", (1, 1, 1), 1),
}


def get_system_characteristics(user_facing_name: str) -> SystemCharacteristics:
  system = USER_FACING_NAME_TO_SYSTEM.get(user_facing_name)
  if system is None:
    raise ValueError(f"Invalid compile topology: {user_facing_name}.")
  return system
