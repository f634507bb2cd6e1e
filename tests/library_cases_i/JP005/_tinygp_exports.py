"""A registry of GP entry points to export, filled by a decorator; the options given at
registration travel with the builder."""

EXPORTS = {}


def register_export(name, *, platforms=("cpu",), **options):
    def decorator(builder):
        EXPORTS[name] = {"builder": builder, "platforms": platforms, **options}
        return builder
    return decorator
