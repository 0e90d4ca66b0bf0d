"""Per hand of ``simulate standard --hands N --bots random``: instructions and first-level data-cache misses.

Run from anywhere: ``python bench/driver_layers.py [--hands N] [--reference FILE]``.
Needs ``valgrind`` (its ``cachegrind`` tool simulates the caches and the branch
predictor while counting the instructions a process executes).  The simulate
driver's hand is built up a layer at a time, each layer a child process that sets
up, warms up (300 hands of another seed) and then plays ``N`` hands, less the same
child playing none:

* ``seed``: re-seeding the hand's generator from its string (as ``hands_player`` does);
* ``+ deal``: and the deal's shuffle;
* ``+ HandState``: and the hand's state;
* ``+ play``: and the random bots' whole hand (``play_to_end``, the fused playout);
* ``run_chunk``: the driver's chunks themselves (counting each hand's outcome);

and the reference ``bidwhist_v2.py``'s hands in the same way.  Why: the driver's
hand executes fewer instructions than the reference's yet takes longer; the cache
misses (which CPU time pays for and an instruction count does not show) say where
(docs/measurements.md, the whole-process row).  Counts, so the machine's load
does not move them; not time.  A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import engine  # noqa: E402  (bench/engine.py: where the reference is found)

CHILD = """
import random, sys
layer, hands, ref_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
if layer == "reference":
    import importlib.util
    spec = importlib.util.spec_from_file_location("ref", ref_path)
    ref = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ref)
    rng = random.Random(1)
    for i in range(300 + hands):
        ref.play_hand(rng, i & 3)
    sys.exit(0)
from bidcompiler.pipeline import load_ruleset
from runtime import simulate
from runtime.bots import make_bot
from runtime.game import deal, next_dealer
from runtime.hand import HandState
rules = load_ruleset("standard")
simulate.run_chunk(rules, simulate.RunSpec("hands", 300, 99, ("random",)), 0)  # warm-up
first = simulate._hands_first_dealer(rules, 1)
rng = random.Random.__new__(random.Random)
depth = ["seed", "+ deal", "+ HandState", "+ play"].index(layer) if layer != "run_chunk" else -1
if depth < 0 and hands:  # one chunk of all the hands
    simulate.run_chunk(rules, simulate.RunSpec("hands", hands, 1, ("random",), chunk_size=hands), 0)
for i in range(hands if depth >= 0 else 0):
    rng.seed(f"bidwhist:1:{i}")  # simulate.hand_rng(1, i), re-seeding one generator as hands_player does
    if depth >= 1:
        dealt, kitty = deal(rules, rng)
        if depth >= 2:
            state = HandState(rules, next_dealer(rules, first, i), dealt, kitty)
            if depth >= 3:
                make_bot("random", rng).play_to_end(state)
"""

LAYERS = ("seed", "+ deal", "+ HandState", "+ play", "run_chunk", "reference")
# What cachegrind reports on its standard error, by the name shown here.
EVENTS = {"instructions": r"I\s+refs:\s+([\d,]+)", "D1 misses": r"D1\s+misses:\s+([\d,]+)",
          "LL misses": r"LL\s+misses:\s+([\d,]+)", "mispredicts": r"Mispredicts:\s+([\d,]+)"}


def counts(layer: str, hands: int, reference: Path) -> dict[str, int]:
    """cachegrind's totals for a child playing ``hands`` hands of ``layer``."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                           "--cachegrind-out-file=/dev/null", sys.executable, "-c", CHILD, layer, str(hands),
                           str(reference)], capture_output=True, text=True, env=env, cwd=engine.ROOT)
    if done.returncode:
        raise RuntimeError(f"{layer}: the child failed:\n{done.stderr[-2000:]}")
    out = {}
    for name, pattern in EVENTS.items():
        found = re.search(pattern, done.stderr)
        if found is None:
            raise RuntimeError(f"{layer}: no {name} in cachegrind's output")
        out[name] = int(found.group(1).replace(",", ""))
    return out


def main() -> None:
    """Print each layer's events per hand: (count with N hands - count with none) / N."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--reference", default=None, help="bidwhist_v2.py (default: where bench/engine.py finds it)")
    parser.add_argument("--layer", action="append", choices=LAYERS, help="only this layer (repeatable)")
    args = parser.parse_args()
    reference = engine.find_reference(args.reference)
    if reference is None:
        sys.exit("no reference bidwhist_v2.py found (give --reference FILE)")
    print(f"per hand, {args.hands} hands after 300 warm-up (cachegrind; counts, not time)")
    print(f"{'layer':<14}" + "".join(f"{name:>14}" for name in EVENTS))
    for layer in args.layer or LAYERS:
        full, none = counts(layer, args.hands, Path(reference)), counts(layer, 0, Path(reference))
        print(f"{layer:<14}" + "".join(f"{(full[k] - none[k]) / args.hands:>14,.0f}" for k in EVENTS))


if __name__ == "__main__":
    main()
