; JP001 callback-backend-mismatch: each lowering for one platform whose
; computation reaches a host callback (or Pallas interpret mode); the model
; gives its requirements, the placement of its arguments and the host.

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
