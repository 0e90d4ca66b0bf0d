"""Parallel efficiency of `simulate --workers 2` against 1, and peak memory per worker.

Run from the repository root: ``python bench/parallel.py [--games N] [--rounds R]``.
The same games are simulated in-process (``--workers 1``) and on a local pool of two
processes (``--workers 2``), alternating round by round in one run so that load on a
shared machine falls on both alike; the best round of each gives the speedup and
the efficiency (speedup / 2).  The pool's rounds include starting the pool, as a
user's command does; the first pool round also starts the pool's server.

The CPU seconds spent inside the chunks are printed too: unlike wall-clock time
they do not depend on other load on the machine.  Memory is the peak resident set
(``VmHWM`` from ``/proc/self/status``, or
``ru_maxrss`` where there is no /proc) of each process that ran chunks, read by the
chunk itself at its end.  The results of both are checked to be identical.  This is
a measurement, not a test: it asserts only that identity.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time

from bidcompiler.pipeline import load_ruleset
from runtime import bots
from runtime.backends import run_chunks
from runtime.simulate import RunSpec, combine, run_chunk


def peak_rss_kib() -> int:
    """This process's peak resident set size in KiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    usage = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return usage // 1024 if sys.platform == "darwin" else usage  # bytes on macOS, KiB on Linux


def measured_chunk(rules, spec, index):
    """A chunk of the simulation, with the pid, peak memory and CPU seconds of the process that ran it."""
    cpu = time.process_time()
    result = run_chunk(rules, spec, index)
    return result, os.getpid(), peak_rss_kib(), time.process_time() - cpu


def one_round(rules, spec, workers: int):
    """Seconds for the whole run, the combined totals, and peak KiB per process that ran chunks."""
    start = time.perf_counter()
    out = run_chunks(measured_chunk, (rules, spec), spec.chunks, workers=workers,
                     preload=("runtime.simulate", "bidcompiler.expressions"))
    seconds = time.perf_counter() - start
    peaks: dict[int, int] = {}
    for _, pid, peak, _ in out:
        peaks[pid] = max(peaks.get(pid, 0), peak)
    return seconds, combine([r for r, _, _, _ in out]), peaks, sum(c for _, _, _, c in out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="standard", help="variant to simulate (default standard)")
    parser.add_argument("--games", type=int, default=600, help="games per round (default 600)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of each (default 3)")
    parser.add_argument("--bots", default="heuristic" if "heuristic" in bots.BOTS else "random")
    args = parser.parse_args()
    rules = load_ruleset(args.variant)
    spec = RunSpec("games", args.games, 2024, (args.bots,))
    best = {1: float("inf"), 2: float("inf")}
    first_pool = None
    peaks = {1: {}, 2: {}}
    totals = {}
    cpu = {1: float("inf"), 2: float("inf")}
    load = os.getloadavg()[0]
    for _ in range(args.rounds):
        for workers in (1, 2):
            seconds, total, seen, chunk_cpu = one_round(rules, spec, workers)
            cpu[workers] = min(cpu[workers], chunk_cpu)
            if workers == 2 and first_pool is None:
                first_pool = seconds
            best[workers] = min(best[workers], seconds)
            for pid, kib in seen.items():
                peaks[workers][pid] = max(peaks[workers].get(pid, 0), kib)
            totals[workers] = total
    same = totals[1].moments == totals[2].moments and totals[1].histograms == totals[2].histograms
    speedup = best[1] / best[2]
    hands = totals[1].hands[0]
    print(f"{args.variant}: {args.games} games ({hands} hands), {args.bots} bots, {spec.chunks} chunks of "
          f"{spec.size}; best of {args.rounds} rounds; {os.cpu_count()} CPUs, load average "
          f"{load:.1f} before and {os.getloadavg()[0]:.1f} after")
    print(f"--workers 1 : {best[1]:7.2f} s  {args.games / best[1]:7.1f} games/s  (in-process)")
    print(f"--workers 2 : {best[2]:7.2f} s  {args.games / best[2]:7.1f} games/s  "
          f"(first pool round, server start included: {first_pool:.2f} s)")
    print(f"speedup     : {speedup:.2f}x   parallel efficiency (speedup / 2): {speedup / 2:.0%}")
    # CPU seconds spent inside the chunks do not depend on how busy the machine is:
    # their ratio shows what running in a pool costs apart from waiting for a CPU.
    print(f"chunk CPU   : {cpu[1]:.2f} s in-process, {cpu[2]:.2f} s over the two workers "
          f"({cpu[2] / cpu[1]:.2f}x)")
    mib = lambda kib: f"{kib / 1024:.0f} MiB"  # noqa: E731
    in_process = ", ".join(mib(k) for k in peaks[1].values())
    workers = ", ".join(mib(k) for k in sorted(peaks[2].values()))
    print(f"peak RSS    : in-process run {in_process}; each pool worker {workers} "
          f"({len(peaks[2])} worker processes over {args.rounds} pools)")
    print(f"results identical for 1 and 2 workers: {'yes' if same else 'NO'}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":  # the pool's processes import this file: run only when asked
    main()
