"""Every shipped game, simulated for 1,000 hands, replays to the same result.

For each shipped variant, and for ``standard`` with each shipped house rule, the real
command ``bidwhist simulate NAME --hands 1000 --seed S --bots random --json --records
OUT.jsonl`` is run in-process (click's CliRunner on ``bidcompiler.cli.cli``).  Then every record line
is replayed with ``runtime.records.replay_hand`` and checked:

* against the simulation: the replayed contract, tricks, books, score and ``made`` of
  hand ``i`` are those the simulation played (caught from the run itself), and the
  replays add up to the JSON report (contract counts, made counts, hands without a
  contract, ``mean_score * hands`` per side, make rate, mean declarer score);
* against rules.md, independently of the engine's own bookkeeping:
  - the deal is the variant's deck (52 cards + its jokers) with every card exactly
    once among the hands and the kitty, in hands and a kitty of the variant's sizes;
  - every card is played at most once, each seat plays exactly what it held (its deal,
    plus the kitty less the discards for the declarer, less cards out of play), the
    tricks × players + discards + cards out of play (``state.out``) account for the
    deck (a discard drawn by a player who swapped a joker away is played, and counted
    once);
  - every trick has one card per player, is led by the right seat (the declarer or
    the eldest hand first, then each trick's winner), is won by the card the contract's
    table says, and nobody fails to follow suit except where the variant lets a
    renege stand — and then exactly the reneges the engine recorded;
  - the books add up to the variant's total (13; 18 in cutthroat): the tricks plus one
    where the discards are a book, and the books of each side are the tricks its
    seats won plus the discards' book (moved by renege penalties where they apply);
  - the score is what the variant's formulas give: recomputed here from rules.md for
    every variant and house rule, and also by ``score_books`` on a clone of the state;
  - a hand that ended without a contract has no declaration, discard, play, books or
    score (all zeros).

A sample of the lines of each run is also fed, one file per line, to the real
``bidwhist replay FILE --json`` (CliRunner), whose output must equal the in-process
replay and the simulation.

Tests are parametrised by game (``standard+sport-kitty``), so a failure names it, and
failure messages give the seed and the hand index (``bidwhist simulate NAME --hands
1000 --seed S --bots random --records out.jsonl``, then line ``index + 1`` of ``out.jsonl``).
"""

from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

import runtime.simulate as sim_module
from bidcompiler.cli import cli
from bidcompiler.pipeline import load_ruleset, shipped_house_rules, shipped_variants
from runtime.records import HandReplay, RecordError, replay_hand
from runtime.ruleset import NO_SUIT, TOP_SUIT

# 1,000 hands a game (2,000 until the tenth session, which halved it to keep the suite under
# its 10 minutes): 45,000 random-play hands in all; tests/test_spec_oracle.py plays every game
# and every pair of house rules again by a second reading of the rules.
HANDS = 1000
CLI_SAMPLE = 20  # lines per game replayed through `bidwhist replay FILE --json`
MAX_REPORTED = 12  # problems listed in one failure message

GAMES = sorted(shipped_variants()) + [f"standard+{rule}" for rule in sorted(shipped_house_rules())]


def seed_of(game: str) -> int:
    """A fixed seed per game, different between games."""
    return zlib.crc32(game.encode()) % 1_000_000


# --------------------------------------------------------------------------- rules.md
SUITS = "SHDC"
RANKS = "23456789TJQKA"
PLAIN_DECK = frozenset(r + s for s in SUITS for r in RANKS)

# Per game (base variant, house rule): the deck's extra cards, players, hand, kitty and
# the books of a played hand, all from rules.md sections 1-8.
BASE_LAYOUT = {
    #               extras          players hand kitty books
    "standard":     (("BJ", "LJ"), 4, 12, 6, 13),
    "northeast52":  ((), 4, 12, 4, 13),
    "oregon":       ((), 4, 13, 0, 13),
    "cincinnati":   ((), 4, 13, 0, 13),
    "rhode-island": ((), 4, 12, 4, 13),
    "hawaii":       ((), 4, 12, 4, 13),
    "cutthroat":    (("BJ", "LJ"), 3, 17, 3, 18),
    "two-handed":   (("BJ", "LJ"), 2, 12, 6, 13),   # section 9, 24 cards set aside
}
HOUSE_LAYOUT = {
    "one-joker":       (("BJ",), 4, 12, 5, 13),
    "no-jokers":       ((), 4, 12, 4, 13),
    "no-kitty":        ((), 4, 13, 0, 13),
    "deuce-of-spades": (("BJ",), 4, 12, 5, 13),
    "no-red-deuces":   (("BJ", "LJ"), 4, 12, 4, 13),
}
# Section 9: cards taken out of the deck, and cards set aside unseen after the deal.
WITHOUT = {"no-red-deuces": frozenset({"2H", "2D"})}
ASIDE = {"two-handed": 24}


def split(game: str) -> tuple[str, str | None]:
    base, _, rule = game.partition("+")
    return base, (rule or None)


def layout(game: str) -> tuple[frozenset, int, int, int, int]:
    base, rule = split(game)
    extras, players, hand, kitty, books = HOUSE_LAYOUT.get(rule) or BASE_LAYOUT[base]
    return (PLAIN_DECK - WITHOUT.get(rule, frozenset())) | frozenset(extras), players, hand, kitty, books


def aside(game: str) -> int:
    """Cards of the deck that no hand or kitty holds (section 9, two-handed)."""
    return ASIDE.get(split(game)[0], 0)


def side_of(game: str, seat: int) -> int:
    """Partners sit opposite ({0, 2} and {1, 3}); in cutthroat each seat is its own side."""
    return seat if split(game)[0] in ("cutthroat", "two-handed") else seat % 2


def reference_score(game: str, level: int, notrump: bool, books: list[int], side: int) -> tuple[list[int], bool]:
    """(score of each side, made) as rules.md says, from the contract and the final books."""
    base, rule = split(game)
    total = sum(books)
    own = books[side]
    theirs = total - own
    score = [0] * len(books)
    if base == "cutthroat":  # section 7: bids count books outright
        made = own >= level
        for s, b in enumerate(books):
            score[s] = b  # each defender scores the books it took itself
        score[side] = (own if made else -level) * (2 if notrump else 1)
        return score, made
    if base == "hawaii":  # section 6: the opponents set it with 8 - bid books
        made = theirs < 8 - level
        score[side] = 1 if made else 0
        score[1 - side] = 0 if made else 2
        return score, made
    made = own >= 6 + level
    over = own - 6
    if base == "northeast52":  # section 2: not doubled; a set gives the opponents the bid
        score[side] = over if made else 0
        score[1 - side] = 0 if made else level
        return score, made
    if base == "oregon":  # section 3: the other side scores a point per trick, every hand
        score[side] = over if made else -level
        score[1 - side] = theirs
        return score, made
    if base == "rhode-island":  # section 5: a point per book; set: the bid plus books over six
        score[side] = own if made else 0
        score[1 - side] = 0 if made else level + max(0, theirs - 6)
        factor = 2 if notrump else 1
        return [p * factor for p in score], made
    # sections 1 and 4 (standard, cincinnati), and the house rules of section 8
    declarer = over if made else -level
    defender = 0
    if rule == "defenders-score":
        defender = max(0, theirs - 6)
    if rule == "boston-x4" and made and level == 7:
        declarer *= 4
    if rule == "rise-and-fly" and own == total:
        declarer *= 2
    factor = 2 if notrump and rule != "plain-notrump" else 1
    score[side] = declarer * factor
    score[1 - side] = defender * factor
    return score, made


def penalise(books: list[int], reneges: list[int], game: str, per_renege: int = 3) -> list[int]:
    """rules.md section 8, renege-penalty: 3 books to the other side per renege, or all of them."""
    books = list(books)
    total = sum(books)
    for seat in reneges:
        side = side_of(game, seat)
        if books[side] < per_renege:
            books = [0] * len(books)
            books[1 - side] = total
            break
        books[side] -= per_renege
        books[1 - side] += per_renege
    return books


# --------------------------------------------------------------------------- running
def simulate(game: str, seed: int, out: Path, monkeypatch) -> tuple[dict, list[dict]]:
    """Run the real `simulate` command; its JSON report and each hand as the simulation saw it."""
    seen: dict[int, dict] = {}
    real = sim_module.hands_player

    # The run plays every hand through the player runtime.simulate.hands_player makes (in this
    # process: one worker; play_hand goes through it too), so watching the players it hands out
    # catches each hand as the simulation played it, without playing the hands a second time.
    def watching_player(rules, seed, *args, **kwargs):
        play = real(rules, seed, *args, **kwargs)

        def watching(index):
            state = play(index)
            seen[index] = summary(state)
            return state
        return watching

    monkeypatch.setattr(sim_module, "hands_player", watching_player)
    # Random bots, named (the default is heuristic): uniformly random legal play reaches
    # every corner of the rules this test checks (reneges where they stand, high bids,
    # thrown-in hands), and the fallback below replays the hands with the same bots.
    args = ["simulate", game, "--hands", str(HANDS), "--seed", str(seed), "--bots", "random", "--json",
            "--records", str(out)]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, f"bidwhist {' '.join(args)} exited {result.exit_code}: {result.stderr}"
    report = json.loads(result.stdout)
    if len(seen) != HANDS:  # the hands were played elsewhere (not through a player made here): play them again
        play = real(load_ruleset(game), seed, "random")
        seen = {i: summary(play(i)) for i in range(HANDS)}
    return report, [seen[i] for i in range(HANDS)]


def summary(state) -> dict:
    """What a finished hand came to, as plain data."""
    cards = state.rules.cards
    return {
        "contract": state.contract,
        "tricks": [{"leader": l, "cards": [cards[c] for c in t], "winner": w} for l, t, w in state.tricks],
        "books": list(state.books),
        "score": list(state.score),
        "made": state.made,
    }


def where(game: str, seed: int, index: int) -> str:
    return f"{game} seed {seed} hand {index}"


# --------------------------------------------------------------------------- checks of one hand
def check_hand(game: str, rules, record: dict, state, sim: dict) -> list[str]:
    """Every problem of one replayed hand (empty when it is right)."""
    problems = []
    deck, players, hand_size, kitty_size, total_books = layout(game)
    names = rules.cards
    cid = {name: i for i, name in enumerate(names)}

    # The replay is the simulated hand.
    replayed = summary(state)
    for key in ("contract", "tricks", "books", "score", "made"):
        if replayed[key] != sim[key]:
            problems.append(f"replayed {key} {replayed[key]!r} != simulated {sim[key]!r}")

    # The deal: the variant's deck, each card exactly once, hands and kitty of the right size.
    dealt = [c for h in record["hands"] for c in h] + list(record["kitty"])
    counts = Counter(dealt)
    twice = sorted(c for c, n in counts.items() if n > 1)
    if twice:
        problems.append(f"dealt more than once: {twice}")
    if not set(dealt) <= deck or len(set(dealt)) != len(deck) - aside(game):
        problems.append(f"deal is not the deck: missing {sorted(deck - set(dealt))}, "
                        f"extra {sorted(set(dealt) - deck)}")
    if len(record["hands"]) != players or any(len(h) != hand_size for h in record["hands"]):
        problems.append(f"hands of {[len(h) for h in record['hands']]} cards, expected {players} x {hand_size}")
    if len(record["kitty"]) != kitty_size:
        problems.append(f"kitty of {len(record['kitty'])} cards, expected {kitty_size}")
    if [[names[c] for c in h] for h in state.dealt] != [sorted(h, key=cid.__getitem__) for h in record["hands"]]:
        problems.append("the state's dealt hands are not the record's")

    if split(game)[1] == "first-caller-bids" and state.calls and state.calls[0][1] == rules.pass_action:
        problems.append("the first caller passed")  # section 9: it may not
    if state.declarer < 0:  # no contract
        if any(state.score) or any(state.books) or len(state.score) != rules.sides:
            problems.append(f"no contract, but books {state.books} and score {state.score}")
        if state.tricks or state.discards or state.out or state.made is not None:
            problems.append("no contract, but tricks, discards, cards out or made")
        for key in ("declare", "discard", "play", "claim"):
            if key in record:
                problems.append(f"no contract, but the record has {key}")
        return problems

    contract = state.contract
    declarer = state.declarer
    if contract["side"] != side_of(game, declarer):
        problems.append(f"declarer {declarer} on side {contract['side']}")
    table = state.table
    if table is None:
        return problems + ["contract without a play table"]
    suit_of, power = table.suit_of, table.power

    # Cards: each played at most once, each seat plays what it held.
    played = [c for _, t, _ in state.tricks for c in t]
    discards, out = list(state.discards), list(state.out)
    played_set, discard_set, out_set = set(played), set(discards), set(out)
    if len(played) != len(played_set):
        problems.append(f"cards played twice: {sorted(names[c] for c, n in Counter(played).items() if n > 1)}")
    if len(discards) != len(discard_set) or len(out) != len(out_set):
        problems.append("a card discarded or put out twice")
    if state.trick or any(state.hands):
        problems.append("cards left in hand or on the table at the end")
    if out_set & played_set or out_set & discard_set:
        problems.append(f"cards out of play were also played or discarded: "
                        f"{sorted(names[c] for c in out_set & (played_set | discard_set))}")
    # A discard may be played only where jokers leave play and a player drew it for its joker.
    drawn = played_set & discard_set
    swapped = {cid[c] for s, h in enumerate(record["hands"]) if s != declarer for c in h} & out_set
    if drawn and not (table.no_suit_out and len(drawn) == len(swapped)):
        problems.append(f"discards played: {sorted(names[c] for c in drawn)}")
    if table.no_suit_out and len(drawn) != len(swapped):
        problems.append(f"{len(swapped)} cards swapped out of play, {len(drawn)} discards drawn and played")
    if len(played) - len(drawn) + len(discards) + len(out) != len(deck) - aside(game) or \
            (played_set | discard_set | out_set) != {cid[c] for c in dealt}:
        problems.append(f"tricks x players ({len(played)}) + discards ({len(discards)}) + out ({len(out)}) "
                        f"- drawn discards ({len(drawn)}) do not account for the {len(deck)}-card deck")
    if len(state.tricks) != hand_size:
        problems.append(f"{len(state.tricks)} tricks, expected {hand_size}")
    if any(len(t) != players for _, t, _ in state.tricks):
        problems.append("a trick without one card per player")

    kitty = {cid[c] for c in record["kitty"]}
    # section 9 partner-takes-kitty: the declarer's partner takes the kitty and discards.
    taker = (declarer + players // 2) % players if split(game)[1] == "partner-takes-kitty" else declarer
    holding = []
    for seat in range(players):
        held = {cid[c] for c in record["hands"][seat]}
        if seat == taker:
            held = (held | kitty) - discard_set
        else:
            held |= drawn & {c for l, t, _ in state.tricks for i, c in enumerate(t) if (l + i) % players == seat}
        holding.append(held - out_set)
    by_seat = [set() for _ in range(players)]
    for leader, trick, _ in state.tricks:
        for i, c in enumerate(trick):
            by_seat[(leader + i) % players].add(c)
    for seat in range(players):
        if by_seat[seat] != holding[seat]:
            problems.append(f"seat {seat} played {sorted(names[c] for c in by_seat[seat] - holding[seat])} "
                            f"it did not hold, kept {sorted(names[c] for c in holding[seat] - by_seat[seat])}")

    # Tricks: leaders, winners, following suit.
    if rules.kitty_size and record["kitty"] and not discards and not table.no_suit_out:
        problems.append("the declarer took the kitty but discarded nothing")
    eldest = split(game)[1] == "eldest-leads"
    expected_leader = (state.dealer + 1) % players if eldest else declarer
    if split(game)[1] == "left-of-declarer-leads":  # section 9
        expected_leader = (declarer + 1) % players
    hands_now = [set(h) for h in holding]
    reneges = []
    for n, (leader, trick, winner) in enumerate(state.tricks):
        if leader != expected_leader:
            problems.append(f"trick {n} led by {leader}, expected {expected_leader}")
        led = NO_SUIT
        best, best_key = -1, -1
        for i, c in enumerate(trick):
            seat = (leader + i) % players
            if led != NO_SUIT and suit_of[c] != led and any(suit_of[h] == led for h in hands_now[seat]):
                if not (table.free_no_suit and suit_of[c] in (NO_SUIT, TOP_SUIT)):
                    reneges.append(seat)
            if led == NO_SUIT and suit_of[c] >= 0:  # cards of no suit and top cards set no suit
                led = suit_of[c]
            hands_now[seat].discard(c)
        for i, c in enumerate(trick):
            key = power[c] + 10000 if suit_of[c] == table.trump else power[c] if suit_of[c] == led else \
                power[c] + 20000 if suit_of[c] == TOP_SUIT else -1  # a top card over everything
            if key > best_key:
                best, best_key = i, key
        if winner != (leader + best) % players:
            problems.append(f"trick {n} {[names[c] for c in trick]} won by {winner}, "
                            f"expected {(leader + best) % players}")
        expected_leader = winner
    if rules.renege == "penalty":
        if reneges != state.reneges:
            problems.append(f"reneges {reneges} found, the engine recorded {state.reneges}")
    elif reneges:
        problems.append(f"seats {reneges} failed to follow suit, and the variant refuses reneges")

    # Books: the tricks, plus the discards' book, adding up to the variant's total.
    raw = [0] * rules.sides
    for _, _, w in state.tricks:
        raw[side_of(game, w)] += 1
    discard_book = bool(discards) and rules.discards_book != "none"
    if discard_book:
        owner = declarer if rules.discards_book == "declarer" else state.tricks[0][2]
        raw[side_of(game, owner)] += 1
    books = penalise(raw, reneges, game, rules.renege_books) if rules.renege == "penalty" else raw
    if sum(books) != len(state.tricks) + discard_book or sum(books) != total_books:
        problems.append(f"books {books} add up to {sum(books)}, expected {total_books} "
                        f"({len(state.tricks)} tricks + {int(discard_book)} for the discards)")
    if state.books != books:
        problems.append(f"books {state.books}, expected {books}")

    # Score: rules.md, and the variant's own formulas on a clone.
    expected, made = reference_score(game, contract["bid"], contract["trump"] is None, books, contract["side"])
    if state.score != expected or state.made != made:
        problems.append(f"score {state.score} (made {state.made}) for {contract} with books {books}; "
                        f"rules.md gives {expected} (made {made})")
    again = state.clone().score_books(raw)
    if again != state.score:
        problems.append(f"score_books on a clone gives {again}, the hand scored {state.score}")
    return problems


# --------------------------------------------------------------------------- the test
@pytest.mark.parametrize("game", GAMES)
def test_simulate_hands_and_replay_every_record(game, tmp_path, monkeypatch):
    seed = seed_of(game)
    out = tmp_path / "hands.jsonl"
    report, sims = simulate(game, seed, out, monkeypatch)
    rules = load_ruleset(game)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == HANDS, f"{game} seed {seed}: {len(lines)} record lines for {HANDS} hands"
    assert report["hands"] == HANDS and report["seed"] == seed

    base, rule = split(game)
    problems: list[str] = []
    states = []
    previous_dealer = None
    for i, line in enumerate(lines):
        record = json.loads(line)
        if record["variant"] != base or record["with"] != ([rule] if rule else []):
            problems.append(f"{where(game, seed, i)}: record names {record['variant']!r} with {record['with']!r}")
        step = -1 if rule == "deal-right" else 1  # section 9: the deal passes to the right
        if previous_dealer is not None and record["dealer"] != (previous_dealer + step) % rules.players:
            problems.append(f"{where(game, seed, i)}: dealer {record['dealer']} after {previous_dealer}")
        previous_dealer = record["dealer"]
        try:
            state = replay_hand(rules, record).state
        except RecordError as exc:
            problems.append(f"{where(game, seed, i)}: record does not replay: {exc}")
            states.append(None)
            continue
        states.append(state)
        problems.extend(f"{where(game, seed, i)}: {p}" for p in check_hand(game, rules, record, state, sims[i]))

    # The replays add up to the report.
    done = [s for s in states if s is not None]
    if len(done) == HANDS:
        totals = [sum(s.score[side] for s in done) for side in range(rules.sides)]
        reported = [round(m * HANDS) for m in report["mean_score"]]
        if totals != reported or any(abs(m * HANDS - t) > 1e-6 for m, t in zip(report["mean_score"], totals)):
            problems.append(f"{game} seed {seed}: replayed scores add up to {totals}, "
                            f"the report's mean_score x hands is {[m * HANDS for m in report['mean_score']]}")
        contracted = [s for s in done if s.declarer >= 0]
        counts = Counter(rules.bids[s.bid].text for s in contracted)
        made = Counter(rules.bids[s.bid].text for s in contracted if s.made)
        if {c["contract"]: c["count"] for c in report["contracts"]} != dict(counts):
            problems.append(f"{game} seed {seed}: replayed contracts {dict(counts)} != report {report['contracts']}")
        if {c["contract"]: c["made"] for c in report["contracts"]} != {k: made[k] for k in counts}:
            problems.append(f"{game} seed {seed}: replayed made counts {dict(made)} != report {report['contracts']}")
        if report["no_contract"] != HANDS - len(contracted):
            problems.append(f"{game} seed {seed}: {HANDS - len(contracted)} hands without a contract, "
                            f"report says {report['no_contract']}")
        if contracted:
            rate = sum(made.values()) / len(contracted)
            declarer_mean = sum(s.score[s.contract["side"]] for s in contracted) / len(contracted)
            if abs(report["make_rate"] - rate) > 1e-9 or abs(report["mean_declarer_score"] - declarer_mean) > 1e-9:
                problems.append(f"{game} seed {seed}: make rate {rate} / declarer mean {declarer_mean} "
                                f"!= report {report['make_rate']} / {report['mean_declarer_score']}")

    # A sample of lines through the real `bidwhist replay FILE --json`.
    runner = CliRunner()
    for i in sorted(random.Random(seed).sample(range(HANDS), CLI_SAMPLE)):
        if states[i] is None:
            continue
        path = tmp_path / f"hand-{i}.json"
        path.write_text(lines[i] + "\n", encoding="utf-8")
        result = runner.invoke(cli, ["replay", str(path), "--json"])
        if result.exit_code != 0:
            problems.append(f"{where(game, seed, i)}: bidwhist replay --json exited {result.exit_code}: "
                            f"{result.stdout} {result.stderr}")
            continue
        output = json.loads(result.stdout)
        expected = HandReplay(states[i]).as_json()
        sim = sims[i]
        if output != expected or [output[k] for k in ("contract", "tricks", "books", "score")] != \
                [sim[k] for k in ("contract", "tricks", "books", "score")]:
            problems.append(f"{where(game, seed, i)}: bidwhist replay --json gives {output}, "
                            f"expected {expected}")

    assert not problems, (f"{len(problems)} problem(s) in {game} (bidwhist simulate {game} --hands {HANDS} "
                          f"--seed {seed} --bots random --records out.jsonl; hand i is line i+1):\n"
                          + "\n".join(problems[:MAX_REPORTED]))
