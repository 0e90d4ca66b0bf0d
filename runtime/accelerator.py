"""numba, the optional accelerator (the ``fast`` extra: ``pip install '.[fast]'``), imported in one place.

Both compiled modules, :mod:`runtime.playout_fast` and :mod:`runtime.solver_fast`, take ``njit``
from here.  Without the extra ``HAVE_NUMBA`` is False, ``njit`` is None and ``IMPORT_ERROR`` says
why; each module then leaves its work to the pure-Python code, which gives the same results.
"""

from __future__ import annotations

from typing import Any

IMPORT_ERROR = ""  # why numba did not import, if it did not
njit: Any = None
try:  # numba is an optional extra
    from numba import njit
    HAVE_NUMBA = True
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    HAVE_NUMBA = False
    IMPORT_ERROR = str(exc)

__all__ = ["HAVE_NUMBA", "IMPORT_ERROR", "njit"]
