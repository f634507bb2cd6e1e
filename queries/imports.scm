; Import bindings. `import a.b` binds `a`; `import a.b as c` binds `c` to `a.b`;
; `from m import n as a` binds `a` (or `n`) to `m.n`. Relative module names
; (`from .kernels import k`) come through as the relative_import node.

(import_statement
  name: (dotted_name) @import.module)

(import_statement
  name: (aliased_import
    name: (dotted_name) @import.module
    alias: (identifier) @import.alias))

(import_from_statement
  module_name: (_) @from.module
  name: (dotted_name) @from.name)

(import_from_statement
  module_name: (_) @from.module
  name: (aliased_import
    name: (dotted_name) @from.name
    alias: (identifier) @from.alias))
