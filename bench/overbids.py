"""Where the overbids are, and where the bot's book estimate is biased against double dummy.

Run from the repository root, on the file ``bench/realism.py --dump FILE`` writes::

    python bench/realism.py --variant standard --hands 1000 --dd 1000 --seed 1 --backend fast --dump D.jsonl
    python bench/overbids.py D.jsonl [--list CLASS]

Every solved contract is put in a class by how it was reached: the declaring side's
last bid was an opening (nothing bid before it), a bid over partner's, a bid over an
opponent's (contested), a take, or a forced dealer's; with its level and whether it
is notrump.  Per class it prints the contracts, the overbids (not makeable double
dummy) with a Wilson 95% interval, and the mean of the bot's book estimate (the
"about X books expected" of the winning call's reason) minus double dummy's books:
positive means the estimate was too high for that class.  Then the same bias by hand
features of the declarer (trumps held, aces, jokers, whether partner bid).

A measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.realism import share  # noqa: E402

_BOOKS = re.compile(r"about (-?[0-9.]+) books expected")


def classify(row: dict) -> tuple[str, dict]:
    """(the class of the contract, its features) from one dumped row."""
    side_of = row["side_of"]
    decl = row["declarer"]
    side = side_of[decl]
    calls = row["calls"]
    high_seat = -1
    last = None  # (index, kind) of the declaring side's last bid
    before_high = -1
    partner_bid = opp_bid = partner_passed = False
    for k, (seat, call, why) in enumerate(calls):
        if call in ("pass", "redeal"):
            if side_of[seat] == side and seat != decl and last is None:
                partner_passed = True
            continue
        if side_of[seat] == side:
            before_high = high_seat
            last = (k, call, why)
        if seat != decl and side_of[seat] == side:
            partner_bid = True
        if side_of[seat] != side:
            opp_bid = True
        high_seat = seat
    est = None
    kind = "?"
    if last is not None:
        k, call, why = last
        m = _BOOKS.search(why)
        est = float(m.group(1)) if m else None
        if "(must bid)" in why:
            kind = "forced"
        elif call == "take":
            kind = "take"
        elif before_high < 0:
            kind = "open"
        elif side_of[before_high] == side:
            kind = "over partner"
        else:
            kind = "over opponent"
    level = row["bid"].split()[0]
    nt = row["trump"] < 0
    feats = {"level": level, "nt": nt, "est": est, "partner_bid": partner_bid, "opp_bid": opp_bid,
             "partner_passed": partner_passed}
    hand = row["hands"][decl]
    if not nt:
        suit = _suit_letter(row, hand)
        feats["trumps"] = sum(1 for c in hand if c[-1] == suit) + sum(1 for c in hand if c in ("BJ", "LJ"))
    feats["aces"] = sum(1 for c in hand if c[0] == "A")
    feats["jokers"] = sum(1 for c in hand if c in ("BJ", "LJ"))
    return kind, feats


def _suit_letter(row: dict, hand: list[str]) -> str:
    """The trump suit's letter: the suit of the declarer's hand plus discards that the
    contract names (the dump keeps the trump's index; cards name suits by letter)."""
    order = "SHDC"  # the deck's order of suits (runtime's card names)
    t = row["trump"]
    return order[t] if 0 <= t < len(order) else "?"


def mean_ci(xs: list[float]) -> str:
    """The mean of ``xs`` with a normal 95% interval."""
    if not xs:
        return "-"
    m = statistics.fmean(xs)
    if len(xs) < 2:
        return f"{m:+.2f}"
    half = 1.959964 * statistics.stdev(xs) / math.sqrt(len(xs))
    return f"{m:+.2f} ({m - half:+.2f} .. {m + half:+.2f})"


def main() -> None:
    """Read the dump, print the overbids and the estimate's bias by class and feature."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump", help="the file bench/realism.py --dump wrote")
    parser.add_argument("--list", default="", help="print the rows of this class (e.g. 'over opponent 5')")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.dump).read_text().splitlines() if line.strip()]
    groups: dict[str, list] = defaultdict(list)
    by_feat: dict[str, list] = defaultdict(list)
    total_over = 0
    for row in rows:
        kind, f = classify(row)
        over = not row["makeable"]
        total_over += over
        key = f"{kind} {f['level']}{' nt' if f['nt'] else ''}"
        groups[key].append((row, f, over))
        bias = f["est"] - row["dd"] if f["est"] is not None else None
        strain = "nt" if f["nt"] else "suit"
        if bias is not None:
            by_feat[f"{strain} all"].append(bias)
            by_feat[f"{strain} {kind}"].append(bias)
            by_feat[f"{strain} level {f['level']}"].append(bias)
            if not f["nt"]:
                by_feat[f"suit trumps {min(f['trumps'], 8)}"].append(bias)
            by_feat[f"{strain} aces {f['aces']}"].append(bias)
            by_feat[f"{strain} jokers {f['jokers']}"].append(bias)
            by_feat[f"{strain} partner bid {f['partner_bid']}"].append(bias)
            by_feat[f"{strain} partner passed first {f['partner_passed']}"].append(bias)
        if args.list and key == args.list:
            print(json.dumps({"hand": row["hand"], "bid": row["bid"], "dd": row["dd"], "needed": row["needed"],
                              "est": f["est"], "calls": [c[:2] for c in row["calls"]],
                              "declarer": row["hands"][row["declarer"]]}))
    print(f"{len(rows)} contracts; overbids {share(total_over, len(rows))}")
    print(f"{'class':<24} {'n':>4}  {'overbids':<30} est - dd (books)     est - needed")
    for key in sorted(groups, key=lambda k: -len(groups[k])):
        g = groups[key]
        k_over = sum(o for _, _, o in g)
        est = [f["est"] - r["dd"] for r, f, _ in g if f["est"] is not None]
        need = [f["est"] - r["needed"] for r, f, _ in g if f["est"] is not None]
        print(f"{key:<24} {len(g):>4}  {share(k_over, len(g)):<30} {mean_ci(est):<20} {mean_ci(need)}")
    # By kind of call, and whether the bid was below the books the bot's own estimate
    # says it needs (a sacrifice, or a competitive bid valued against defending).
    print("\nby kind (below = bid under its own estimate's needed books):")
    kinds: dict[str, list] = defaultdict(list)
    for g in groups.values():
        for r, f, o in g:
            kind = classify(r)[0]
            below = f["est"] is not None and f["est"] < r["needed"]
            kinds[kind].append(o)
            kinds[f"{kind} {'below' if below else 'at/above'}"].append(o)
    for key in sorted(kinds):
        k_over = sum(kinds[key])
        print(f"  {key:<28} n={len(kinds[key]):>4}  overbids {share(k_over, len(kinds[key])):<30}"
              f" ({100 * k_over / max(total_over, 1):4.1f}% of all overbids)")
    free = [o for key in ("open", "over opponent", "over partner", "take") for o in kinds.get(key, [])]
    if free:
        print(f"  free calls (not forced)      n={len(free):>4}  overbids {share(sum(free), len(free))}")
    print("\nbias of the estimate (est - dd books) by feature:")
    for key in sorted(by_feat):
        print(f"  {key:<32} n={len(by_feat[key]):>4}  {mean_ci(by_feat[key])}")


if __name__ == "__main__":
    main()
