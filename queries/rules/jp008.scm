; JP008 platform-dependent-branches: `gpu=` given to `lax.platform_dependent`
; (directly or in a `functools.partial` of it; a plain name, `pdep(x, gpu=...)`,
; is among the plain-name calls below) ...
((call
   function: (attribute
     attribute: (identifier) @_name)
   arguments: (argument_list
     (keyword_argument
       name: (identifier) @_keyword))) @site
 (#any-of? @_name "platform_dependent" "partial")
 (#eq? @_keyword "gpu"))

; ... and each lowering for a platform that a reached `platform_dependent`
; has no branch (and no `default=`) for.

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
