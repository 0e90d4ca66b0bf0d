"""Two ``bench/realism.py --dump`` files of the same hands compared hand by hand.

Run from the repository root::

    python bench/overbids_paired.py BEFORE.jsonl AFTER.jsonl

Hands are matched by their index (the first N of a longer run are the same hands).
Printed: overbids (not makeable double dummy) before and after on the common hands,
their paired difference in points with a normal 95% interval, the declaring side's
books minus double dummy (paired), the share made, and how many contracts changed.
A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
from pathlib import Path


def _load(path: str) -> dict[int, dict]:
    return {r["hand"]: r for r in (json.loads(x) for x in Path(path).read_text().splitlines() if x.strip())}


def _ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.3f} ({m - half:+.3f} .. {m + half:+.3f})"


def main() -> None:
    """Match, compare, print."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", metavar="BEFORE", help="a `bench/realism.py --dump` file")
    parser.add_argument("after", metavar="AFTER", help="the dump of the same hands to compare with it")
    args = parser.parse_args()
    a, b = _load(args.before), _load(args.after)
    common = sorted(set(a) & set(b))
    n = len(common)
    ob_a = [0.0 if a[h]["makeable"] else 100.0 for h in common]
    ob_b = [0.0 if b[h]["makeable"] else 100.0 for h in common]
    print(f"{n} common hands; overbids {statistics.fmean(ob_a):.1f}% -> {statistics.fmean(ob_b):.1f}%"
          f", paired {_ci([y - x for x, y in zip(ob_a, ob_b)])} points")
    da = [a[h]["books"] - a[h]["dd"] for h in common]
    db = [b[h]["books"] - b[h]["dd"] for h in common]
    print(f"books minus double dummy {statistics.fmean(da):+.3f} -> {statistics.fmean(db):+.3f}, "
          f"paired {_ci([y - x for x, y in zip(da, db)])}")
    print(f"made {100 * statistics.fmean(a[h]['made'] for h in common):.1f}% -> "
          f"{100 * statistics.fmean(b[h]['made'] for h in common):.1f}%")
    changed = [h for h in common if (a[h]["bid"], a[h]["declarer"]) != (b[h]["bid"], b[h]["declarer"])]
    print(f"contracts changed {len(changed)}: overbid before {sum(not a[h]['makeable'] for h in changed)}, "
          f"after {sum(not b[h]['makeable'] for h in changed)}")


if __name__ == "__main__":
    main()
