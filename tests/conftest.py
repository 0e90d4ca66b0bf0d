"""Test-wide settings: in CI (CI=true), hypothesis draws the same examples on every run.

A red CI must mean a real regression, not an unlucky draw; locally, tests keep
drawing fresh examples, which is how new bugs are found.
"""

import os

import pytest
from hypothesis import settings

# clirun's asserts are checks of the tests: rewritten like theirs, a failure shows
# its values (this must happen before any test module imports clirun).
pytest.register_assert_rewrite("clirun")

settings.register_profile("ci", derandomize=True, database=None)
if os.environ.get("CI"):
    settings.load_profile("ci")
