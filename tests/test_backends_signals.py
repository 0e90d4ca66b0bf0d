"""Signals while a process pool runs chunks (runtime.backends._SignalsDeferred).

The clean-clone CI of the thirteenth session hung 30 minutes in
test_a_signal_to_simulate_ends_its_worker_processes_too[SIGINT]: the interrupt was raised
inside ``concurrent.futures.wait`` while it took the futures' locks one by one, some stayed
taken, the pool's manager thread blocked on them, and the exit (which joins that thread)
waited for ever.  The window is a few instructions wide; the subprocess test below widens
it so that the old code hung every time (6 of 6), and checks that the pool's threads now end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from clirun import HANG_GUARD_S

from runtime.backends import _SignalsDeferred

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def ctrl_c_as_at_a_terminal():
    """Python's own SIGINT handler for each test: a suite run as a background job (CI's
    `.ci/run &`) starts with SIGINT ignored, and an ignored signal is rightly never deferred."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


def test_a_signal_in_the_block_is_acted_on_only_where_asked():
    with _SignalsDeferred() as signals:
        os.kill(os.getpid(), signal.SIGINT)  # Python's handler: KeyboardInterrupt, had it run now
        with pytest.raises(KeyboardInterrupt):
            signals.act()
        signals.act()  # once acted on, it is gone
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_signal_left_at_the_end_of_the_block_is_not_lost():
    with pytest.raises(KeyboardInterrupt):
        with _SignalsDeferred():
            os.kill(os.getpid(), signal.SIGINT)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_signal_stays_ignored():
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with _SignalsDeferred() as signals:
            assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
            os.kill(os.getpid(), signal.SIGINT)
            signals.act()  # nothing arrived that Python would have acted on
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_handler_that_ignores_later_signals_as_it_ends_is_not_undone_by_the_block():
    def ending(signum, frame):  # as the command line's SIGTERM handler: later ones are ignored
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, ending)
    try:
        with pytest.raises(SystemExit):
            with _SignalsDeferred() as signals:
                os.kill(os.getpid(), signal.SIGTERM)
                signals.act()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)


def run_script(tmp_path: Path, text: str, guard: int) -> subprocess.CompletedProcess:
    """Run one of the scripts below (``guard``: seconds each thread is waited for) in its own interpreter."""
    script = tmp_path / "script.py"
    script.write_text(text.format(root=str(ROOT), guard=guard))
    proc = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=HANG_GUARD_S, cwd=tmp_path)
    return proc


# The end of each script below: whether the pool's threads end once run_chunks has returned
# (joined with a guard, then named if still running; os._exit, since one left running would
# hold the interpreter's exit).  Indented as the scripts' `if __name__` block.
THREADS_LEFT = textwrap.indent(textwrap.dedent("""
    others = [t for t in threading.enumerate() if t is not threading.main_thread()]
    for thread in others:
        thread.join({guard})
    print("left running:", sorted(t.name for t in others if t.is_alive()))
    sys.stdout.flush()
    os._exit(0)
""").lstrip("\n"), "    ")


SCRIPT = textwrap.dedent("""
    import concurrent.futures._base as base
    import os, signal, sys, threading, time

    sys.path.insert(0, {root!r})
    from runtime import backends

    def widened_enter(self):  # concurrent.futures' own loop, with room for a signal to land in it
        for future in self.futures:
            future._condition.acquire()
            time.sleep(0.01)

    def chunk(i):
        return i

    if __name__ == "__main__":
        # Python's own Ctrl-C handler, as at a terminal: a suite run as a background job
        # (CI's `.ci/run &`) starts its processes with SIGINT ignored, and it would stay so.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        base._AcquireFutures.__enter__ = widened_enter
        threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:  # few chunks: were the interrupt lost, the run ends ("finished") and the test fails
            backends.run_chunks(chunk, (), 400, workers=2, keep=False)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
""") + THREADS_LEFT


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's start method and signals of POSIX")
def test_an_interrupt_while_waiting_on_the_pool_leaves_no_thread_blocked(tmp_path):
    proc = run_script(tmp_path, SCRIPT, guard=60)
    assert proc.stdout.splitlines() == ["interrupted", "left running: []"], proc.stderr


HALF_SENT = textwrap.dedent("""
    import io, os, signal, sys, threading, time
    from multiprocessing import connection

    sys.path.insert(0, {root!r})
    from runtime import backends

    def chunk(i):
        return b"x" * (8 << 20)  # far more than a pipe holds: the worker sends it in many writes

    read = connection.Connection._recv

    def read_half_then_interrupt(self, size, *rest):
        # The pool's manager thread has read part of a result when Ctrl-C comes: the pool is
        # stopped while the worker is still sending the rest.
        if size < (1 << 20) or threading.current_thread() is threading.main_thread():
            return read(self, size, *rest)
        head = read(self, 1 << 16, *rest)
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.3)  # the main thread acts on it (every 0.1 s) and ends the workers
        return io.BytesIO(head.getvalue() + read(self, size - (1 << 16), *rest).getvalue())

    if __name__ == "__main__":
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as at a terminal (see SCRIPT)
        connection.Connection._recv = read_half_then_interrupt
        try:
            backends.run_chunks(chunk, (), 4, workers=2, keep=False)
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
""") + THREADS_LEFT


@pytest.mark.skipif(not hasattr(os, "fork"), reason="the pool's start method and signals of POSIX")
def test_a_pool_stopped_while_a_worker_sends_a_result_leaves_no_thread_reading(tmp_path):
    # Was: the worker, ended half-way through sending, left the manager thread waiting for the
    # rest for ever (this process held the pipe's other writing end), and the exit joined it.
    proc = run_script(tmp_path, HALF_SENT, guard=20)
    assert proc.stdout.splitlines() == ["interrupted", "left running: []"], proc.stderr
