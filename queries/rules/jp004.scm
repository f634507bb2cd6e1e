; JP004 abstract-mesh-device-primitive: each lowering with platforms whose
; mesh is only an AbstractMesh and whose computation needs devices (a host
; callback, a device-requiring primitive).

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
