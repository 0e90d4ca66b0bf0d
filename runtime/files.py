"""The one reader of files the tool is given: regular files only, of bounded size.

Every file ``bidwhist`` reads on a user's behalf (variant files, house rules, records
and the files a record names, play saves and their sidecars) goes through
:func:`read_regular`, so each is refused the same way and none can block or exhaust
memory: the path is ``stat``-ed before it is opened, so a FIFO, a device such as
``/dev/zero`` or a directory is refused without being opened ("not a regular file"),
and a file larger than the limit is refused before it is read (the limit is checked
again on what is actually read, in case the file grows meanwhile).  A file whose size
is 0 but which reads as more is made up by the system (``/proc/self/environ``): refused
as not a regular file, and nothing read from it is kept.
"""

from __future__ import annotations

import os
import stat
import sys

MIB = 1 << 20
# The default limit: far above any real variant file (the shipped ones are under 3 KB),
# and small enough that loading one stays well under a second.
MAX_FILE_BYTES = MIB
# A record file (a hand record, a game record, `simulate --records` lines for
# `replay --each`, play's save FILE).  A hand record is about 1 KB, a game of 20
# hands ~20 KB, a game stopped at simulate's 1,000-hand cap about 1 MB: 16 MiB holds
# some 15,000 hands.  A game record is replayed whole (each hand's parsed record is
# kept, about 25 times the file's size in memory); `replay --each` goes through its
# independent hands one at a time (~70 MB peak at the limit).
MAX_RECORD_BYTES = 16 * MIB
# play's sidecar FILE.session.json: settings and one hand in progress, a few KB.
MAX_SIDECAR_BYTES = 1 * MIB
# The lock file beside a save: one small JSON object.
MAX_LOCK_BYTES = 4096
# The most house rules a record may lay on its variant (`with`), and so the most a command
# lays over one variant (a game played with more would write records replay refuses):
# each costs a compile, and no table plays with more than a handful.
MAX_WITH = 32
# The most arrays and objects a record's JSON may hold inside one another, the record's own
# object included (a record needs 3: the record, `swaps`, one exchange).  Deeper is no record
# (status 2).  Without it the limit was json's, near the interpreter's recursion limit and so
# depending on how deep the call was: a value read there could not be quoted in a message.
MAX_RECORD_NESTING = 64


# The refusal of a file of size 0 that reads as more: one the system makes up (/proc, /sys).
PSEUDO_FILE = "not a regular file (the system makes it up as it is read, as under /proc)"


class FileRefused(OSError):
    """A file that is not read: missing, unreadable, not a regular file, or too large.

    ``str()`` is the reason in words, without the path (callers place it); ``kind`` says
    which it is, for callers that word it their own way: ``missing``, ``unreadable``,
    ``not-regular`` or ``too-large``.
    """

    def __init__(self, reason: str, kind: str = "unreadable"):
        super().__init__(reason)
        self.reason = reason
        self.kind = kind

    def __str__(self) -> str:
        return self.reason


def regular_file_problem(path: str | os.PathLike) -> str | None:
    """Why ``path`` is not an existing regular file, in words; None when it is one.

    ``stat`` is called (it follows symbolic links), and ``open`` only for a regular file
    of size 0 (to tell a /proc file, which reads as more): asking about a FIFO or a
    device must not block.
    """
    problem = _stat_problem(path)
    return None if problem is None else problem.reason


def _stat_problem(path: str | os.PathLike) -> FileRefused | None:
    """:func:`regular_file_problem` as the FileRefused it makes, with its kind."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        if os.path.islink(path):
            return FileRefused("no such file (a symbolic link whose target is missing)", "missing")
        return FileRefused("no such file", "missing")
    except OSError as exc:
        return FileRefused(f"cannot read: {exc.strerror or exc}")
    if stat.S_ISDIR(info.st_mode):
        return FileRefused("not a regular file (a directory)", "not-regular")
    if not stat.S_ISREG(info.st_mode):
        return FileRefused("not a regular file", "not-regular")
    if info.st_size == 0 and _reads_more(path):
        return FileRefused(PSEUDO_FILE, "not-regular")
    return None


def _reads_more(path: str | os.PathLike) -> bool:
    """Whether a file that ``stat`` calls regular and empty gives a byte when read: one the
    system makes up (/proc).  Opening a regular file does not block; one byte is read."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return False  # the open that follows says why it cannot be read
    try:
        info = os.fstat(fd)
        return stat.S_ISREG(info.st_mode) and bool(os.read(fd, 1))
    except OSError:
        return False
    finally:
        os.close(fd)


def read_regular(path: str | os.PathLike, limit: int = MAX_FILE_BYTES, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Raises :class:`FileRefused` (its message names the limit when that is the reason).
    The file is opened without blocking (``O_NONBLOCK``: were it swapped for a FIFO
    between the ``stat`` and the ``open``, the open still returns at once) and its
    type is checked again on the open descriptor.  ``follow_links=False`` refuses a
    link at ``path`` itself (for a path already resolved and checked, so a link put in
    its place since cannot lead elsewhere).
    """
    problem = _stat_problem(path)
    if problem is not None:
        raise problem
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise FileRefused(f"cannot read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(f.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("not a regular file", "not-regular")
        if info.st_size > limit:
            raise FileRefused(too_large(info.st_size, limit), "too-large")
        try:
            # Read what stat says is there (a buffer of `limit` bytes would be allocated
            # whole for every small file), then whatever it has grown by, up to the limit.
            data = f.read(info.st_size + 1)
            if len(data) > info.st_size:
                data += f.read(limit + 1 - len(data))
        except OSError as exc:
            raise FileRefused(f"cannot read: {exc.strerror or exc}") from None
        if info.st_size == 0 and data:
            # A file the system makes up as it is read (/proc/self/environ, /sys/...): its size
            # is 0 and it holds whatever it is made of now.  Nobody writes a variant or a
            # record there; one that named it would have the tool read (and quote) secrets.
            raise FileRefused(PSEUDO_FILE, "not-regular")
    if len(data) > limit:
        raise FileRefused(too_large(len(data), limit), "too-large")
    return data


def size_words(size: int) -> str:
    """A size in bytes as people say it: ``1 MiB``, ``256 KiB``, ``1,000 bytes``."""
    if size and size % (1 << 20) == 0:
        return f"{size >> 20} MiB"
    if size and size % (1 << 10) == 0:
        return f"{size >> 10} KiB"
    return f"{size:,} bytes"


def too_large(size: int, limit: int = MAX_FILE_BYTES) -> str:
    """The message for a file of ``size`` bytes over ``limit``."""
    return f"file too large: {size:,} bytes (the limit is {size_words(limit)})"


def size_text(limit: int) -> str:
    """A limit as people say it: ``16 MiB``, ``4 KiB`` (see :func:`size_words`)."""
    return size_words(limit)


def read_bounded_bytes(path: str | os.PathLike, limit: int, what: str = "file") -> bytes:
    """:func:`read_regular` with messages that name the file and what it is for (``record``, ``session file``).

    FileRefused's message starts with the path: callers print it as it is.
    """
    try:
        return read_regular(path, limit)
    except FileRefused as exc:
        reason = exc.reason
        if exc.kind == "not-regular":
            raise FileRefused(f"{path}: {reason}; a {what} must be a regular file", exc.kind) from None
        if exc.kind == "too-large":
            raise FileRefused(_larger_than(path, limit, what), exc.kind) from None
        if exc.kind == "missing":
            reason = "cannot read: No such file or directory"
        raise FileRefused(f"{path}: {reason}", exc.kind) from None


def read_bounded(path: str | os.PathLike, limit: int, what: str = "file") -> str:
    """The UTF-8 text of the regular file at ``path``, at most ``limit`` bytes; FileRefused if not."""
    return _text_of(read_bounded_bytes(path, limit, what), path)


def _larger_than(path: str | os.PathLike, limit: int, what: str) -> str:
    """The message for a file (or stdin) of more than ``limit`` bytes."""
    return f"{path}: larger than {size_text(limit)}, the most the tool reads of a {what}"


def _text_of(data: bytes, path: str | os.PathLike) -> str:
    """``data`` read from ``path`` as UTF-8 text; FileRefused placing the first bad byte."""
    try:
        return utf8_text(data)
    except NotUtf8 as exc:
        raise FileRefused(exc.said_of(path)) from None


def shell_word(name) -> str:
    """``name`` (a path) as one word a POSIX shell reads back as ``name``, for a command to copy
    from a message (``bidwhist play --resume WORD``): as it is where no character is special to
    the shell, in single quotes otherwise, and in bash's ``$'...'`` where it holds a character a
    terminal would act on (ESC, a newline: written as its escape, never sent raw).  A byte that
    was not UTF-8 (a surrogate where the file system's name was decoded) is that byte, ``\\xHH``."""
    import shlex

    text = str(name)
    if text.isprintable():
        return shlex.quote(text)
    out = []
    for c in text:
        code = ord(c)
        if c in "\\'":
            out.append("\\" + c)
        elif 0xDC80 <= code <= 0xDCFF:  # surrogateescape: the byte itself
            out.append(f"\\x{code - 0xDC00:02x}")
        elif c.isprintable():
            out.append(c)
        elif code < 0x80:
            out.append(f"\\x{code:02x}")
        elif code < 0x10000:
            out.append(f"\\u{code:04x}")
        else:
            out.append(f"\\U{code:08x}")
    return "$'" + "".join(out) + "'"


class StandardInput(str):
    """A record FILE given as ``-``: the text comes from stdin.

    It is a ``str`` that reads ``<stdin>`` (messages place their faults there, as
    Python's own do), and the type says where to read: the paths in a record read this
    way are relative to, and confined to, the working directory, as a file's are to its
    folder (:func:`bidcompiler.recordnames.record_folder`).  A file really named ``-``
    is read as ``./-``.
    """

    def __new__(cls) -> "StandardInput":
        return super().__new__(cls, "<stdin>")


def read_stdin_bounded(limit: int, what: str = "record") -> str:
    """The UTF-8 text on stdin, at most ``limit`` bytes; FileRefused if not.

    Refused at once when stdin is closed or a terminal (a record is piped in, not
    typed: the tool would otherwise sit waiting with no prompt), and when more than
    ``limit`` bytes come (read no further: bounded memory, as for a file).  Read to its
    end also where the pipe was left non-blocking by whoever started the tool.
    """
    name = StandardInput()
    stream = sys.stdin
    if stream is None or stream.closed or stream.isatty():
        raise FileRefused(f"{name}: stdin is {'a terminal' if stream and not stream.closed else 'closed'};"
                          f" '-' reads a {what} piped in (… - < FILE)")
    try:
        data = _read_stream(stream, limit + 1)
    except (OSError, ValueError) as exc:
        raise FileRefused(f"{name}: cannot read: {getattr(exc, 'strerror', None) or exc}") from None
    if len(data) > limit:
        raise FileRefused(_larger_than(name, limit, what), "too-large")
    return _text_of(data, name)


def _read_stream(stream, most: int) -> bytes:
    """Up to ``most`` bytes of ``stream`` (a text stream over bytes), to its end.

    From its file descriptor where it has one: a read that would block (a pipe set
    non-blocking) waits for the bytes instead of taking a short read for the end.
    """
    try:
        fd = stream.fileno()
    except (OSError, ValueError, AttributeError):  # no descriptor (click's test runner): its bytes
        return stream.buffer.read(most)
    import select

    chunks: list[bytes] = []
    got = 0
    while got < most:
        try:
            chunk = os.read(fd, min(1 << 20, most - got))
        except BlockingIOError:
            select.select([fd], [], [])
            continue
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def newlines(text: str) -> str:
    """Line breaks as a file opened in text mode reads them (``\\r\\n`` and ``\\r`` as ``\\n``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


class NotUtf8(ValueError):
    """Bytes that are not UTF-8 text, placed at the first bad byte: ``line`` (as text mode counts
    lines) and ``col`` (in characters), both from 1, and ``byte``, its number in the file from 1."""

    def __init__(self, exc: UnicodeDecodeError, line: int, col: int):
        self.reason, self.byte, self.line, self.col = exc.reason, exc.start + 1, line, col
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """What is wrong, without the place: ``not UTF-8 text (invalid start byte at byte 17)``."""
        return f"not UTF-8 text ({self.reason} at byte {self.byte})"

    def said_of(self, path: str | os.PathLike) -> str:
        """The one message for a file: ``PATH:LINE:COL: not UTF-8 text (... at byte N)``."""
        return f"{path}:{self.line}:{self.col}: {self.message}"


def utf8_text(data: bytes) -> str:
    """``data`` decoded as UTF-8 (line breaks as they are); :class:`NotUtf8` placing the first bad byte.

    The one place that says where a file stops being text, for every file the tool reads
    (variant files, records, sessions, PTN files), so each says it the same way.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = newlines(data[:exc.start].decode("utf-8"))  # all text, up to the bad byte
        # A byte-order mark is no character of line 1 to the readers (JSON, YAML) that place
        # their own errors, so it is none here either: both count the same columns.
        before = before.removeprefix("\ufeff")
        raise NotUtf8(exc, before.count("\n") + 1, len(before) - before.rfind("\n")) from None
