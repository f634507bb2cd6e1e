import os

EXPORT_PLATFORMS = (os.environ.get("MODEL_EXPORT_PLATFORM", "tpu"))
EXPORT_VERSION = int(os.environ.get("MODEL_EXPORT_VERSION", "3"))
