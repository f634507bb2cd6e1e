; Every call: lowering sites (`.lower(...)`, `export(...)`), requirement
; sources (`pallas_call`, host callbacks) and call-graph edges all start here.
; A bare generator is the one argument (`Model(f for f in fns)`).

(call
  function: (_)
  arguments: (argument_list)) @call

(call
  function: (_)
  arguments: (generator_expression)) @call

; A function returned by a factory (`return inner`) is reached by whoever
; calls the factory.
(return_statement
  (_) @reference.returned)
