; JP003 abstract-mesh-needs-platforms: each lowering (a context mesh that is
; only an AbstractMesh, no platforms given) ...

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

; ... and eager array constructors, `jnp.zeros(...)` and the like (also a plain
; name above), which the model checks for an enclosing
; `with use_abstract_mesh(am):` whose mesh has an Explicit axis.
((call
   function: (attribute
     attribute: (identifier) @_name)) @site
 (#any-of? @_name "zeros" "ones" "full" "empty" "arange" "linspace" "eye"
  "identity" "array" "asarray" "zeros_like" "ones_like" "full_like" "empty_like"))
