# Built by tests/projects/check_mixed.sh with CC=ukasan-cc; UKASAN_BUG=1
# builds the buggy variant.
import os
from setuptools import Extension, setup

bug = [("BUG", "1")] if os.environ.get("UKASAN_BUG") == "1" else []
setup(
    name="overflow",
    version="0",
    ext_modules=[Extension("overflow", ["overflow.c"], define_macros=bug)],
)
