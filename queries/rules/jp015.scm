; JP015 compile-needs-devices: `.compile()` on a lowering (directly, through
; a name or a method returning it) that is for several platforms, or whose
; mesh is only an AbstractMesh.
((call
   function: (attribute
     attribute: (identifier) @_name)) @site
 (#eq? @_name "compile"))
