"""Behaviour kept exactly: the corpus of records made before a change still simulates and replays the same.

tests/data/corpus/ holds, for every shipped variant and house rule, hands and games
played by the heuristic bots from fixed seeds (re-simulated now with the baseline
bot, that heuristic frozen: see ``make_corpus.corpus_bots``), with ``replay --json``'s
output for each (written by tests/corpus/make_corpus.py from the engine of 2026-12-01, before
the rule-model redesign).  A change to the engine, the bots or records must keep
both: the same seeds simulate the same records, and every record replays to the
same output.  Where a change fixes a bug on purpose, regenerate the corpus and
list the records that changed in the commit.
"""

import gzip
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "corpus"))

import make_corpus  # noqa: E402

from runtime.records import hand_record  # noqa: E402
from runtime.simulate import play_game, play_hand  # noqa: E402

FILES = sorted(make_corpus.OUT.glob("*.json.gz"))
RESOLVE = make_corpus.resolver()


def load(path: Path) -> dict:
    """One corpus case."""
    return json.loads(gzip.decompress(path.read_bytes()))


def test_the_corpus_re_simulates_with_the_frozen_baseline():
    """The corpus files name the heuristic they were recorded with; the baseline, not
    the improving heuristic, plays them again, and new files are written with it."""
    assert make_corpus.BOTS == "baseline"
    assert {make_corpus.corpus_bots(load(path)["bots"]) for path in FILES} == {"baseline"}


def test_the_corpus_covers_every_shipped_variant_and_house_rule():
    stems = {path.name.removesuffix(".json.gz") for path in FILES}
    assert stems == {stem for stem, _, _ in make_corpus.cases()}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_records_replay_to_the_kept_output(path):
    case = load(path)
    for i, hand in enumerate(case["hands"]):
        assert make_corpus.replay_text(json.dumps(hand["record"]), RESOLVE) == hand["replay"], f"hand {i}"
    for g, game in enumerate(case["games"]):
        text = "\n".join(json.dumps(r) for r in game["records"]) + "\n"
        assert make_corpus.replay_text(text, RESOLVE) == game["replay"], f"game {g}"


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name.removesuffix(".json.gz"))
def test_the_same_seeds_simulate_the_same_records(path):
    case = load(path)
    rules = RESOLVE(case["variant"], case["with"])
    bots = make_corpus.corpus_bots(case["bots"])
    for i, hand in enumerate(case["hands"]):
        state = play_hand(rules, case["seed"], i, bots)
        assert hand_record(state, case["variant"], case["with"]) == hand["record"], f"hand {i}"
    for g, game in enumerate(case["games"]):
        played = play_game(rules, case["seed"], g, bots)
        assert [hand_record(s, case["variant"], case["with"]) for s in played.hands] == game["records"], f"game {g}"
