"""The user's cache folder: where results worth keeping between runs are stored as JSON.

Two kinds of entry live there, each in a subfolder of its own: built rule sets
(``bidcompiler.rulecache``) and the bots' per-ruleset tables (``runtime.bots.stored``).
This module knows only the folder and how an entry is read and written safely; what an
entry depends on, and when it is stale, is each user's business.

Where: ``$BIDWHIST_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/bidwhist``, else
``~/.cache/bidwhist``; ``BIDWHIST_NO_CACHE=1`` turns every cache off.  A folder that is
not the user's own or that others may write to is not used (a shared place could be
planted with entries).  Entries are written to a temporary file and renamed over the
old one, so concurrent writers and readers only ever see whole entries; an entry that
cannot be read is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import sys
from functools import lru_cache
from pathlib import Path

ENV_DIR = "BIDWHIST_CACHE_DIR"
ENV_OFF = "BIDWHIST_NO_CACHE"


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is turned off (or no home is known)."""
    if os.environ.get(ENV_OFF, "") not in ("", "0"):
        return None
    given = os.environ.get(ENV_DIR)
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec: a relative path is ignored
        return Path(xdg) / "bidwhist"
    try:
        return Path.home() / ".cache" / "bidwhist"
    except (RuntimeError, KeyError, OSError):
        return None


def own_folder(folder: Path) -> bool:
    """True if ``folder`` is a directory owned by this user that no one else may write."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and owner_ok and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


# The runtime package's folder: its files are the code an entry's version is a hash of.
_RUNTIME_FOLDER = Path(__file__).resolve().parent


def code_on_disk(*folders: Path) -> bool:
    """True if every one of ``folders`` is a directory: code whose files a version hash can read.

    A package imported from a zip file has no such folder, and a hash of its code would be a
    hash of nothing, the same whatever the code: no cache is used for it (a miss every time).
    """
    return all(os.path.isdir(folder) for folder in folders)


def entries_folder(subdir: str, create: bool) -> Path | None:
    """The subfolder ``subdir`` of the cache (made if ``create``), or None if it cannot be used."""
    base = cache_dir()
    if base is None or not code_on_disk(_RUNTIME_FOLDER):
        return None
    folder = base / subdir
    if create:
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        except OSError:
            return None
    return folder if own_folder(folder) else None


def entry_name(key) -> str:
    """A file name for an entry keyed by ``key`` (anything JSON can write)."""
    return hashlib.sha256(json.dumps(key, ensure_ascii=True, sort_keys=True).encode()).hexdigest()[:40] + ".json"


def read_entry(path: Path, max_bytes: int):
    """The JSON document at ``path``, or None if it is missing, too large, not a regular
    file or not JSON (a damaged entry is a miss)."""
    from .files import read_regular

    try:
        return json.loads(read_regular(path, max_bytes, follow_links=False))
    except Exception:  # noqa: BLE001 - any damage to an entry is a miss, never an error
        return None


def write_entry(folder: Path, name: str, doc, max_bytes: int, max_entries: int) -> None:
    """Store ``doc`` (JSON-ready) as ``folder/name`` atomically, unless it would pass
    ``max_bytes``; past ``max_entries`` entries the oldest go.  A cache that cannot be
    written is simply not used: every failure leaves it as it was."""
    tmp = None
    try:
        text = json.dumps(doc, ensure_ascii=True)
        if len(text) > max_bytes:
            return
        import tempfile  # noqa: PLC0415 - only a write needs it (with shutil, bz2, lzma): not every start-up

        fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".json", dir=folder)
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(tmp, folder / name)  # atomic: readers see the old entry or the new
        tmp = None
        prune(folder, max_entries)
    except Exception:  # noqa: BLE001 - a cache that cannot be written is simply not used
        pass
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def prune(folder: Path, max_entries: int) -> None:
    """Keep at most ``max_entries`` entries: remove the oldest down to half of it."""
    entries = [p for p in folder.iterdir() if p.suffix in (".json", ".set") and not p.name.startswith(".")]
    if len(entries) <= max_entries:
        return
    entries.sort(key=lambda p: p.stat().st_mtime)
    for old in entries[:len(entries) - max_entries // 2]:
        with contextlib.suppress(OSError):
            old.unlink()


@lru_cache(maxsize=1)
def runtime_version() -> str:
    """A hash of the runtime package's files and the Python version: what a table the
    bots computed from a rule set depends on besides the rule set itself, taken once
    per process (see :func:`runtime_unchanged`).

    Content, not modification times (see ``bidcompiler.rulecache.code_version``)."""
    return _hash_runtime()


def _source_files(root: Path):
    """Every file below ``root`` in a fixed order, compiled ``__pycache__`` files left out
    (they follow the sources): what a code version is made of."""
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(names):
            if not name.endswith((".pyc", ".pyo")):
                yield os.path.join(folder, name)


def _stamps() -> list:
    """Each runtime source file's path, size and modification time (cheap: no reading)."""
    out = []
    for path in _source_files(_RUNTIME_FOLDER):
        with contextlib.suppress(OSError):
            info = os.stat(path)
            out.append((path, info.st_size, info.st_mtime_ns))
    return out


# The runtime's files as this process found them when it started (~1 ms).
_AT_IMPORT = _stamps()


def runtime_unchanged() -> bool:
    """True if the runtime's files are as they were when this process imported it.

    A process keeps running the code it imported; should the files change on disk
    meanwhile (an edit while a long run goes on), :func:`runtime_version` would hash
    the new code, and what the old code works out must not be stored under it.
    Asked before storing."""
    return _stamps() == _AT_IMPORT


def _hash_runtime() -> str:
    digest = hashlib.sha256(sys.version.encode())
    hash_files(digest, _RUNTIME_FOLDER)
    return digest.hexdigest()


def hash_files(digest, root: Path) -> None:
    """Feed ``digest`` every source file below ``root`` (its path and bytes, in a fixed order).

    The path is the file's below ``root`` (``os.path.relpath``'s, cut from the walked path
    where it begins with ``root``: relpath's normalising cost ~1.4 ms of every start-up)."""
    top = os.path.join(os.fspath(root), "")  # the walked paths' beginning, with its separator
    for path in _source_files(root):
        relative = path[len(top):] if path.startswith(top) else os.path.relpath(path, root)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            data = b"\0unreadable"
        digest.update(f"{relative}\0{len(data)}\0".encode())
        digest.update(data)
