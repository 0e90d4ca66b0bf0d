"""Every row of issue 16's speed table in one command.

Run from the repository root: ``python bench/speed.py [--rounds R] [--deals N] [--standard M] [--json]``.

It runs the three benches that own the rows and prints one table:

* bench/engine.py — the engine loop with random legal hands (through the per-action
  API and through the fused random playout), ``bidwhist simulate standard --hands N
  --bots random`` as a whole process, each against the hand-coded reference
  ``../shared/perf/bidwhist_v2.py`` measured in the same rounds, and the heuristic
  bots' rate against the random bots';
* bench/dds.py — our double-dummy solver against DDS (the ``endplay`` package, the
  ``dds`` extra) on the same 52-card deals, and whole ``standard`` hands from the first
  card (DDS cannot play jokers, so those are ours alone); with numba installed (the
  ``fast`` extra) the same rows again for ``DoubleDummy(backend="fast")``, the search
  compiled, with its first use (compilation on a machine without a cached copy) timed;
* bench/startup.py — ``bidwhist --help`` as a whole process against
  ``python -c "import click"``;
* with ``--instructions N``, bench/instructions.py — machine instructions per hand of
  the engine loop and of the fused playout against the reference's (valgrind's
  callgrind, N hands each): a measure the machine's load does not move, printed
  beside the CPU-time rows (it is not time: see that bench's notes).

Everything is CPU time measured side by side in one run, so the load of a shared
machine falls on both sides of a ratio alike; absolute times (the double-dummy
seconds) do move with the load.  A row whose tool is missing (the reference file, the
``endplay`` package) is printed as not measured.  This is a measurement, not a test:
it asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import engine  # noqa: E402
import startup  # noqa: E402


def engine_rows(rounds: int, hands: int, process_hands: int) -> list[dict]:
    """The engine, simulate and bots rows (bench/engine.py), each a ratio with its spread over rounds."""
    out = []
    for r in engine.rows(rounds=rounds, hands=hands, heuristic_hands=max(50, hands // 10),
                         process_hands=process_hands):
        ratio = r["ratio"]
        out.append({"row": r["row"], "measured": r["measured"], "value": ratio["median"],
                    "spread": f"{ratio['min']:.2f}-{ratio['max']:.2f} over {rounds} rounds",
                    "unit": "x", "goal": f">= {r['goal']}x", "met": ratio["median"] >= r["goal"]})
    return out


def solver_rows(deals: int, standard: int) -> list[dict]:
    """The double-dummy rows (bench/dds.py): median ratio to DDS, and whole standard hands."""
    try:
        import dds
    except ImportError as exc:  # endplay missing: the bench cannot import
        return [{"row": "double dummy vs DDS", "measured": f"not measured: {exc}", "value": None,
                 "spread": "", "unit": "", "goal": "", "met": False}]
    figures = dds.rows(deals=deals, standard=standard)
    ratio = figures.get("dd_ratio_vs_dds_median")
    median = figures.get("dd_standard_median_s")
    worst = figures.get("dd_standard_worst_s")
    out = [
        {"row": "double dummy, median of per-deal ratios vs DDS, 52-card deals",
         "measured": f"our solver (pure Python) / DDS (endplay), {deals} deals", "value": ratio, "spread": "",
         "unit": "x", "goal": "<= 20x", "met": ratio is not None and ratio <= 20},
        {"row": "double dummy, full standard hand from the first card, median",
         "measured": f"our solver (pure Python), {standard} hands", "value": median, "spread": "",
         "unit": " s", "goal": "<= 0.3 s", "met": median is not None and median <= 0.3},
        {"row": "double dummy, full standard hand from the first card, worst",
         "measured": f"our solver (pure Python), {standard} hands", "value": worst, "spread": "",
         "unit": " s", "goal": "<= 2 s", "met": worst is not None and worst <= 2},
    ]
    fast = figures.get("dd_fast_ratio_vs_dds_median")
    if fast is None:
        return out
    warm = f"; first use {figures['dd_fast_warmup_s']:.1f} s wall clock (import, compile unless cached)"
    f_median, f_worst = figures["dd_fast_standard_median_s"], figures["dd_fast_standard_worst_s"]
    return out + [
        {"row": "double dummy (backend fast), median of per-deal ratios vs DDS",
         "measured": f"DoubleDummy(backend='fast') / DDS (endplay), {deals} deals{warm}", "value": fast,
         "spread": "", "unit": "x", "goal": "<= 20x", "met": fast <= 20},
        {"row": "double dummy (backend fast), full standard hand, median",
         "measured": f"DoubleDummy(backend='fast'), {standard} hands", "value": f_median, "spread": "",
         "unit": " s", "goal": "<= 0.3 s", "met": f_median is not None and f_median <= 0.3},
        {"row": "double dummy (backend fast), full standard hand, worst",
         "measured": f"DoubleDummy(backend='fast'), {standard} hands", "value": f_worst, "spread": "",
         "unit": " s", "goal": "<= 2 s", "met": f_worst is not None and f_worst <= 2},
    ]


def startup_rows(rounds: int) -> list[dict]:
    """`bidwhist --help` against `python -c "import click"` (bench/startup.py)."""
    medians = startup.measure(rounds)
    floor = medians["python -c 'import click'"]
    ratio = medians["bidwhist --help"] / floor
    return [{"row": "bidwhist --help", "measured": f"CPU time / python -c 'import click' ({floor * 1000:.0f} ms), "
             f"median of {rounds} runs", "value": ratio, "spread": "", "unit": "x", "goal": "<= 2x",
             "met": ratio <= 2}]


def instruction_rows(hands: int) -> list[dict]:
    """Instructions per hand, the reference's over the engine's (bench/instructions.py, valgrind's callgrind)."""
    import shutil

    import instructions

    reference = engine.find_reference(None)
    if shutil.which("valgrind") is None or reference is None:
        why = "valgrind is not installed" if reference is not None else "bidwhist_v2.py not found"
        return [{"row": "instructions per hand vs the reference", "measured": f"not measured: {why}",
                 "value": None, "spread": "", "unit": "", "goal": "none", "met": None}]
    counts = instructions.per_hand(hands, reference)
    ref = counts["reference"]
    return [{"row": f"instructions per hand, reference / {job} (callgrind)",
             "measured": f"{ref:,.0f} / {counts[job]:,.0f} instructions a hand, {hands} hands (not time)",
             "value": ref / counts[job], "spread": "", "unit": "x", "goal": "none", "met": None}
            for job in ("random playout", "engine loop")]


def main() -> None:
    """Run the three benches and print the table (or its JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds of the engine rows (default 5)")
    parser.add_argument("--hands", type=int, default=2000, help="random hands per engine round (default 2000)")
    parser.add_argument("--process-hands", type=int, default=20000,
                        help="hands of each whole simulate process (default 20000)")
    parser.add_argument("--deals", type=int, default=30, help="52-card deals solved by ours and DDS (default 30)")
    parser.add_argument("--standard", type=int, default=10, help="whole standard hands solved (default 10)")
    parser.add_argument("--startup-rounds", type=int, default=15, help="runs of each start-up command (default 15)")
    parser.add_argument("--instructions", type=int, default=0, metavar="HANDS",
                        help="also count instructions per hand with valgrind, HANDS hands a job (default 0: not)")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    args = parser.parse_args()
    if min(args.rounds, args.hands, args.process_hands, args.deals, args.standard, args.startup_rounds) < 1:
        parser.error("every count must be at least 1")
    if args.instructions < 0:
        parser.error("--instructions must be at least 0")
    load = os.getloadavg()[0]
    startup.compile_packages()  # whole processes run as installed: with bytecode
    rows = engine_rows(args.rounds, args.hands, args.process_hands)
    rows += solver_rows(args.deals, args.standard)
    rows += startup_rows(args.startup_rounds)
    if args.instructions:
        rows += instruction_rows(args.instructions)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"issue 16's rows, CPU time side by side; {os.cpu_count()} CPUs, load average {load:.1f} before and "
          f"{os.getloadavg()[0]:.1f} after; Python {sys.version.split()[0]}")
    for r in rows:
        value = "not measured" if r["value"] is None else f"{r['value']:.2f}{r['unit']}"
        verdict = "(a figure beside the rows)" if r["met"] is None else "met" if r["met"] else "NOT met"
        print(f"{r['row']:<66} {value:>12}  goal {r['goal']:<9} {verdict}")
        print(f"    {r['measured']}{'; ' + r['spread'] if r['spread'] else ''}")


if __name__ == "__main__":
    main()
