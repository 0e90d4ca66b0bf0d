"""Engine speed against the hand-coded reference: issue 16's first three rows in one run.

Run from anywhere: ``python bench/engine.py [--rounds R] [--hands N] [--heuristic-hands N]
[--process-hands N] [--reference FILE] [--json]``.  Round by round, interleaved (the
order reversed every other round, so a drift in the machine's speed falls on all
alike), it measures CPU time (``time.process_time`` in this process, the children's
user + system time for whole processes) of:

* **engine loop**: random legal hands of ``standard`` driven through the engine's
  API, as bench/throughput.py drives it (``deal``, ``HandState``, then
  ``rng.choice(state.legal_actions())`` / ``apply_action`` to the end);
* **random playout**: the same hands played by :meth:`runtime.hand.HandState.play_random`,
  the engine's fused loop for uniform random play (the same draws and results as
  the loop above: the digests printed must agree);
* **reference**: random legal hands of the hand-coded ``bidwhist_v2.py`` (int cards,
  precomputed tables, one game only; ``../shared/perf/`` beside the checkout or
  beside the main checkout of a git worktree);
* **compiled playout**: the same hands with the playout's shuffle and tricks compiled
  (runtime/playout_fast.py, the ``fast`` extra; left out where numba is missing);
* **simulate process**: ``bidwhist simulate standard --hands N --bots random --json``
  as a whole new process against ``python bidwhist_v2.py N`` as one, and where the
  ``fast`` extra is installed the same run the other way than its own choice (it
  plays its tricks compiled from ``runtime.simulate.COMPILED_FROM`` hands):
  ``BIDWHIST_FAST_PLAYOUT=1`` below that, numba's import included, ``=0`` from it;
* **heuristic bots** and **random bots** through the simulation driver
  (``runtime.simulate.play_hand``, as ``simulate --hands`` plays hand ``i``).

Each row of :func:`rows` is a ratio taken round by round (min / median / max over
the rounds), above 1 the first named is faster.  Another script can import
:func:`rows` (the lead's bench/speed.py prints every row of the issue's table).
This is a measurement, not a test: it asserts nothing but that the engine loop and
the random playout give the same hands.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # this checkout's engine, before any installed copy

REFERENCE = Path("shared") / "perf" / "bidwhist_v2.py"


def find_reference(given: str | None = None) -> Path | None:
    """bidwhist_v2.py: as given, else ../shared beside this checkout or beside the main checkout; None if absent."""
    if given:
        return Path(given) if Path(given).is_file() else None
    places = [ROOT.parent / REFERENCE]
    try:  # a git worktree: shared/ lies beside the main checkout, whose .git is the common dir
        common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute",
                                 "--git-common-dir"], check=True, capture_output=True, text=True).stdout.strip()
        places.append(Path(common).parent.parent / REFERENCE)
    except (OSError, subprocess.CalledProcessError):
        pass
    return next((p for p in places if p.is_file()), None)


def _load_reference(path: Path):
    """The reference module, imported from ``path``."""
    spec = importlib.util.spec_from_file_location("bidwhist_v2", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def _digest(results: list) -> str:
    """A short digest of the hands' results, in order."""
    return hashlib.sha256(json.dumps(results).encode()).hexdigest()[:16]


# ---------------------------------------------------------------- the jobs (CPU seconds, digest)
def _random_hands(rules, hands: int, seed: int, fused: bool) -> tuple[float, str]:
    """Random legal hands of ``rules``, each played to its end by ``play_random`` (``fused``)
    or action by action through the per-action API; the same draws either way."""
    from runtime.game import deal
    from runtime.hand import HandState

    rng = random.Random(seed)
    results = []
    start = time.process_time()
    for _ in range(hands):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
        if fused:
            state.play_random(rng)
        else:
            while not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        results.append((state.score, state.books))
    return time.process_time() - start, _digest(results)


def engine_loop(rules, hands: int, seed: int) -> tuple[float, str]:
    """Random legal hands through the engine's per-action API (bench/throughput.py's loop)."""
    return _random_hands(rules, hands, seed, fused=False)


def engine_playout(rules, hands: int, seed: int) -> tuple[float, str]:
    """The same hands as :func:`engine_loop`, played by the engine's fused random playout."""
    return _random_hands(rules, hands, seed, fused=True)


def compiled_available() -> bool:
    """Whether the random playout's compiled tricks (runtime/playout_fast.py, the ``fast`` extra) run here."""
    try:
        from runtime import playout_fast
    except ImportError:  # an older tree, or no numpy
        return False
    return playout_fast.available()


def engine_playout_compiled(rules, hands: int, seed: int) -> tuple[float, str]:
    """The same hands as :func:`engine_playout` with its shuffle and tricks compiled (the same draws)."""
    from runtime import draws

    draws.use_compiled(True)
    try:
        return _random_hands(rules, hands, seed, fused=True)
    finally:
        draws.use_compiled(None)


def reference_hands(reference, hands: int, seed: int) -> tuple[float, str]:
    """Random legal hands through the hand-coded reference (dealer rotating)."""
    rng = random.Random(seed)
    results = []
    start = time.process_time()
    for i in range(hands):
        score, _ = reference.play_hand(rng, i & 3)
        results.append(score)
    return time.process_time() - start, _digest(results)


def driver_hands(rules, hands: int, seed: int, bot: str) -> tuple[float, str]:
    """Hands ``0..hands-1`` of a ``simulate --hands`` run of seed ``seed`` with ``bot`` at every seat."""
    from runtime.simulate import play_hand

    results = []
    start = time.process_time()
    for i in range(hands):
        state = play_hand(rules, seed, i, bot)
        results.append((state.score, state.books))
    return time.process_time() - start, _digest(results)


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def process_seconds(argv: list[str]) -> float:
    """CPU time (user + system) of one run of ``argv`` as a whole new process."""
    before = _children_cpu()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    return _children_cpu() - before


def simulate_argv(hands: int, seed: int, compiled: str = "") -> list[str]:
    """``bidwhist simulate standard --hands N --bots random`` run by this interpreter from this checkout
    (``compiled``: BIDWHIST_FAST_PLAYOUT for it, "1" or "0"; "" leaves the run's own choice)."""
    code = "import sys; sys.argv[0] = 'bidwhist'; from bidcompiler.cli import main; main()"
    if compiled:
        code = f"import os; os.environ['BIDWHIST_FAST_PLAYOUT'] = {compiled!r}; {code}"
    return [sys.executable, "-c", code, "simulate", "standard", "--hands", str(hands), "--bots", "random",
            "--seed", str(seed), "--json"]


# ---------------------------------------------------------------- the rows
def _spread(values: list[float]) -> dict:
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


def rows(rounds: int = 5, hands: int = 2000, heuristic_hands: int = 200, process_hands: int = 20000,
         reference: str | None = None, seed: int = 1) -> list[dict]:
    """Measure issue 16's first three rows; one dict per row.

    Each dict has ``row`` (the issue's wording), ``measured`` (what was divided by
    what), ``ratio`` (``min``/``median``/``max`` of the per-round ratios), ``goal``
    (the issue's, a minimum ratio) and ``rates`` (hands per second of each side,
    min/median/max).  Rows needing the reference are left out when it is missing;
    ``process_hands`` 0 leaves out the whole-process row.  ValueError if the engine
    loop and the random playout disagree on a hand.
    """
    from bidcompiler.pipeline import load_ruleset

    rules = load_ruleset("standard")
    ref_path = find_reference(reference)
    ref = _load_reference(ref_path) if ref_path else None
    from runtime.hand import HandState

    # name -> (run for round r: (CPU seconds, digest), hands it plays, whether it is a whole process)
    jobs = {"engine loop": (lambda r: engine_loop(rules, hands, seed + r), hands, False)}
    if hasattr(HandState, "play_random"):  # older trees have no fused playout
        jobs["random playout"] = (lambda r: engine_playout(rules, hands, seed + r), hands, False)
    compiled = compiled_available() and hasattr(HandState, "play_random")
    if compiled:
        jobs["compiled playout"] = (lambda r: engine_playout_compiled(rules, hands, seed + r), hands, False)
    jobs["random bots"] = (lambda r: driver_hands(rules, hands, seed + r, "random"), hands, False)
    jobs["heuristic bots"] = (lambda r: driver_hands(rules, heuristic_hands, seed + r, "heuristic"),
                              heuristic_hands, False)
    if ref is not None:
        jobs["reference"] = (lambda r: reference_hands(ref, hands, seed + r), hands, False)
        if process_hands:
            jobs["simulate process"] = (lambda r: (process_seconds(simulate_argv(process_hands, seed + r)), ""),
                                        process_hands, True)
            if compiled:  # the other way than the run's own choice (compiled from COMPILED_FROM hands)
                from runtime.simulate import COMPILED_FROM

                other = "0" if process_hands >= COMPILED_FROM else "1"
                jobs[f"simulate process, BIDWHIST_FAST_PLAYOUT={other}"] = (
                    lambda r: (process_seconds(simulate_argv(process_hands, seed + r, other)), ""), process_hands, True)
            jobs["reference process"] = (lambda r: (process_seconds([sys.executable, str(ref_path),
                                                                     str(process_hands)]), ""), process_hands, True)
    for run, _, whole in jobs.values():  # warm-up, not counted: the rules' tables, the bots' knowledge
        if not whole:
            run(-seed - 1000)
    rates: dict[str, list[float]] = {name: [] for name in jobs}
    order = list(jobs)
    for r in range(rounds):
        digests = {}
        for name in (order if r % 2 == 0 else order[::-1]):
            run, count, _ = jobs[name]
            cpu, digest = run(r)
            rates[name].append(count / cpu)
            digests[name] = digest
        for name in ("random playout", "compiled playout"):
            if digests["engine loop"] != digests.get(name, digests["engine loop"]):
                raise ValueError(f"round {r}: the {name} played other hands than the engine loop")

    def row(title: str, measured: str, a: str, b: str, goal: float) -> dict:
        ratios = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
        return {"row": title, "measured": measured, "ratio": _spread(ratios), "goal": goal,
                "rates": {a: _spread(rates[a]), b: _spread(rates[b])}}

    out = []
    if ref is not None:
        out.append(row("engine loop, random legal hands", "engine loop / reference",
                       "engine loop", "reference", 1.0))
        if "random playout" in rates:
            out.append(row("engine loop, random legal hands (fused playout)", "random playout / reference",
                           "random playout", "reference", 1.0))
        if "compiled playout" in rates:
            out.append(row("engine loop, random legal hands (fused playout, compiled tricks: the fast extra)",
                           "compiled playout / reference", "compiled playout", "reference", 1.0))
        if process_hands:
            out.append(row(f"bidwhist simulate standard --hands {process_hands} (--bots random), whole process",
                           "simulate process / reference process", "simulate process", "reference process", 1.0))
            for other in ("0", "1"):
                name = f"simulate process, BIDWHIST_FAST_PLAYOUT={other}"
                if name in rates:
                    how = "Python tricks" if other == "0" else "compiled tricks, numba's import included"
                    out.append(row(f"the same with BIDWHIST_FAST_PLAYOUT={other} ({how})",
                                   f"{name} / reference process", name, "reference process", 1.0))
    out.append(row("heuristic bots / random bots", "heuristic bots / random bots (simulate driver)",
                   "heuristic bots", "random bots", 0.5))
    if ref is not None:
        out.append(row("heuristic bots / reference", "heuristic bots (simulate driver) / reference",
                       "heuristic bots", "reference", 0.5))
    return out


def main() -> None:
    """Print the rows (or their JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--hands", type=int, default=2000, help="random hands per round (default 2000)")
    parser.add_argument("--heuristic-hands", type=int, default=200, help="heuristic hands per round (default 200)")
    parser.add_argument("--process-hands", type=int, default=20000,
                        help="hands of each whole process (default 20000; 0 leaves that row out)")
    parser.add_argument("--reference", default=None, metavar="FILE", help="the hand-coded reference bidwhist_v2.py")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if min(args.rounds, args.hands, args.heuristic_hands) < 1 or args.process_hands < 0:
        parser.error("--rounds, --hands and --heuristic-hands must be at least 1, --process-hands at least 0")
    if find_reference(args.reference) is None:
        print("reference: bidwhist_v2.py not found (give --reference FILE); its rows are left out", file=sys.stderr)
    if args.process_hands:  # whole processes run as installed, with bytecode (as bench/speed.py runs them)
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import startup

        startup.compile_packages()
    load = os.getloadavg()[0]
    result = rows(args.rounds, args.hands, args.heuristic_hands, args.process_hands, args.reference)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"standard, {args.rounds} interleaved rounds, CPU time; {os.cpu_count()} CPUs, load average "
          f"{load:.1f} before and {os.getloadavg()[0]:.1f} after; Python {sys.version.split()[0]}")
    if args.process_hands:
        # Compiled above: with PYTHONDONTWRITEBYTECODE set (or a checkout never run) every whole process would
        # otherwise compile the package's sources again (~0.2 s CPU of simulate's start-up here).
        print("note: the packages were compiled to bytecode first: whole processes run as installed")
    print(f"{'row':<64}{'min':>7}{'median':>8}{'max':>7}  goal")
    for r in result:
        ratio = r["ratio"]
        print(f"{r['row']:<64}{ratio['min']:>7.2f}{ratio['median']:>8.2f}{ratio['max']:>7.2f}  >= {r['goal']}")
        rates = "; ".join(f"{name} {v['median']:,.0f}/s" for name, v in r["rates"].items())
        print(f"    {r['measured']}: {rates}")


if __name__ == "__main__":
    main()
