"""The bots' per-ruleset tables kept between runs (runtime.bots.stored): a stored table
gives exactly the decisions a fresh one does, and a damaged one is worked out again."""

from __future__ import annotations

import json

import pytest

from bidcompiler.pipeline import load_ruleset
from runtime import diskcache
from runtime.bots import outbid
from runtime.records import hand_record
from runtime.simulate import play_game, play_hand

SPECS = [("standard", ()), ("cutthroat", ()), ("hawaii", ()), ("two-handed", ()), ("standard", ("min-bid-4",))]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(diskcache.ENV_DIR, str(folder))
    monkeypatch.delenv(diskcache.ENV_OFF, raising=False)
    return folder


def fresh_process():
    """What a new process knows: no model in memory."""
    outbid._OUTLOOKS.clear()


def played(rules, spec) -> list:
    hands = [hand_record(play_hand(rules, 11, i, "heuristic"), spec[0], list(spec[1])) for i in range(6)]
    game = play_game(rules, 11, 0, "heuristic", max_hands=6)
    return [hands, list(game.tally.totals)]


def models(cache) -> list:
    return sorted((cache / "bots").glob("*.json")) if (cache / "bots").exists() else []


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: "+".join((s[0], *s[1])))
def test_a_stored_model_plays_exactly_as_a_fresh_one(cache, monkeypatch, spec):
    rules = load_ruleset(*spec)
    monkeypatch.setenv(diskcache.ENV_OFF, "1")
    fresh_process()
    expected = played(rules, spec)
    (look,) = outbid._OUTLOOKS.values()
    fresh = look.stored()
    monkeypatch.delenv(diskcache.ENV_OFF)
    fresh_process()
    assert played(rules, spec) == expected  # worked out and stored
    assert len(models(cache)) == 1
    fresh_process()
    monkeypatch.setattr(outbid.Outlook, "__init__", lambda *a: pytest.fail("built although stored"))
    assert played(rules, spec) == expected  # read back: nothing built
    (look,) = outbid._OUTLOOKS.values()
    assert json.loads(json.dumps(look.stored())) == json.loads(json.dumps(fresh))


@pytest.mark.parametrize("damage", [
    b"", b"{not json", b"[]", b'{"key": 1, "value": {}}',
    "replace-value", "short-list", "bad-pair", "huge-int", "nan",
])
def test_a_damaged_model_is_worked_out_again(cache, monkeypatch, damage):
    spec = ("standard", ())
    rules = load_ruleset(*spec)
    fresh_process()
    expected = played(rules, spec)
    (path,) = models(cache)
    doc = json.loads(path.read_text())
    if damage == "replace-value":
        doc["value"] = {"bias": "x"}
    elif damage == "short-list":
        doc["value"]["cond"] = doc["value"]["cond"][:-1]
    elif damage == "bad-pair":
        doc["value"]["over_to"][0] = [[10_000, 0.5]]
    elif damage == "huge-int":
        doc["value"]["forced"] = 10 ** 400  # past a float's range: OverflowError when read
    elif damage == "nan":
        doc["value"]["cond"][0] = float("nan")
    path.write_bytes(damage if isinstance(damage, bytes) else json.dumps(doc).encode())
    fresh_process()
    assert played(rules, spec) == expected
    assert json.loads(path.read_text())["value"]["cond"] == json.loads(json.dumps(
        next(iter(outbid._OUTLOOKS.values())).stored()))["cond"]  # stored again, whole


def test_another_ruleset_never_reads_a_model_not_its_own(cache):
    fresh_process()
    played(load_ruleset("standard"), ("standard", ()))
    fresh_process()
    played(load_ruleset("standard", ("min-bid-4",)), ("standard", ("min-bid-4",)))
    assert len(models(cache)) == 2


def test_no_cache_stores_nothing(cache, monkeypatch):
    monkeypatch.setenv(diskcache.ENV_OFF, "1")
    fresh_process()
    played(load_ruleset("standard"), ("standard", ()))
    assert not cache.exists()


def test_a_model_worked_out_by_code_changed_since_is_not_stored(cache, monkeypatch):
    """A run that outlives an edit of the runtime's files keeps the code it imported: what
    it works out must not be stored under the new files' hash."""
    monkeypatch.setattr(diskcache, "_AT_IMPORT", [("elsewhere", "old.py", 1, 1)])
    fresh_process()
    played(load_ruleset("standard"), ("standard", ()))
    assert models(cache) == []
