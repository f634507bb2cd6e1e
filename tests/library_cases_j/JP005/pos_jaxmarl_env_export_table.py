"""Exports the step function of each registered multi-agent environment for the platforms listed
in its deployment entry (registry / make(env_id, **env_kwargs) shaped like jaxmarl.registration)."""
import jax
import jax.numpy as jnp


class SimpleMPE:
  def __init__(self, num_agents=3, dt=0.1):
    self.num_agents, self.dt = num_agents, dt

  def step(self, pos, vel, actions):
    vel = 0.75 * vel + self.dt * actions
    return pos + self.dt * vel, vel


class SimpleSpreadMPE(SimpleMPE):
  def __init__(self, **kw):
    super().__init__(num_agents=kw.pop("num_agents", 4), **kw)


registered_envs = ["MPE_simple_v3", "MPE_simple_spread_v3"]


def make(env_id: str, **env_kwargs):
  if env_id not in registered_envs:
    raise ValueError(f"{env_id} is not in registered jaxmarl environments.")
  if env_id == "MPE_simple_v3":
    return SimpleMPE(**env_kwargs)
  return SimpleSpreadMPE(**env_kwargs)


DEPLOYMENT = {
    "MPE_simple_v3": {"platforms": ("cpu", "cuda"), "env_kwargs": {}},
    "MPE_simple_spread_v3": {"platforms": ("cuda"), "env_kwargs": {"num_agents": 6}},
}


def export_env(env_id):
  entry = DEPLOYMENT[env_id]
  env = make(env_id, **entry["env_kwargs"])
  spec = jax.ShapeDtypeStruct((env.num_agents, 2), jnp.float32)
  return jax.export.export(jax.jit(env.step), platforms=entry["platforms"])(spec, spec, spec)


if __name__ == "__main__":
  for env_id in registered_envs:
    print(env_id, export_env(env_id).platforms)
