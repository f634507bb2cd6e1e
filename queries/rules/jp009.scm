; JP009 set-mesh-abstract: `jax.set_mesh(mesh)` (also as a `with` item) whose
; mesh the model evaluates to an AbstractMesh.
((call
   function: (attribute
     attribute: (identifier) @_name)) @site
 (#eq? @_name "set_mesh"))

; A call of a plain name: the API imported under its name or another
; (`from jax.sharding import set_mesh as sm`), or a name bound to a
; `functools.partial` of it; the model resolves the name.
(call
  function: (identifier)) @site
