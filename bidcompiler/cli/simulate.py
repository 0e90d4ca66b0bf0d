"""``bidwhist simulate``: play many hands with bots and report what a rule does."""

from __future__ import annotations

import json
import random

import click

from runtime.records import hand_record
from runtime.simulate import simulate_hands

from .. import render
from .common import load_rules, spec_text, variant_options


@click.command()
@click.argument("variant")
@variant_options
@click.option("--hands", type=click.IntRange(min=1), required=True, help="How many hands to play.")
@click.option("--seed", type=int, default=None, help="Seed of the run (drawn and shown on stderr if omitted).")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")
@click.option("--records", type=click.Path(dir_okay=False, writable=True),
              help="Write every hand as a hand record, one JSON object per line.")
def simulate(variant, with_rules, sets, hands, seed, as_json, records):
    """Play HANDS hands of VARIANT with random-legal bots and report what happened.

    Reports the contracts bid, how often each was made, and the mean score per hand.
    Each line of --records is a complete hand record that `bidwhist replay` scores
    to the same result.
    """
    rules = load_rules(variant, with_rules, sets)
    if sets and records:
        raise click.UsageError("--records cannot be combined with --set: a record names its variant "
                               "and house rules, not one-off settings; write the change as a house rule")
    record_variant, record_with = spec_text(variant, with_rules)
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        click.echo(f"seed: {seed}", err=True)
    out = None
    if records:
        try:
            out = open(records, "w", encoding="utf-8")
        except OSError as exc:
            raise click.BadParameter(f"cannot write {records}: {exc.strerror}", param_hint="--records") from None
    with render.progress(hands, "simulating") as advance:
        def on_hand(i, state):
            if out is not None:
                out.write(json.dumps(hand_record(state, record_variant, record_with)) + "\n")
            advance()
        try:
            stats = simulate_hands(rules, hands, seed, on_hand=on_hand)
        finally:
            if out is not None:
                out.close()
    data = stats.as_json(rules)
    data["seed"] = seed
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        render.simulation_report(data)
