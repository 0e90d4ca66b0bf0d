"""Test-wide settings: in CI (CI=true), hypothesis draws the same examples on every run.

A red CI must mean a real regression, not an unlucky draw; locally, tests keep
drawing fresh examples, which is how new bugs are found.
"""

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
