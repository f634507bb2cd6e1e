"""Default AOT options for evaluation functions (loaded into every eval job)."""

AOT_DEFAULTS = {
    "lower": {"lowering_platforms": ["cpu"]},
    "compile": {},
    "cache_dir": "/tmp/aot_cache",
}
