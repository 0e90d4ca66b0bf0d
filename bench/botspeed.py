"""Speed of the default (heuristic) bots against an older revision, lone hands and whole games.

Run from anywhere: ``python bench/botspeed.py --old REV [--new REV] [--rounds R] [SPEC ...]`` where
a SPEC is ``VARIANT:hands:N`` or ``VARIANT:games:N`` (default ``standard:games:200
standard:hands:1500``).  The old revision is exported with ``git archive`` into a
temporary folder (deleted afterwards), and so is ``--new`` (else the working tree is
measured); each measurement runs in a child process of its
own with its tree first on ``sys.path`` (the child checks where it imported the engine
from), round by round, the order of the two trees reversed every other round.

A child first plays one hand to build what the bots build once per ruleset and
process (the auction model and its forced-dealer hands: printed apart as start-up),
then plays N hands as ``simulate --hands`` plays them (``runtime.simulate.play_hand``)
or N games as ``simulate --games`` does (``play_game``), seeds 100 + round, and reports
the CPU time (``time.process_time``) of that part.  Printed per SPEC: hands per second,
old and current (medians), and the ratio current / old taken round by round (min /
median / max), and a digest of every hand's score: the two trees must play the same
hands (the run exits 1 if they differ, which a change meant to keep every decision
must not do).  This is a measurement, not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CHILD = r"""
import hashlib, json, sys, time
tree, variant, mode, n, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
sys.path.insert(0, tree)
import runtime
assert runtime.__file__.startswith(tree), runtime.__file__
from runtime.simulate import play_hand, play_game
from bidcompiler.pipeline import load_ruleset
rules = load_ruleset(variant)
t0 = time.process_time()
play_hand(rules, seed + 999, 0, "heuristic")
startup = time.process_time() - t0
digest = hashlib.sha256()
t0 = time.process_time()
if mode == "hands":
    played = [play_hand(rules, seed, i, "heuristic") for i in range(n)]
else:
    played = [h for g in range(n) for h in play_game(rules, seed, g, "heuristic").hands]
cpu = time.process_time() - t0
for h in played:
    digest.update(repr((h.score, h.books, h.declarer, h.bid)).encode())
print(json.dumps({"cpu": cpu, "hands": len(played), "startup": startup, "digest": digest.hexdigest()}))
"""


def child(tree: Path, spec: str, seed: int) -> dict:
    """One measurement of ``spec`` in ``tree``, in a process of its own."""
    variant, mode, n = spec.split(":")
    out = subprocess.run([sys.executable, "-c", CHILD, str(tree), variant, mode, n, str(seed)],
                         capture_output=True, text=True, check=True, cwd=tree).stdout
    return json.loads(out)


def _export(rev: str, where: Path) -> Path:
    """Revision ``rev`` of this repository written out into ``where`` (``git archive``)."""
    where.mkdir()
    archive = subprocess.run(["git", "-C", str(HERE), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(where)], input=archive.stdout, check=True)
    return where


def main() -> int:
    """Measure and print; exit 1 if the trees played different hands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, metavar="REV", help="older revision to compare")
    parser.add_argument("--new", default=None, metavar="REV",
                        help="a revision to measure instead of the working tree (exported the same way)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    parser.add_argument("specs", nargs="*", default=["standard:games:200", "standard:hands:1500"],
                        metavar="SPEC", help="VARIANT:hands:N or VARIANT:games:N")
    args = parser.parse_args()
    for spec in args.specs:
        parts = spec.split(":")
        if len(parts) != 3 or parts[1] not in ("hands", "games") or not parts[2].isdigit():
            parser.error(f"a SPEC is VARIANT:hands:N or VARIANT:games:N, not {spec!r}")
    same = True
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"old": _export(args.old, Path(tmp) / "old"),
                 "current": _export(args.new, Path(tmp) / "new") if args.new else HERE}
        results: dict[tuple[str, str], list[dict]] = {}
        for r in range(args.rounds):
            for spec in args.specs:
                order = ["old", "current"] if r % 2 == 0 else ["current", "old"]
                for who in order:
                    results.setdefault((spec, who), []).append(child(trees[who], spec, 100 + r))
    for spec in args.specs:
        o, c = results[(spec, "old")], results[(spec, "current")]
        ratios = [(b["hands"] / b["cpu"]) / (a["hands"] / a["cpu"]) for a, b in zip(o, c)]
        digests = "same hands" if all(a["digest"] == b["digest"] for a, b in zip(o, c)) else "DIFFERENT HANDS"
        same = same and digests == "same hands"
        print(f"{spec:28s} old {statistics.median(x['hands'] / x['cpu'] for x in o):7,.0f} hands/s  "
              f"current {statistics.median(x['hands'] / x['cpu'] for x in c):7,.0f} hands/s  "
              f"current/old {min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f}  "
              f"start-up {statistics.median(x['startup'] for x in o):.2f} s / "
              f"{statistics.median(x['startup'] for x in c):.2f} s  ({digests})")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
