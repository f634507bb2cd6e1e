"""Array-ish values with primitive-level dispatch rules, after quax's _core / _quaxify."""

import dataclasses

import jax

_RULES = {}


class ArrayValue:
    def materialise(self):
        raise NotImplementedError

    @property
    def shape(self):
        raise NotImplementedError


def register(op):
    def decorator(rule):
        _RULES[op] = rule
        return rule
    return decorator


def dispatch(op, *args):
    if any(isinstance(a, ArrayValue) for a in args):
        rule = _RULES.get(op)
        if rule is not None:
            return rule(*args)
        args = [a.materialise() if isinstance(a, ArrayValue) else a for a in args]
    return _DEFAULT[op](*args)


_DEFAULT = {"matmul": lambda x, y: x @ y}


def quaxify(fn):
    def wrapped(*args, **kwargs):
        return fn(*args, **kwargs)
    wrapped.__wrapped__ = fn
    return wrapped


def tree_flatten_value(cls):
    fields = [f.name for f in dataclasses.fields(cls)]
    jax.tree_util.register_pytree_node(
        cls,
        lambda v: (tuple(getattr(v, f) for f in fields), None),
        lambda _, children: cls(*children),
    )
    return cls
