; JP013 legacy-dict-compiler-params: `pl.pallas_call(...)` and
; `functools.partial(pl.pallas_call, ...)` whose `compiler_params` (given
; there, or by the callers of a wrapper forwarding **kwargs) is a dict.
((call
   function: (attribute
     attribute: (identifier) @_name)) @site
 (#any-of? @_name "pallas_call" "partial"))

; A call of a plain name: the API imported under its name or another
; (`from jax.experimental.pallas import pallas_call as pc`), or a name
; bound to a `functools.partial` of it; the model resolves the name.
(call
  function: (identifier)) @site
