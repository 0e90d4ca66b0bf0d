"""The compiled tricks of the random playout give the Python playout's hands, draw for draw.

runtime/playout_fast.py runs CPython's Mersenne Twister over a ``random.Random``'s
own memory: these tests play the same seeds with the compiled tricks off and on,
in every shipped variant and the house rules that change the play (jokers, notrump,
downtown, kitty rules), and compare every field of the finished hands and where
each generator ends; and whole ``simulate`` runs, JSON and records, byte for byte.
They need the ``fast`` extra (numba), part of the ``test`` extra.
"""

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("numba")

from bidcompiler.pipeline import load_ruleset  # noqa: E402
from runtime import draws, playout_fast  # noqa: E402
from runtime.simulate import RunSpec, hands_player, run_chunk  # noqa: E402

from clirun import run  # noqa: E402
from test_random_playout import HOUSE_SPECS, SPECS, playout_hand, same_state  # noqa: E402

VARIANTS = Path(__file__).resolve().parents[1] / "variants"


@pytest.fixture
def compiled():
    """Switch the compiled tricks by ``compiled(True/False)`` during a test; back to the default after."""
    yield draws.use_compiled
    draws.use_compiled(None)


@pytest.fixture
def kernel_calls(monkeypatch):
    """Counts of the kernel's calls by whether cards of no suit were free (proves the kernel ran)."""
    calls: Counter = Counter()
    play = playout_fast.play_tricks

    def counted(rng, hands, leader, table, free):
        calls[free] += 1
        return play(rng, hands, leader, table, free)
    monkeypatch.setattr(playout_fast, "play_tricks", counted)
    return calls


def test_the_generator_layout_is_read_and_draws_agree():
    """available() holds here, and the twister drawn in the generator's memory continues it exactly
    (across a refill of the 624 words) and moves it as Python's own draws would."""
    assert playout_fast.available()
    import numpy as np

    for seed in (3, "bidwhist:7:12", 2**90 + 1):
        ours, theirs = random.Random(seed), random.Random(seed)
        ns = np.array([1, 2, 3, 12, 13, 54, 63, 64, 65, 4096] * 200, np.int64)
        got = np.empty_like(ns)
        playout_fast._draws(playout_fast.state_view(ours), ns, got)
        assert got.tolist() == [theirs._randbelow(int(n)) for n in ns]
        assert ours.getstate() == theirs.getstate()
        assert ours.random() == theirs.random()


def test_compiled_shuffle_is_random_s(compiled):
    """draws.shuffle with the compiled tricks on makes random.shuffle's permutation, generator left alike."""
    compiled(True)
    for seed in range(40):
        ours, theirs = random.Random(seed), random.Random(seed)
        for length in (54, 52, 0, 1, 2, 33, 700):
            a, b = list(range(length)), list(range(length))
            draws.shuffle(ours, a)
            theirs.shuffle(b)
            assert a == b
        assert ours.getstate() == theirs.getstate()
    ours, theirs = random.Random(2), random.Random(2)
    a, b = ["x", 1, None, 2**70], ["x", 1, None, 2**70]  # not cards: the Python swaps, the same ones
    draws.shuffle(ours, a)
    theirs.shuffle(b)
    assert a == b and ours.getstate() == theirs.getstate()


def _both_ways(spec: str, seeds, compiled) -> None:
    rules = load_ruleset(spec)
    for seed in seeds:
        compiled(False)
        slow = random.Random(seed)
        a = playout_hand(rules, slow)
        compiled(True)
        fast = random.Random(seed)
        b = playout_hand(rules, fast)
        same_state(a, b)
        assert a.history == b.history and a.score == b.score
        assert slow.getstate() == fast.getstate()  # both generators drew exactly as much


@pytest.mark.parametrize("spec", SPECS)
def test_compiled_tricks_play_the_python_hands(spec, compiled, kernel_calls):
    _both_ways(spec, range(150), compiled)
    if "renege-penalty" not in spec:  # a renege played and penalised: the per-action path, no kernel
        assert sum(kernel_calls.values()) > 100  # the kernel played (nearly) every hand


@pytest.mark.parametrize("spec", HOUSE_SPECS)
def test_compiled_tricks_play_the_python_hands_under_house_rules(spec, compiled, kernel_calls):
    """Jokers out or free in notrump, downtown, kitty face up, kitty first, no kitty, no jokers, ..."""
    _both_ways(spec, range(500, 560), compiled)
    if "renege-penalty" not in spec:  # a renege played and penalised: the per-action path, no kernel
        assert sum(kernel_calls.values()) > 30


def test_cards_free_to_play_go_through_the_kernel(compiled, kernel_calls):
    """jokers-free-in-notrump plays its notrump tricks through the kernel's free-card branch."""
    _both_ways("standard+jokers-free-in-notrump", range(200), compiled)
    assert kernel_calls[True] > 50 and kernel_calls[False] > 20


def test_mid_hand_and_reused_generators(compiled):
    """A run's one re-seeded generator (its memory view kept) plays each hand as a fresh one does."""
    rules = load_ruleset("standard+kitty-first")
    compiled(False)
    slow = [hands_player(rules, 9, ("random",))(i) for i in range(40)]
    compiled(True)
    play = hands_player(rules, 9, ("random",))
    for i in list(range(40)) + [5, 0, 39]:
        same_state(slow[i], play(i))


@pytest.mark.parametrize("spec", ["standard", "cutthroat", "two-handed", "standard+jokers-free-in-notrump",
                                  "standard+no-kitty", "oregon"])
def test_simulate_chunks_are_identical(spec, compiled):
    """run_chunk's sums, histograms and record lines are the same with the compiled tricks."""
    rules = load_ruleset(spec)
    spec_run = RunSpec("hands", 300, 4, ("random",), records=(spec, ()))
    compiled(False)
    a = run_chunk(rules, spec_run, 0)
    compiled(True)
    b = run_chunk(rules, spec_run, 0)
    assert a.records == b.records
    assert {k: m.sums for k, m in a.moments.items()} == {k: m.sums for k, m in b.moments.items()}
    assert a.histograms == b.histograms


def test_simulate_json_and_records_are_byte_identical(tmp_path):
    """The command with BIDWHIST_FAST_PLAYOUT=1 prints and writes byte for byte what it does with 0."""
    outs = {}
    for flag in ("0", "1"):
        draws.use_compiled(None)  # decided afresh from the environment
        records = tmp_path / f"r{flag}.jsonl"
        result = run("simulate", "standard", "--hands", "700", "--seed", "5", "--bots", "random", "--json",
                     "--records", str(records), env={"BIDWHIST_FAST_PLAYOUT": flag})
        assert result.exit_code == 0, result.stderr
        outs[flag] = (result.stdout, records.read_bytes())
    assert outs["0"] == outs["1"]
    draws.use_compiled(None)


def test_long_runs_prefer_the_compiled_tricks_unless_refused(monkeypatch):
    """A hands run of COMPILED_FROM hands or more switches them on; BIDWHIST_FAST_PLAYOUT=0 keeps them off."""
    from runtime import simulate

    rules = load_ruleset("standard")
    monkeypatch.setattr(simulate, "COMPILED_FROM", 600)
    try:
        for told, count, expect in (("", 599, False), ("", 600, True), ("0", 5000, False)):
            monkeypatch.setenv("BIDWHIST_FAST_PLAYOUT", told)
            draws.use_compiled(None)
            run_chunk(rules, RunSpec("hands", count, 1, ("random",), chunk_size=50), 0)
            assert bool(draws.compiled()) is expect, (told, count)
    finally:
        draws.use_compiled(None)


def test_lists_not_all_ints_are_shuffled_as_python_does_not_converted(compiled):
    """numpy would turn 1.5, True or '3' into ints: the compiled shuffle refuses them before any
    draw, and draws.shuffle shuffles them in Python, unchanged, as random.shuffle does."""
    import numpy as np

    compiled(True)
    for items in ([1.5, 2, 3, 4], [True, 2, 3, 4], ["3", "1", "2"], [np.int64(1), 2, 3]):
        ours, theirs = list(items), list(items)
        rng, python = random.Random(5), random.Random(5)
        draws.shuffle(rng, ours)
        python.shuffle(theirs)
        assert ours == theirs and [type(x) for x in ours] == [type(x) for x in theirs]
        assert rng.getstate() == python.getstate()


class _Unloadable:
    """A finder that makes importing runtime.playout_fast fail as numba does without a writable cache."""

    def find_spec(self, name, path=None, target=None):
        if name == "runtime.playout_fast":
            raise RuntimeError("cannot cache function '_next32': no locator available")
        return None


def test_an_accelerator_that_cannot_load_leaves_the_run_in_python(monkeypatch, compiled, tmp_path):
    """Any failure loading the compiled tricks (numba's RuntimeError with no writable cache folder,
    llvmlite's OSError) leaves the run in Python with the same results, not an internal error."""
    import runtime

    monkeypatch.delitem(sys.modules, "runtime.playout_fast")
    monkeypatch.delattr(runtime, "playout_fast")
    monkeypatch.setattr(sys, "meta_path", [_Unloadable(), *sys.meta_path])
    compiled(True)
    assert draws.compiled() is False
    deck = list(range(54))
    draws.shuffle(random.Random(9), deck)
    expected = list(range(54))
    random.Random(9).shuffle(expected)
    assert deck == expected
