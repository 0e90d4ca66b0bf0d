"""Machine instructions per random hand of ``standard``: the engine against the hand-coded reference.

Run from anywhere: ``python bench/instructions.py [--hands N] [--layers] [--compiled] [--reference FILE] [--json]``.
Needs ``valgrind`` (its ``callgrind`` tool counts the instructions a process
executes).  Each job runs in a child process under callgrind twice, with 0 and
with N hands after the same set-up and warm-up, and the difference divided by N
is the job's instructions per hand, so imports and start-up drop out.  The jobs
are bench/engine.py's: the per-action API loop, the fused random playout
(:meth:`runtime.hand.HandState.play_random`, the same hands) and the reference
``bidwhist_v2.py``; with ``--layers`` also the API loop with ``random.choice``'s
layers taken away (the same draw by :func:`runtime.draws.below`), then also
``apply_action``'s legality check and ``is_terminal`` (``_compute_legal`` and
``_apply`` called directly): what each layer of the per-action API costs; with
``--compiled`` the playout with its shuffle and tricks compiled (the ``fast`` extra).

Why a second measure beside bench/engine.py's CPU time: an instruction count does
not move with the load of a shared machine, so small changes show up in it that
CPU time hides in its noise.  It is not time: how many instructions a cycle
retires (cache misses, branch prediction) differs between the two programs, and on
this project's machine the fused playout ran in about the reference's CPU time
while executing ~20% fewer instructions a hand (docs/measurements.md, issue 16's table).  Child
processes run with ``PYTHONHASHSEED=0`` so that two runs of one tree count alike.
This is a measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engine  # noqa: E402  (bench/engine.py: the jobs and the reference's place)

# The child: set up, warm up, then play ``hands`` hands of one job (argv: job, hands, reference, digest).
# With ``digest`` "yes" it prints the hands' digest (bench/engine.py's: the engine loop and the random
# playout play the same hands); counted, it computes none (bench/engine.py's CPU time leaves it out too).
CHILD = """
import sys
sys.path.insert(0, {bench!r})
import engine
job, hands, ref_path, digest = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "yes"
if not digest:
    engine._digest = lambda results: ""
if job == "reference":
    ref = engine._load_reference(engine.Path(ref_path))
    engine.reference_hands(ref, 50, 12345)
    result = engine.reference_hands(ref, hands, 1)
else:
    from bidcompiler.pipeline import load_ruleset
    rules = load_ruleset("standard")
    run = {{"engine loop": engine.engine_loop, "random playout": engine.engine_playout,
           "compiled playout": engine.engine_playout_compiled}}.get(job)
    if run is None:  # the engine loop with a layer taken away: the same draws, the same hands
        import random
        import time
        from runtime.draws import below
        from runtime.game import deal
        from runtime.hand import OVER, HandState

        def run(rules, hands, seed):
            rng = random.Random(seed)
            getrandbits = rng.getrandbits
            results = []
            start = time.process_time()
            for _ in range(hands):
                dealt, kitty = deal(rules, rng)
                state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
                if job == "loop, draws.below":  # random.choice's layers gone
                    while not state.is_terminal():
                        legal = state.legal_actions()
                        state.apply_action(legal[below(getrandbits, len(legal))])
                else:  # and the legality check and is_terminal too
                    while state.phase != OVER:
                        legal = state._compute_legal()
                        state._apply(legal[below(getrandbits, len(legal))])
                results.append((state.score, state.books))
            return time.process_time() - start, engine._digest(results)
    run(rules, 50, 12345)
    result = run(rules, hands, 1)
if digest:
    print(result[1])
"""

JOBS = ("reference", "random playout", "engine loop")
# With --compiled: the fused playout with its shuffle and tricks compiled (the fast extra).
COMPILED = ("compiled playout",)
# With --layers: the engine loop with the layers of the per-action API taken away one at a time.
LAYERS = ("loop, draws.below", "loop, no check")


def child_argv(job: str, hands: int, reference: Path, digest: bool = False) -> list[str]:
    """The child process (without valgrind) that sets up, warms up and plays ``hands`` hands of ``job``
    (printing their digest if ``digest``)."""
    return [sys.executable, "-c", CHILD.format(bench=str(HERE)), job, str(hands), str(reference),
            "yes" if digest else "no"]


def collected(stderr: str) -> int | None:
    """The instruction count callgrind reports on its standard error (``Collected : N``), or None."""
    found = re.search(r"Collected\s*:\s*(\d+)", stderr)
    return int(found.group(1)) if found else None


def instructions(job: str, hands: int, reference: Path) -> int:
    """The instructions callgrind counts in a child process that plays ``hands`` hands of ``job``."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        env = dict(os.environ, PYTHONHASHSEED="0")
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                               *child_argv(job, hands, reference)],
                              capture_output=True, text=True, env=env, cwd=engine.ROOT)
        if done.returncode:
            raise RuntimeError(f"{job}: the child failed:\n{done.stderr[-2000:]}")
        count = collected(done.stderr)
        if count is None:
            raise RuntimeError(f"{job}: no instruction count in callgrind's output")
        return count


def per_hand(hands: int, reference: Path, jobs: tuple[str, ...] = JOBS) -> dict[str, float]:
    """Instructions per hand of each job: (count with ``hands`` hands - count with none) / ``hands``."""
    return {job: (instructions(job, hands, reference) - instructions(job, 0, reference)) / hands for job in jobs}


def main() -> None:
    """Print instructions per hand of each job and the reference's count over each engine job's."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="hands each counted run plays (default 500)")
    parser.add_argument("--reference", default=None, metavar="FILE", help="the hand-coded reference bidwhist_v2.py")
    parser.add_argument("--layers", action="store_true",
                        help="also count the engine loop with random.choice's layers taken away (drawing with "
                             "runtime.draws.below), then also apply_action's legality check and is_terminal")
    parser.add_argument("--compiled", action="store_true",
                        help="also count the fused playout with its shuffle and tricks compiled (the fast extra)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed: this bench counts instructions with its callgrind tool")
    reference = engine.find_reference(args.reference)
    if reference is None:
        sys.exit("reference: bidwhist_v2.py not found (give --reference FILE)")
    jobs = JOBS + LAYERS if args.layers else JOBS
    if args.compiled:
        jobs += COMPILED
    counts = per_hand(args.hands, reference, jobs)
    ratios = {job: counts["reference"] / counts[job] for job in jobs if job != "reference"}
    if args.json:
        print(json.dumps({"instructions_per_hand": counts, "reference_over_engine": ratios}, indent=2))
        return
    print(f"instructions per random hand of standard (callgrind, {args.hands} hands, set-up subtracted)")
    for job in jobs:
        extra = "" if job == "reference" else f"   reference / this {ratios[job]:.2f}x"
        print(f"{job:<20}{counts[job]:>12,.0f}{extra}")


if __name__ == "__main__":
    main()
