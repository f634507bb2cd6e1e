; Name bindings that constant evaluation follows: `PLATFORMS = ("tpu",)`,
; `self.platforms = ...`, `a, b = ...`; loop targets make a name non-constant;
; `with use_abstract_mesh(am):` items give the context mesh.

(assignment
  left: (_) @binding.target
  right: (_) @binding.value)

(for_statement
  left: (_) @binding.loop_target)

(with_item
  value: (_) @context.with_item)
