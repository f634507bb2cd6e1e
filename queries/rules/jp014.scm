; JP014 pallas-kernel-mesh-platform: each lowering whose computation reaches a
; `pl.kernel` / `core_map` whose mesh does not fit the platforms.

; Lowering sites, which the model resolves into lowerings (`Module::lowerings`):
; `jit(f).lower(x)`, `jit(f).trace(x).lower(lowering_platforms=...)`,
; `jax.export.export(jit(f), platforms=...)(x)`, and a call of another
; module's lowering helper (`util.export_for(step, spec, "cuda")`,
; `Module::foreign_lowerings`): any dotted call; which lower, only the model
; knows.
(call
  function: (attribute)) @site

; A call of a plain name: `export(...)` imported under any name, or a name
; bound to `functools.partial(traced.lower, ...)`; which names those are,
; only the model knows.
(call
  function: (identifier)) @site
