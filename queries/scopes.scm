; Scopes: every def (functions, methods, nested functions), class and lambda.
; Decorators, parameters and bodies are read from the node's fields.

(function_definition) @scope.function

(class_definition) @scope.class

(lambda) @scope.lambda
