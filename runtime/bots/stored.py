"""The bots' per-ruleset tables, kept between runs in the user's cache folder.

Some of what a bot knows about a ruleset takes a while to work out: the heuristic's
auction model (:class:`.outbid.Outlook`) samples 400 hands and plays 200 forced-dealer
hands out, 0.2-2 s of CPU for each ruleset in each process.  The answers depend only
on the ruleset and the code, so they are stored (runtime.diskcache, subfolder
``bots``) under a key made of both: the ruleset's whole JSON (runtime.ruleset_json)
and a hash of the runtime package's files.  A stored table gives exactly the
decisions a fresh one does (tests/test_bot_tables.py); anything unreadable, of
another shape or of another key is a miss, and the table is worked out again.
"""

from __future__ import annotations

import json

from .. import diskcache
from ..ruleset import Ruleset

FORMAT = "bidwhist-bottables/1"
_SUBDIR = "bots"
# A table is a few KB (the largest shipped one ~30 KB); this bounds a damaged entry.
MAX_ENTRY_BYTES = 1 << 20
MAX_ENTRIES = 256


def key(kind: list, rules: Ruleset) -> list | None:
    """The key of the table ``kind`` of ``rules``, as JSON reads it back (tuples become
    lists, so a stored key compares equal); None if the ruleset cannot be written."""
    from ..ruleset_json import ruleset_to_json

    try:
        return json.loads(json.dumps([FORMAT, kind, diskcache.runtime_version(), ruleset_to_json(rules)]))
    except Exception:  # noqa: BLE001 - a ruleset JSON cannot write is simply not stored
        return None


def load(key: list | None) -> dict | None:
    """The table stored under ``key`` (a JSON object), or None."""
    folder = diskcache.entries_folder(_SUBDIR, create=False)
    if folder is None or key is None:
        return None
    doc = diskcache.read_entry(folder / diskcache.entry_name(key), MAX_ENTRY_BYTES)
    if not isinstance(doc, dict) or doc.get("key") != key or not isinstance(doc.get("value"), dict):
        return None
    return doc["value"]


def save(key: list | None, value: dict) -> None:
    """Store ``value`` under ``key``; a cache that cannot be written is not used."""
    folder = diskcache.entries_folder(_SUBDIR, create=True)
    if folder is None or key is None or not diskcache.runtime_unchanged():
        return
    diskcache.write_entry(folder, diskcache.entry_name(key), {"key": key, "value": value},
                          MAX_ENTRY_BYTES, MAX_ENTRIES)
