; JP012 jit-backend-device: `jax.jit` / `pjit` / `functools.partial(jax.jit, ...)`
; given `backend=` or `device=` ...
((call
   function: (attribute
     attribute: (identifier) @_name)
   arguments: (argument_list
     (keyword_argument
       name: (identifier) @_keyword))) @site
 (#any-of? @_name "jit" "pjit" "partial")
 (#any-of? @_keyword "backend" "device"))

; ... or given `**options`, whose keywords the model reads (`Module::args_of`) ...
((call
   function: (attribute
     attribute: (identifier) @_name)
   arguments: (argument_list
     (dictionary_splat))) @site
 (#any-of? @_name "jit" "pjit" "partial"))

; ... also as a plain name, or a call of a name bound to
; `functools.partial(jax.jit, device=...)` (its keywords merged with the
; call's); the model resolves the name.
(call
  function: (identifier)) @site
