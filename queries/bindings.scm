; Name bindings that constant evaluation follows: `PLATFORMS = ("tpu",)`,
; `self.platforms = ...`, `a, b = ...`; loop targets (of `for` statements and
; comprehensions) take each element of a constant collection;
; `with use_abstract_mesh(am):` items give the context mesh.

(assignment
  left: (_) @binding.target
  right: (_) @binding.value)

; `if len(parts := name.split("/")) == 1:`: the name is bound where the
; condition runs.
(named_expression
  name: (identifier) @binding.target
  value: (_) @binding.value)

(for_statement
  left: (_) @binding.loop_target)

; A comprehension's loop variable: each element of its iterable.
(for_in_clause
  left: (_) @binding.loop_target)

(with_item
  value: (_) @context.with_item)
