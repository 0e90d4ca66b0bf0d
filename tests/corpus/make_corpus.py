"""Write the behaviour corpus: simulated records and their replay output, kept from before a change.

Run from the repository root: ``python tests/corpus/make_corpus.py [--hands 300] [--games 20]``.
For every shipped variant, and every shipped house rule over the first variant it
fits (``standard`` for most), it plays ``--hands`` hands and ``--games`` games with
the baseline bots (the heuristic of 2026-12, frozen: ``runtime/bots/baseline``) from
fixed seeds and stores, in ``tests/data/corpus/NAME.json.gz``:
each hand record and game record exactly as ``simulate --records`` writes them, and
``bidwhist replay --json``'s output for each.  ``tests/test_corpus.py`` then checks
that the engine still simulates the same records from the same seeds and replays
every record to the same output.  Regenerate only on purpose (a bug fixed, a
behaviour changed) and say in the commit which records changed and why.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "data" / "corpus"
SEED = 20261201
# The bots the corpus plays with: the frozen baseline, so the corpus keeps proving the
# engine unchanged while the heuristic improves.
BOTS = "baseline"
# The files written before the baseline existed name the heuristic of their day,
# which the baseline keeps unchanged: they re-simulate with the baseline.
RECORDED_AS = {"heuristic": "baseline"}


def corpus_bots(recorded: str) -> str:
    """The bot that re-simulates a case whose file names ``recorded`` as its bots."""
    return RECORDED_AS.get(recorded, recorded)

sys.path.insert(0, str(ROOT))

from bidcompiler.errors import CompileError  # noqa: E402
from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants  # noqa: E402
from runtime.records import hand_record, read_record_file, replay_file  # noqa: E402
from runtime.simulate import play_game, play_hand  # noqa: E402


def cases() -> list[tuple[str, str, list[str]]]:
    """(file stem, variant, house rules) of every corpus case, in a fixed order."""
    variants = sorted(shipped_variants())
    order = ["standard"] + [v for v in variants if v != "standard"]
    found = [(v, v, []) for v in variants]
    for rule in sorted(shipped_house_rules()):
        for base in order:
            try:
                load_ruleset(base, (rule,))
            except CompileError:
                continue
            found.append((f"{base}+{rule}", base, [rule]))
            break
    return found


def resolver():
    """A records resolver over the shipped files, cached (as replay resolves names)."""
    cache: dict = {}

    def resolve(variant, with_rules):
        key = (variant, tuple(with_rules))
        if key not in cache:
            try:
                cache[key] = load_ruleset(variant, tuple(with_rules))
            except CompileError as exc:
                raise LookupError("; ".join(str(d) for d in exc.diagnostics)) from None
        return cache[key]
    return resolve


def replay_text(text: str, resolve) -> dict:
    """``bidwhist replay --json``'s output for a record file's text."""
    return replay_file(read_record_file(text, "corpus.jsonl"), resolve)


def build_case(variant: str, with_rules: list[str], hands: int, games: int, resolve) -> dict:
    """Play and replay one corpus case."""
    rules = resolve(variant, with_rules)
    case: dict = {"variant": variant, "with": with_rules, "seed": SEED, "bots": BOTS, "hands": [], "games": []}
    for index in range(hands):
        record = hand_record(play_hand(rules, SEED, index, BOTS), variant, with_rules)
        case["hands"].append({"record": record, "replay": replay_text(json.dumps(record), resolve)})
    for game in range(games):
        played = play_game(rules, SEED, game, BOTS)
        records = [hand_record(state, variant, with_rules) for state in played.hands]
        text = "\n".join(json.dumps(r) for r in records) + "\n"
        case["games"].append({"records": records, "replay": replay_text(text, resolve)})
    return case


def main() -> None:
    """Write every case's file under tests/data/corpus/."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    resolve = resolver()
    for stem, variant, with_rules in cases():
        case = build_case(variant, with_rules, args.hands, args.games, resolve)
        data = json.dumps(case, separators=(",", ":"), sort_keys=True).encode()
        (OUT / f"{stem}.json.gz").write_bytes(gzip.compress(data, 9, mtime=0))
        print(f"{stem}: {len(case['hands'])} hands, {len(case['games'])} games")


if __name__ == "__main__":
    main()
