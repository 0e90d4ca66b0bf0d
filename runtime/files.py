"""One bounded reader for every file the tool reads: regular files only, never more than a limit.

A file handed to the tool may be anything: a FIFO (reading it blocks forever), a
device (``/dev/zero`` never ends), a directory, or a regular file far larger than
anything the tool writes.  :func:`read_bounded` opens without blocking and without
becoming the controlling terminal, checks on the open descriptor that it is a
regular file (the name may have been swapped since anyone looked), and reads at most
``limit`` bytes and one more, so that a file over the limit is refused having read
no more than the limit.  Every refusal is a :class:`FileRefused` whose message names
the file and, for size, the limit.

The limits of the files the tool reads live here too, so that each is stated once.
"""

from __future__ import annotations

import os
import stat

MIB = 1 << 20
# A record file (a hand record, a game record, `simulate --records` lines for
# `replay --each`, play's save FILE).  A hand record is about 1 KB, a game of 20
# hands ~20 KB, a game stopped at simulate's 1,000-hand cap about 1 MB: 16 MiB holds
# some 15,000 hands.  Replaying reads the whole file and keeps each hand's parsed
# record, about 30 times the file's size in memory (~500 MB at the limit).
MAX_RECORD_BYTES = 16 * MIB
# play's sidecar FILE.session.json: settings and one hand in progress, a few KB.
MAX_SIDECAR_BYTES = 1 * MIB
# The lock file beside a save: one small JSON object.
MAX_LOCK_BYTES = 4096


class FileRefused(Exception):
    """A file that is not read: not a regular file, over its limit, unreadable or not UTF-8 text."""


def size_text(limit: int) -> str:
    """A limit as people say it: ``16 MiB``, ``4096 bytes``."""
    if limit % MIB == 0:
        return f"{limit // MIB} MiB"
    return f"{limit} bytes"


def read_bounded_bytes(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them; FileRefused if not.

    ``what`` says what the file is for the messages (``record``, ``session file``).
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{path}: not a regular file; a {what} must be a regular file")
        if info.st_size > limit:
            raise FileRefused(f"{path}: {info.st_size} bytes, larger than {size_text(limit)}, "
                              f"the most the tool reads of a {what}")
        chunks, size = [], 0
        while size <= limit:  # the size may change after fstat: count what is read
            chunk = os.read(fd, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileRefused(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > limit:
        raise FileRefused(f"{path}: larger than {size_text(limit)}, the most the tool reads of a {what}")
    return b"".join(chunks)


def read_bounded(path: str | os.PathLike, limit: int, what: str = "file") -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes; FileRefused if not."""
    data = read_bounded_bytes(path, limit, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileRefused(f"{path}:{line}: not UTF-8 text (byte {exc.start + 1})") from None
