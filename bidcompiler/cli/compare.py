"""``bidwhist compare``: what a rule changes, measured on the same deals under two variants."""

from __future__ import annotations

import click

from .common import load_rules, nonempty_names
from .simulate import check_run, choose_bots, describe_variant, draw_seed, execute, run_options, show_report


@click.command()
@click.argument("a", callback=nonempty_names)
@click.argument("b", callback=nonempty_names)
@run_options
def compare(a, b, games, hands, bots, seed, workers, backend, scheduler, max_hands, as_json, plot):
    """Play the same deals under variants A and B and report what differs.

    Name each variant as everywhere else (`NAME`, `NAME+RULE`, a file).
    Game g, hand h is dealt from the same seed under both, and the bots of each seat
    draw from the same seeds, so the two runs differ only where the rules make them
    differ.  (Where the variants' decks, players or hand sizes differ, the same seed
    deals different cards; the report says so.)  Every figure of `bidwhist simulate` is reported for both with the
    paired difference B − A and its 95% interval; the significant differences (the
    interval excludes zero) are said in words.  Differences of percentages are in
    percentage points.  The first line names A and B as given, the seed and the
    bots (heuristic unless --bots says otherwise).
    """
    from runtime.simulate import RunSpec, run_compare_chunk  # here: `compare --help` needs no engine

    from .report import comparison_summary

    mode, count = check_run(games, hands, workers, backend, scheduler, plot)
    rules_a = load_rules(a, param="A")
    rules_b = load_rules(b, param="B")
    kinds = choose_bots(bots, [rules_a.sides, rules_b.sides])
    seed = draw_seed(seed)
    spec = RunSpec(mode, count, seed, kinds, max_hands)
    totals = execute(run_compare_chunk, (rules_a, rules_b, spec), spec, workers, backend, scheduler)
    data = comparison_summary(rules_a, rules_b, spec, totals, (describe_variant(a), describe_variant(b)))
    show_report(data, as_json, plot, "plot_comparison", "comparison_report")
