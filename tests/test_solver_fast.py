"""The compiled double-dummy search (backend ``fast``, runtime/solver_fast.py) against
the pure-Python search it ports: the same values, the same values of every card, and
the same nodes searched, on positions of every kind of contract the solver plays
(jokers as top trumps, jokers that never win in notrump, a big joker that wins every
trick, downtown, promoted deuces, three players alone, a first trick worth the
discards' book, the first card naming trump).

The kernel's tests need numba (the optional extra ``bidwhist[fast]``); the fallback
test runs without it.
"""

from __future__ import annotations

import cProfile
import pstats
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

# runtime.solver_fast is imported by the tests that use it, not here: importing it compiles the
# search (its signature is given, so numba compiles at import: about a minute of CPU where numba's
# cache is cold, as in a clean clone), and collecting this file would make every pytest-xdist
# worker compile it at once before any test runs.  Run, the first test that needs it compiles it
# once and numba's cache serves the other processes.
from runtime import accelerator
from runtime.hand import PLAY
from runtime.solver import DoubleDummy
from test_solver import ENDGAMES, endgame, rules_of, small_deal, small_rules, start_play


def python_nodes(fn) -> int:
    """Nodes of the Python search while ``fn`` runs: calls of its lead and follow
    functions (as bench/dds.py counts them)."""
    profile = cProfile.Profile()
    profile.enable()
    fn()
    profile.disable()
    return sum(row[1] for (path, _, name), row in pstats.Stats(profile).stats.items()
               if path.replace("\\", "/").endswith("solver/search.py")
               and name in ("lead", "follow", "follow_last"))


def kernel_nodes(dd: DoubleDummy) -> int:
    return sum(e.kernel.nodes for e in dd._engines.values() if e.kernel is not None)


def both(state):
    """(value, card values, nodes) from the Python search and from the kernel, each fresh."""
    own, fast = DoubleDummy(), DoubleDummy(backend="fast")
    box: dict = {}
    n_own = python_nodes(lambda: box.update(v=own.solve(state), a=own.solve_actions(state)))
    v_fast, a_fast = fast.solve(state), fast.solve_actions(state)
    used = [e.kernel is not None for e in fast._engines.values()]
    return (box["v"], box["a"], n_own), (v_fast, a_fast, kernel_nodes(fast)), used


# solver_fast.available() is accelerator.HAVE_NUMBA (read without importing solver_fast).
needs_numba = pytest.mark.skipif(not accelerator.HAVE_NUMBA,
                                 reason=f"numba (extra 'fast') does not import: {accelerator.IMPORT_ERROR}")


@needs_numba
@pytest.mark.parametrize("spec, strain, trump, direction", ENDGAMES)
def test_the_kernel_searches_as_the_python_search_does(spec, strain, trump, direction):
    """Endgames of 3 to 6 cards, stopped anywhere in a trick: same value, same value of
    every card, same count of nodes (it is the same search, move for move)."""
    pytest.importorskip("numba")
    rng = random.Random(f"fast/{spec}/{strain}/{trump}")
    rules = rules_of(spec)
    checked = 0
    for i in range(8):
        state = endgame(spec, strain, trump, direction, rng, 3 + i % 4, extra=i % rules.players)
        if state.phase != PLAY:
            continue
        own, fast, used = both(state)
        assert used and all(used)
        assert own == fast, (spec, state.observation(state.seat))
        checked += 1
    assert checked >= 6


@needs_numba
@pytest.mark.parametrize("spec, strain, hand_size, kitty, trumps", [
    ("oregon", "", 4, 0, [None, 0, 1, 2, 3]),        # the first card led names trump (or notrump)
    ("northeast52", "", 4, 4, [None, 0, 1, 2, 3]),   # the first trick also wins the discards: two books
    ("standard", "notrump", 4, 2, [None, 0, 1, 2, 3]),  # the discards are the declarers' book
    ("standard+low-beats-high", "downtown", 4, 2, [0, 1, 2, 3]),
    ("cutthroat", "notrump", 5, 0, [None, 0, 1, 2, 3]),  # three players alone
    ("two-handed", "", 6, 0, [0, 1, 2, 3]),
])
def test_the_kernel_from_the_first_card_of_small_deals(spec, strain, hand_size, kitty, trumps):
    pytest.importorskip("numba")
    rng = random.Random(f"fast/{spec}")
    rules = small_rules(spec, hand_size, kitty)
    strain = strain or rules.strains[0].name
    for _ in range(6):
        hands, kit = small_deal(rules, rng)
        dealer = rng.randrange(rules.players)
        declarer = (dealer + 1) % rules.players
        state = start_play(rules, hands, kit, dealer, declarer, strain,
                           trump=rng.choice(trumps), rng=rng)
        own, fast, used = both(state)
        assert used and all(used)
        assert own == fast


@needs_numba
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**9), which=st.sampled_from(ENDGAMES), left=st.integers(2, 7),
       extra=st.integers(0, 3))
def test_the_kernel_agrees_on_random_positions(seed, which, left, extra):
    spec, strain, trump, direction = which
    rules = rules_of(spec)
    state = endgame(spec, strain, trump, direction, random.Random(seed), left, extra=extra % rules.players)
    if state.phase != PLAY:
        return
    own, fast, _ = both(state)
    assert own == fast


@needs_numba
def test_whole_52_card_deals_agree_with_the_python_search():
    """Two full 13-trick deals from the first card: the same books and nodes.

    The seed draws deals of ~54,000 and ~35,000 nodes (real searches, ~1.6 s of the
    Python search between them); searches from the first card vary a hundredfold in size."""
    rng = random.Random("fast/52f")
    rules = rules_of("cincinnati")
    for trump in (None, 2):
        hands, kit = small_deal(rules, rng)
        state = start_play(rules, hands, kit, 0, 1, "uptown" if trump is not None else "notrump", trump=trump, rng=rng)
        own, fast = DoubleDummy(), DoubleDummy(backend="fast")
        box: dict = {}
        n_own = python_nodes(lambda own=own, state=state, box=box: box.update(v=own.solve(state)))
        assert fast.solve(state) == box["v"]
        assert kernel_nodes(fast) == n_own


def test_backend_fast_without_numba_is_the_python_search(monkeypatch):
    """Where numba is not installed the backend keeps the pure-Python search: same answers."""
    from runtime import solver_fast  # noqa: PLC0415 - compiles the search: see the imports above

    monkeypatch.setattr(solver_fast, "HAVE_NUMBA", False)
    rng = random.Random("fast/fallback")
    state = endgame("standard", "uptown", 1, None, rng, 4, extra=1)
    fast = DoubleDummy(backend="fast")
    assert fast.solve(state) == DoubleDummy().solve(state)
    assert fast.solve_actions(state) == DoubleDummy().solve_actions(state)
    assert all(e.kernel is None for e in fast._engines.values())


class _Unloadable:
    """A finder that makes importing runtime.solver_fast fail as numba does without a writable cache."""

    def find_spec(self, name, path=None, target=None):
        if name == "runtime.solver_fast":
            raise RuntimeError("cannot cache function '_search': no locator available")
        return None


def test_backend_fast_whose_accelerator_cannot_load_is_the_python_search(monkeypatch):
    """Any failure loading the compiled search (numba's RuntimeError with no writable cache folder,
    llvmlite's OSError) leaves backend "fast" on the pure-Python search, not an internal error."""
    import runtime
    import runtime.solver_fast  # noqa: F401, PLC0415 - loaded as at any later point of a run, then unloaded

    monkeypatch.delitem(sys.modules, "runtime.solver_fast")
    monkeypatch.delattr(runtime, "solver_fast")
    monkeypatch.setattr(sys, "meta_path", [_Unloadable(), *sys.meta_path])
    rng = random.Random("fast/unloadable")
    state = endgame("standard", "uptown", 1, None, rng, 4, extra=1)
    fast = DoubleDummy(backend="fast")
    assert fast.solve(state) == DoubleDummy().solve(state)
    assert all(e.kernel is None for e in fast._engines.values())
