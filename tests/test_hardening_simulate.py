"""Memory stays flat however long a simulation runs (issue 15).

Every chunk's result used to be kept until the run ended (+23 MiB at 10^6 hands);
now each is folded into the totals when it is due, in chunk-index order, and let go.
The figures must not change: folding in chunk order adds exactly what adding the
kept results at the end did.
"""

from __future__ import annotations

import gc
import json
import tracemalloc

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.backends import run_chunks
from runtime.simulate import RunSpec, Totals, combine, compare, run_chunk, simulate


@pytest.fixture(scope="module")
def standard():
    rules = load_ruleset("standard")
    simulate(rules, RunSpec("hands", 2, 1, ("random",), chunk_size=1))  # warm the bots' caches
    return rules


def same_totals(a: Totals, b: Totals, ordered: bool = True) -> None:
    """The same sums; with ``ordered``, also their keys in the same order.

    (A comparison chunk gathers its keys from a set, whose order depends on each
    process's string hashing: its key order was never the same across workers, and
    its report does not depend on it.)
    """
    assert (a.units, a.hands) == (b.units, b.hands)
    if ordered:
        assert list(a.moments) == list(b.moments)  # the same keys in the same order: the same JSON
    assert {k: m.sums for k, m in a.moments.items()} == {k: m.sums for k, m in b.moments.items()}
    if ordered:
        assert list(a.histograms) == list(b.histograms)
    assert a.histograms == b.histograms


def traced(fn):
    """(memory still held after ``fn()`` ran, peak while it ran), in bytes, as tracemalloc counts them."""
    gc.collect()
    tracemalloc.start()
    try:
        kept = fn()
        gc.collect()
        current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    return current, peak


def test_folding_adds_what_keeping_every_chunk_added(standard):
    spec = RunSpec("hands", 60, 11, ("random",), chunk_size=7)
    kept = combine(run_chunks(run_chunk, (standard, spec), spec.chunks))
    same_totals(simulate(standard, spec), kept)
    games = RunSpec("games", 6, 5, ("random",), chunk_size=2)
    same_totals(simulate(standard, games), combine(run_chunks(run_chunk, (standard, games), games.chunks)))


def test_folding_on_a_pool_adds_the_same(standard):
    """The pool's window (a few chunks in flight ahead of the one due) changes nothing in the sums."""
    spec = RunSpec("hands", 40, 3, ("random",), chunk_size=2)
    same_totals(simulate(standard, spec, workers=2), simulate(standard, spec))
    other = load_ruleset("standard+boston-wins")
    same_totals(compare(standard, other, spec, workers=2), compare(standard, other, spec), ordered=False)


def test_results_are_let_go_once_folded(standard):
    seen = []
    spec = RunSpec("hands", 5, 2, ("random",), chunk_size=1)
    out = run_chunks(run_chunk, (standard, spec), spec.chunks, keep=False,
                     on_result=lambda i, r: seen.append((i, r.units)))
    assert seen == [(i, 1) for i in range(5)]  # in chunk order
    assert out == []  # nothing kept, not even a None per chunk


class _Enough(Exception):
    """Raised by a chunk function to end a run of more chunks than could ever be played."""


def test_a_run_of_a_trillion_chunks_keeps_no_list_of_them():
    """The in-order bookkeeping of run_chunks is lazy: with keep=False nothing is allocated per
    chunk (lists of 10**12 entries could not be), so a huge run starts and delivers in order."""
    seen = []

    def chunk(i):
        if i == 3:
            raise _Enough
        return i

    with pytest.raises(_Enough):
        run_chunks(chunk, (), 10**12, keep=False, on_result=lambda i, r: seen.append((i, r)))
    assert seen == [(0, 0), (1, 1), (2, 2)]


def test_memory_held_does_not_grow_with_the_number_of_chunks(standard):
    """200 chunks hold no more than 20 do, give or take a few chunks' worth; keeping them held 180 more."""
    one = RunSpec("hands", 1, 1, ("random",), chunk_size=1)
    chunk_size, _ = traced(lambda: run_chunk(standard, one, 0))
    assert chunk_size > 1000  # a chunk's result is worth measuring against

    def run_for(n):
        spec = RunSpec("hands", n, 1, ("random",), chunk_size=1)
        return traced(lambda: simulate(standard, spec))

    held_20, peak_20 = run_for(20)
    held_200, peak_200 = run_for(200)
    assert held_200 - held_20 < 10 * chunk_size, (held_20, held_200, chunk_size)
    # The peak also counts the interpreter's free lists (up to 2,000 dead tuples of each size
    # kept for reuse), which `traced` empties first and a run refills: bounded (measured
    # ≈ 0.5 MB, flat from ~2,000 hands on) but up to ~75 chunks' worth after 200 hands when
    # this test runs alone. Keeping the 180 extra results would add 180 chunks' worth.
    assert peak_200 - peak_20 < 100 * chunk_size, (peak_20, peak_200, chunk_size)

    def kept_for(n):  # the old way, for scale: every result kept until the end
        spec = RunSpec("hands", n, 1, ("random",), chunk_size=1)
        return traced(lambda: combine(run_chunks(run_chunk, (standard, spec), spec.chunks)) and
                      run_chunks(run_chunk, (standard, spec), spec.chunks))

    kept_20, _ = kept_for(20)
    kept_200, _ = kept_for(200)
    assert kept_200 - kept_20 > 150 * chunk_size  # what the test would catch


def test_simulate_json_is_unchanged_by_workers(tmp_path):
    """The command folds too: the same seed prints the same JSON on one worker or two, records included."""
    outs = []
    for workers in ("1", "2"):
        records = tmp_path / f"r{workers}.jsonl"
        result = run("simulate", "standard", "--games", "8", "--bots", "random", "--seed", "9",
                     "--workers", workers, "--records", str(records), "--json")
        assert result.exit_code == 0, result.output
        outs.append((json.loads(result.stdout), records.read_text()))
    assert outs[0] == outs[1]
    assert outs[0][1].count("\n") >= 8  # every game has at least one hand
