"""Where a run's chunks are computed: in this process, on a local process pool, or on Dask.

:func:`run_chunks` calls ``fn(*args, i)`` for every chunk ``i`` and hands back the
results by chunk index, whatever ran them and in whatever order they finished; the
chunk functions themselves (:func:`runtime.simulate.run_chunk`,
:func:`runtime.simulate.run_compare_chunk`) are the driver's.  A Ruleset among the
arguments travels to each worker process once (:class:`_Shipped`, Dask's scatter).
"""

from __future__ import annotations

import hashlib
import signal
import threading
from typing import TYPE_CHECKING, Callable, Sequence

from .ruleset import Ruleset

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

# multiprocessing and concurrent.futures are imported only when a pool is made: a run
# in one process (the default) would pay ~25 ms of start-up for them.


class BackendError(Exception):
    """A backend cannot be used (an optional extra is missing, a scheduler is unreachable)."""


def _pool_context():
    # Not fork: a forked child inherits whatever threads hold locks (a progress bar's
    # refresher, a Dask client's event loop), and Python 3.14 no longer forks by
    # default anyway.  forkserver forks workers from a clean server process.
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Shipped:
    """A Ruleset on its way to a pool's worker: one object per worker process, not per chunk.

    Each chunk's arguments are pickled anew; unpickled plainly, every chunk would get
    a fresh Ruleset, rebuild its formulas, and leave the bots' per-ruleset
    precomputation (keyed by identity) cold.  This pickles as the ruleset's bytes
    and a digest and unpickles to the worker's one copy of that ruleset.
    """

    def __init__(self, rules: Ruleset):
        import pickle  # noqa: PLC0415 - a pool's only: a run in this process (the default) does not import it

        self.data = pickle.dumps(rules)
        self.key = hashlib.sha256(self.data).hexdigest()

    def __reduce__(self):
        return (_arrived, (self.key, self.data))


_ARRIVED: dict[str, Ruleset] = {}  # in a worker: the rulesets received, by digest


def _arrived(key: str, data: bytes) -> Ruleset:
    rules = _ARRIVED.get(key)
    if rules is None:
        import pickle  # noqa: PLC0415 - as _Shipped's

        rules = _ARRIVED[key] = pickle.loads(data)
    return rules


def _worker_ignores_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's process group: the parent
    # handles it (it ends the workers, see _stop_pool, and exits); workers stay quiet
    # instead of each printing a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_server_deaf_to_interrupts(context) -> None:
    """Start the forkserver with SIGINT blocked, so that it and every worker forked from it
    are deaf to Ctrl-C from their first instruction.

    Ctrl-C reaches every process of the terminal's process group.  The initializer
    (:func:`_worker_ignores_interrupts`) runs only once a worker is up: a Ctrl-C while
    the server imported its preloaded modules, or a worker had just been forked, printed
    a KeyboardInterrupt traceback from that process, and a worker it ended made the pool
    report itself broken (an internal error, status 70, instead of 130).  A blocked
    signal stays blocked across fork and exec, and Python does not unblock it; this
    process's own mask is restored at once, so a Ctrl-C meant for it is delivered then.
    """
    if (context.get_start_method() != "forkserver" or not hasattr(signal, "pthread_sigmask")
            or threading.current_thread() is not threading.main_thread()):
        return
    from multiprocessing import forkserver

    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    # shutdown() alone lets running and already queued chunks finish first (the
    # interpreter waits for them on exit), which can take long; end the workers.
    results = getattr(pool, "_result_queue", None)  # shutdown() lets go of it
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
    else:
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
    _results_end_with_the_workers(results)


def _results_end_with_the_workers(results) -> None:
    """Close this process's writing end of the pool's result pipe, so that the pipe ends
    (end of file) once the ended workers' ends are closed too.

    A worker ended while it sent a result (a chunk's records are ~250 KB, more than a
    pipe holds) leaves half a message in the pipe: the pool's manager thread, reading
    the rest, waited for ever, since this process's own writing end, never used, kept
    the pipe open; and the interpreter's exit joins that thread.  At end of file the
    thread reads an error instead and winds the pool down as broken.
    """
    writer = getattr(results, "_writer", None)
    if writer is not None:
        writer.close()


def run_chunks(fn: Callable, args: tuple, n_chunks: int, *, workers: int = 1, backend: str = "local",
               scheduler: str | None = None, on_result: Callable[[int, object], None] | None = None,
               on_progress: Callable[[int, object], None] | None = None,
               preload: Sequence[str] = (), keep: bool = True) -> list:
    """Run ``fn(*args, i)`` for every chunk ``i`` and return the results by chunk index.

    ``backend="local"`` runs the chunks in this process (``workers=1``) or on a local
    process pool of ``workers`` processes; ``backend="dask"`` submits the same calls
    to the Dask scheduler at ``scheduler`` (the optional ``distributed`` extra).
    ``on_progress(i, result)`` sees results as they finish, in any order;
    ``on_result(i, result)`` sees them in chunk order (later ones wait), so it can
    write records in order.  ``preload`` names modules a pool's server process
    imports once, so that workers start warm (those needed to unpickle ``args``).

    ``keep=False`` lets each result go once ``on_result`` has seen it (the list
    returned is then empty, and nothing is kept per chunk): a caller that folds the results as they arrive keeps
    memory flat however many chunks a run has.  A pool and Dask, whatever ``keep`` says,
    keep only a window of chunks in flight ahead of the next one due, so finished chunks
    waiting for an earlier one stay few (and Dask's futures, one per chunk submitted).
    """
    # With keep=False only the results that wait for an earlier chunk are held (a pool's
    # window bounds them): lists of n_chunks entries would cost 16 bytes a chunk, 320 MB for
    # the 20 million chunks of a 10**9-game run, before a single game is played.
    kept: list | None = [None] * n_chunks if keep else None
    waiting: dict[int, object] = {}
    next_in_order = 0

    def deliver(i: int, result) -> None:
        nonlocal next_in_order
        waiting[i] = result
        if on_progress is not None:
            on_progress(i, result)
        while next_in_order in waiting:
            due_result = waiting.pop(next_in_order)
            if on_result is not None:
                on_result(next_in_order, due_result)
            if kept is not None:
                kept[next_in_order] = due_result
            next_in_order += 1

    def due() -> int:
        """The first chunk not yet handed to ``on_result``: the pool's window starts there."""
        return next_in_order

    if backend == "dask":
        _run_dask(fn, args, n_chunks, scheduler, deliver, due)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r}")
    elif workers <= 1 or n_chunks <= 1:
        for i in range(n_chunks):
            deliver(i, fn(*args, i))
    else:
        from concurrent.futures import ProcessPoolExecutor

        context = _pool_context()
        if preload and context.get_start_method() == "forkserver":
            context.set_forkserver_preload(list(preload))
        pool = ProcessPoolExecutor(max_workers=min(workers, n_chunks), mp_context=context,
                                   initializer=_worker_ignores_interrupts)
        with _SignalsDeferred() as signals:
            try:
                _start_server_deaf_to_interrupts(context)
                shipped = tuple(_Shipped(a) if isinstance(a, Ruleset) else a for a in args)
                _run_windowed(pool, fn, shipped, n_chunks, min(workers, n_chunks) * WINDOW_PER_WORKER,
                              deliver, due, signals.act)
            except BaseException as failure:  # an interrupt, or a chunk that failed: stop the others now
                _stop_pool(pool)
                if not isinstance(failure, (KeyboardInterrupt, SystemExit)):
                    # A worker ended by the same Ctrl-C or SIGTERM that reached this process
                    # (the pool then reports itself broken) ends the run as that signal does.
                    signals.act()
                raise
            pool.shutdown()
    return kept if kept is not None else []


# Chunks a pool may hold submitted or finished-but-not-yet-due per worker, with keep=False:
# enough to keep every worker busy while one chunk runs long, few enough that results
# waiting for an earlier chunk take little memory.
WINDOW_PER_WORKER = 4


def _in_window(submitted: int, n_chunks: int, due: Callable[[], int], window: int) -> bool:
    """Whether chunk ``submitted`` goes out now: there is one, and it lies fewer than ``window``
    chunks ahead of the chunk due next (the window both the pool and Dask keep)."""
    return submitted < n_chunks and submitted < due() + window


class _SignalsDeferred:
    """While a pool runs, Ctrl-C, SIGTERM and SIGHUP are noted when they arrive and acted on
    only where :meth:`act` is called: between waits, outside the pool's locks.

    A handler's exception (KeyboardInterrupt, or the SystemExit of the command line's
    SIGTERM handler) is raised wherever the main thread happens to be.  Raised inside
    ``concurrent.futures.wait`` while it takes the futures' locks one by one, it left some
    taken for good: the pool's manager thread then blocked on them, and the interpreter's
    exit, which joins that thread, waited for ever (a ``simulate --workers 2`` sent SIGINT
    once hung the suite for 30 minutes).  Acted on here, the same exception is raised from
    a point that holds no lock.  Only a handler Python calls is deferred: an ignored signal
    stays ignored, a default one keeps ending the process; outside the main thread (where
    handlers cannot be set) nothing changes.
    """

    # Deferred signals are acted on within this many seconds while the pool's chunks run.
    POLL_S = 0.1

    def __init__(self) -> None:
        self.previous: dict[int, Callable] = {}
        self.arrived: tuple[int, object] | None = None

    def __enter__(self) -> _SignalsDeferred:
        if threading.current_thread() is threading.main_thread():
            for name in ("SIGINT", "SIGTERM", "SIGHUP"):
                number = getattr(signal, name, None)  # no SIGHUP on Windows
                if number is None:
                    continue
                handler = signal.getsignal(number)
                if callable(handler):
                    self.previous[number] = handler
                    signal.signal(number, self._note)
        return self

    def _note(self, signum: int, frame) -> None:
        if self.arrived is None:  # the first one decides; a second Ctrl-C while ending adds nothing
            self.arrived = (signum, frame)

    def act(self) -> None:
        """Run the handler a signal that arrived would have run (which usually raises)."""
        if self.arrived is not None:
            signum, frame = self.arrived
            self.arrived = None
            self.previous[signum](signum, frame)

    def __exit__(self, exc_type, exc, traceback) -> None:
        for number, handler in self.previous.items():
            # Only where this block's handler is still set: a handler run by act() may have
            # set another on its way out (the command line ignores later signals as it ends).
            if signal.getsignal(number) == self._note:
                signal.signal(number, handler)
        if exc_type is None:  # one that arrived as the pool shut down is not lost
            self.act()


def _run_windowed(pool: ProcessPoolExecutor, fn: Callable, args: tuple, n_chunks: int, window: int,
                  deliver: Callable[[int, object], None], due: Callable[[], int],
                  act_on_signals: Callable[[], None]) -> None:
    """Submit chunks to ``pool`` no further than ``window`` ahead of the chunk due next; deliver
    each as it finishes and drop its future, so no finished result is held by the pool.
    ``act_on_signals`` is called between waits (see :class:`_SignalsDeferred`)."""
    from concurrent.futures import FIRST_COMPLETED, wait

    pending: dict = {}
    submitted = 0
    while submitted < n_chunks or pending:
        while _in_window(submitted, n_chunks, due, window):
            pending[pool.submit(fn, *args, submitted)] = submitted
            submitted += 1
        finished, _ = wait(pending, timeout=_SignalsDeferred.POLL_S, return_when=FIRST_COMPLETED)
        for future in finished:
            deliver(pending.pop(future), future.result())
        act_on_signals()


DASK_MISSING = "--backend dask needs the optional 'distributed' extra: pip install 'bidwhist[distributed]'"


def dask_installed() -> bool:
    """Whether Dask's distributed client is installed, found without importing it (a second's work):
    the command line asks before a run starts, so a missing extra is said before anything is written."""
    import importlib.util

    return importlib.util.find_spec("distributed") is not None


def _run_dask(fn, args, n_chunks, scheduler, deliver, due) -> None:
    """Run the chunks on the Dask scheduler at ``scheduler``, a window at a time (see
    :func:`_run_windowed`): at most ``WINDOW_PER_WORKER`` chunks per worker thread are
    submitted or finished-but-not-yet-due, so neither this process nor the scheduler holds
    a future per chunk of the run (a 10**9-game run has 2x10^7 chunks)."""
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise BackendError(DASK_MISSING) from None
    if not scheduler:
        raise BackendError("--backend dask needs --scheduler ADDRESS (the address of a running Dask scheduler)")
    try:
        # An address Dask cannot even parse is refused before a Client exists: a
        # half-built Client spends 20 s trying to close itself on the way out.
        from distributed.comm import parse_address, parse_host_port
        from distributed.comm.registry import get_backend
        protocol, location = parse_address(scheduler)
        get_backend(protocol)
        if protocol in ("tcp", "tls"):  # a host without a port passes parse_address but not Client
            parse_host_port(location)
        if protocol == "inproc":  # a scheduler inside this very process (tests start one): is there one?
            from distributed.comm.inproc import global_manager
            try:
                listening = global_manager.get_listener_for(location)
            except (ValueError, TypeError):  # validate_address's own complaint about the form
                listening = None
            if listening is None:
                raise ValueError("no scheduler of this process listens there")
    except (ValueError, TypeError) as exc:
        raise BackendError(f"{scheduler} is not a Dask scheduler address: {exc}") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BackendError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        # pure=False: the calls are deterministic, but hashing a Ruleset (compiled
        # formulas) for Dask's task keys is wasted work; each chunk is its own task.
        # Rulesets go to every worker once (Dask keeps one copy per worker for all
        # its tasks), not with each task: see _Shipped for why one copy matters.
        shipped = tuple(client.scatter(a, broadcast=True, hash=False) if isinstance(a, Ruleset) else a
                        for a in args)
        # The window counts worker threads as the pool counts processes; a scheduler with no
        # worker yet still gets one worker's window (Dask queues the tasks until one joins).
        threads = sum(client.nthreads().values())
        window = max(1, min(threads, n_chunks)) * WINDOW_PER_WORKER
        pending: dict = {}  # task key -> chunk index, for the chunks in the window only
        submitted = 0
        stream = dask_completed(loop=client.loop)  # grows as the window moves on

        def top_up() -> None:
            """Submit chunks until ``window`` lie ahead of the chunk due next."""
            nonlocal submitted
            while _in_window(submitted, n_chunks, due, window):
                future = client.submit(fn, *shipped, submitted, pure=False)
                pending[future.key] = submitted
                stream.add(future)
                submitted += 1

        top_up()
        for future in stream:
            deliver(pending.pop(future.key), future.result())
            # This loop's name was the last reference to the future: Dask may release its result.
            del future
            top_up()  # before the next step, so the stream is never empty while chunks remain
    finally:
        client.close()
