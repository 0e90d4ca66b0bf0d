"""Hand and game records (records.md): reading, replaying, writing.

A record file is either one hand record (a JSON object) or a game record (JSON
Lines, one hand record per line).  Replaying checks every entry against the rules in
the order records.md gives — ``hands``/``kitty``, ``auction[i]``, ``declare``,
``discard``, ``play[i]``, ``claim`` — and stops at the first illegal one: an illegal
record is never scored.

The runtime does not know how to find a variant by name, so callers pass a
``resolve(variant, with_rules) -> Ruleset`` function (the CLI's compiles it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Callable

from .errors import IllegalAction
from .game import GameTally
from .hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, OVER, PLAY, HandState
from .notation import parse_call, parse_card, parse_direction, parse_suit
from .ruleset import NO_TRUMP, Ruleset

HAND_FORMAT = "bidwhist-hand/1"
RECORD_KEYS = {"format", "variant", "with", "dealer", "hands", "kitty", "auction", "declare",
               "discard", "play", "claim"}

# The most house rules a record may lay on its variant (`with`): each costs a compile, and
# no table plays with more than a handful.
MAX_WITH = 32

Resolver = Callable[[str, list], Ruleset]
# The most characters of a record's own text a message quotes: a "call" of thousands of
# digits is shown by its start and its length, not in full.
_SHOWN_CHARS = 40


def shown(value) -> str:
    """``repr(value)`` for a message, cut to :data:`_SHOWN_CHARS` characters (saying how long it was)."""
    text = repr(value)
    if len(text) <= _SHOWN_CHARS:
        return text
    return f"{text[:_SHOWN_CHARS]}... ({len(text)} characters)"


class NotARecord(Exception):
    """The file is not a record at all (bad JSON, not an object, unknown format): exit 2."""


class RecordError(Exception):
    """The first illegal entry of a record: ``at`` names it (``play[17]``), ``message`` the rule."""

    def __init__(self, at: str, message: str):
        self.at = at
        self.message = message
        super().__init__(f"{at}: {message}")

    def as_json(self) -> dict:
        """The ``error`` object of replay's JSON output."""
        return {"at": self.at, "message": self.message}


@dataclass
class RecordFile:
    """The parsed records of a file and whether the file is a game record."""

    records: list[dict]
    is_game: bool


def read_record_file(text: str, filename: str) -> RecordFile:
    """Parse a record file's text; NotARecord says where it is not one."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    is_game = filename.endswith(".jsonl") or len(lines) > 1
    if not lines:
        raise NotARecord(f"{filename}: empty file, expected a {HAND_FORMAT} record")
    if is_game:
        chunks = lines
    else:
        chunks = [(lines[0][0], text)]
    records = []
    for first_line, chunk in chunks:
        try:
            value = json.loads(chunk)
        except json.JSONDecodeError as exc:
            line = first_line + exc.lineno - 1 if is_game else exc.lineno
            raise NotARecord(f"{filename}:{line}:{exc.colno}: invalid JSON: {exc.msg}") from None
        except (ValueError, RecursionError) as exc:  # a huge integer, nesting too deep
            raise NotARecord(f"{filename}:{first_line}: invalid JSON: {exc}") from None
        where = f"{filename}:{first_line}"
        if not isinstance(value, dict):
            raise NotARecord(f"{where}: expected a JSON object (a {HAND_FORMAT} record)")
        fmt = value.get("format")
        if fmt != HAND_FORMAT:
            shown = "missing" if fmt is None else f"'{fmt}'"
            raise NotARecord(f"{where}: unknown record format {shown}; expected '{HAND_FORMAT}'")
        records.append(value)
    return RecordFile(records, is_game)


# --------------------------------------------------------------------------- replay
@dataclass
class HandReplay:
    """A replayed hand: the final state and the claim, if any."""

    state: HandState
    claimed: bool = False

    def as_json(self) -> dict:
        """The per-hand object of ``bidwhist replay --json``."""
        state = self.state
        cards = state.rules.cards
        return {
            "contract": state.contract if state.declarer >= 0 else None,
            "tricks": [{"leader": l, "cards": [cards[c] for c in t], "winner": w}
                       for l, t, w in state.tricks],
            "books": list(state.books),
            "score": list(state.score),
            "error": None,
        }


def _card_list(rules: Ruleset, value, at: str, what: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(at, f"{what} must be a list of cards")
    ids = []
    for card in value:
        cid = parse_card(rules, card)
        if cid is None:
            raise RecordError(at, f"{what} holds {shown(card)}, which is not a card of this deck")
        ids.append(cid)
    return ids


def check_deal(rules: Ruleset, record: dict, prefix: str = "") -> tuple[list[list[int]], list[int]]:
    """The deal of a record as card ids, checked to be exactly the variant's deck."""
    hands = record.get("hands")
    if not isinstance(hands, list) or len(hands) != rules.players:
        raise RecordError(prefix + "hands", f"expected {rules.players} hands, one per seat")
    ids = []
    seen: dict[int, str] = {}
    for seat, hand in enumerate(hands):
        cards = _card_list(rules, hand, prefix + "hands", f"hands[{seat}]")
        if len(cards) != rules.hand_size:
            raise RecordError(prefix + "hands",
                              f"hands[{seat}] has {len(cards)} cards; the variant deals {rules.hand_size}")
        for c in cards:
            if c in seen:
                raise RecordError(prefix + "hands",
                                  f"{rules.cards[c]} is dealt twice ({seen[c]} and hands[{seat}])")
            seen[c] = f"hands[{seat}]"
        ids.append(cards)
    kitty = _card_list(rules, record.get("kitty", []), prefix + "kitty", "kitty")
    if len(kitty) != rules.kitty_size:
        raise RecordError(prefix + "kitty",
                          f"kitty has {len(kitty)} cards; the variant's kitty has {rules.kitty_size}")
    for c in kitty:
        if c in seen:
            raise RecordError(prefix + "kitty", f"{rules.cards[c]} is dealt twice ({seen[c]} and kitty)")
        seen[c] = "kitty"
    return ids, kitty


def replay_hand(rules: Ruleset, record: dict, prefix: str = "") -> HandReplay:
    """Replay one hand record; RecordError at the first illegal entry.

    The entries are checked here and applied by the engine's one replayer
    (:meth:`HandState.from_actions`), fed one by one as the hand's phases ask for them.
    """
    unknown = sorted(set(record) - RECORD_KEYS)
    if unknown:
        raise RecordError(prefix + unknown[0], f"unknown field '{unknown[0]}' in a {HAND_FORMAT} record")
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise RecordError(prefix + "dealer", f"dealer must be a seat from 0 to {rules.players - 1}")
    hands, kitty = check_deal(rules, record, prefix)
    # The entry whose action the engine is applying: where an IllegalAction points (None: a card of play).
    at: list[str | None] = [prefix]
    built: list[HandState] = []

    def entries(state: HandState):
        """The record's entries as actions, each checked when the hand's phases ask for it."""
        built.append(state)
        yield from _auction_entries(state, record.get("auction"), prefix, at)
        if state.phase == OVER:
            # An empty declare, discard or play says nothing and is let pass; any claim,
            # even of 0, needs a trick played.
            for key in ("declare", "discard", "play", "claim"):
                if record.get(key) or (key == "claim" and record.get(key) is not None):
                    raise RecordError(prefix + key, f"the hand ended without a contract, so it has no {key}")
            return
        # Where the kitty comes before the declaration, the discard comes first; follow the game's own order.
        # Where the first lead names trump, the declarer says "notrump" (or leads) after any discard.
        steps = ((_declare_entries, _discard_entries) if state.declares_before_kitty()
                 else (_discard_entries, _declare_entries))
        if steps[0] is _discard_entries and state.phase == DISCARD:
            # records.md checks `declare` before `discard` whatever order the game asks for
            # them in; which cards are laid away never changes what may be declared, so
            # try the declaration after any legal discard first.
            trial = state.clone()
            trial.replay(_any_discards(trial))
            trial.replay(_declare_entries(trial, record, prefix, at))
        for step in steps:
            yield from step(state, record, prefix, at)
        yield from _play_entries(state, record, prefix, at)

    try:
        state = HandState.from_actions(rules, dealer, hands, kitty, entries)
    except IllegalAction as exc:
        if at[0] is None:
            raise _play_error(built[0], record["play"], prefix, exc.message) from None
        raise RecordError(at[0], exc.message) from None
    return _replay_claim(state, record, prefix)


def _auction_entries(state: HandState, calls, prefix: str, at: list[str]):
    """The calls of a record as actions; RecordError where one is not a call here."""
    rules = state.rules
    if not isinstance(calls, list):
        raise RecordError(prefix + "auction", "auction must be a list of calls")
    for i, text in enumerate(calls):
        if state.phase != AUCTION:
            raise RecordError(prefix + "auction", f"the auction was over after {i} calls; {shown(text)} follows it")
        at[0] = f"{prefix}auction[{i}]"
        action = parse_call(rules, text)
        if action is None:
            raise RecordError(at[0], f"seat {state.current_player()}: {shown(text)} is not a call of this variant")
        # records.md: the matching bid itself means the same as take (the engine says when).
        yield state.call_meaning(action)
    if state.phase == AUCTION:
        raise RecordError(prefix + "auction",
                          f"the auction stops after {len(calls)} calls; seat {state.current_player()} has not called")


def _any_discards(state: HandState):
    """Legal discards, the first each time, until the discard is done (for trying what comes after)."""
    while state.phase == DISCARD:
        yield state.legal_actions()[0]


def _declare_entries(state: HandState, record: dict, prefix: str, at: list[str]):
    """The record's ``declare`` as the actions the hand asks for now; RecordError where it does not fit."""
    rules = state.rules
    where = prefix + "declare"
    declare = record.get("declare")
    needed = state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION)
    if declare is None:
        if needed:
            word = "trump" if state.phase == DECLARE_TRUMP else "a direction"
            raise RecordError(where, f"seat {state.declarer} must declare {word}; the record has no declare")
        return
    if not isinstance(declare, dict):
        raise RecordError(where, "declare must be an object such as {\"trump\": \"H\"}")
    extra = set(declare) - {"trump", "direction"}
    if extra:
        raise RecordError(where, f"unknown key {shown(sorted(extra)[0])} in declare")
    at[0] = where
    if state.phase == PLAY and state.table is None:  # the first lead names trump, unless...
        if "trump" not in declare or declare["trump"] is not None:
            raise RecordError(where, f"seat {state.declarer} names trump by the first card led: a hand played "
                                     "with trump has no declare, and a declared notrump is {\"trump\": null}")
        yield rules.no_trump_action
    while state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION):
        if state.phase == DECLARE_TRUMP:
            if "trump" not in declare:
                raise RecordError(where, f"seat {state.declarer} must name trump")
            value = declare["trump"]
            action = rules.no_trump_action if value is None else (
                None if parse_suit(rules, value) is None else rules.first_trump_action + parse_suit(rules, value))
            if action is None:
                raise RecordError(where, f"trump {shown(value)} is not a suit of this deck")
        else:
            if "direction" not in declare:
                raise RecordError(where, f"seat {state.declarer} must name a direction")
            d = parse_direction(rules, declare["direction"])
            if d is None:
                raise RecordError(where,
                                  f"direction {shown(declare['direction'])} is not one of: {', '.join(rules.orders)}")
            action = rules.first_direction_action + d
        yield action
    # What the bid already fixed may be restated, but not contradicted.
    if "trump" in declare:
        value = declare["trump"]
        given = NO_TRUMP if value is None else parse_suit(rules, value)
        if given != state.trump:
            raise RecordError(where, f"trump {shown(value)} contradicts the contract")
    if "direction" in declare and parse_direction(rules, declare["direction"]) != state.direction:
        raise RecordError(where, f"direction {shown(declare['direction'])} contradicts the contract "
                                 f"({rules.orders[state.direction]})")


def _discard_entries(state: HandState, record: dict, prefix: str, at: list[str]):
    """The record's ``discard`` as actions, where the hand asks for a discard now."""
    rules = state.rules
    where = prefix + "discard"
    discard = record.get("discard", [])
    if state.phase != DISCARD:
        if discard:
            raise RecordError(where, "this variant has no discard here")
        return
    taker = state.current_player()  # the kitty's taker: the declarer unless the rules name another seat
    if not isinstance(discard, list) or len(discard) != state.discard_target:
        count = len(discard) if isinstance(discard, list) else "no list of"
        raise RecordError(where, f"seat {taker} must discard {state.discard_target} cards, "
                                 f"the record has {count}")
    for card in discard:
        cid = parse_card(rules, card)
        if cid is None or cid not in state.hands[taker]:
            raise RecordError(where, f"seat {taker} discards {shown(card)}, which it does not hold")
        at[0] = where
        yield cid


def _play_entries(state: HandState, record: dict, prefix: str, at: list[str | None]):
    """The record's ``play`` as card actions; RecordError for a card after the end or not of the deck.

    The cards up to the first that is not of the deck are handed over as one list (the
    hot part of a replay); ``at`` is None while they are applied, for the caller to name
    the card refused from the number played (:func:`_play_error`).
    """
    rules = state.rules
    play = record.get("play", [])
    if not isinstance(play, list):
        raise RecordError(prefix + "play", "play must be a list of cards")
    ids = []
    for card in play:
        cid = parse_card(rules, card)
        if cid is None:
            break
        ids.append(cid)
    if play and state.phase != PLAY:
        raise _play_error(state, play, prefix)
    at[0] = None
    yield from ids
    if len(ids) < len(play):  # then a card that is not of the deck, unless the hand is over
        i = len(ids)
        if state.phase != PLAY:
            raise _play_error(state, play, prefix)
        raise RecordError(f"{prefix}play[{i}]", f"seat {state.current_player()} plays {shown(play[i])}, "
                                                "which is not a card of this deck")


def _play_error(state: HandState, play: list, prefix: str, message: str = "") -> RecordError:
    """The error of the card of ``play`` the hand refused (saying ``message``), or that follows the hand's end."""
    i = len(state.tricks) * state.rules.players + len(state.trick)  # the cards played before it
    if state.phase != PLAY:
        return RecordError(f"{prefix}play[{i}]", f"the hand was over after {i} cards; {shown(play[i])} follows it")
    return RecordError(f"{prefix}play[{i}]", message)


def _replay_claim(state: HandState, record: dict, prefix: str) -> HandReplay:
    """The end of a replayed hand: over by play, or ended by the record's claim."""
    rules = state.rules
    claim = record.get("claim")
    if claim is None:
        if state.phase != OVER:
            raise RecordError(prefix + "play", f"the play stops after {len(record.get('play', []))} cards; "
                                               "the hand is not over and nothing is claimed")
        return HandReplay(state)
    at = prefix + "claim"
    if not isinstance(claim, int) or isinstance(claim, bool) or claim < 0:
        raise RecordError(at, "claim must be a number of tricks (0 or more)")
    if state.trick or not state.tricks:
        raise RecordError(at, "a claim must come at the end of a trick, after at least one trick")
    remaining = len(state.hands[0])
    if claim > remaining:
        raise RecordError(at, f"claim of {claim} tricks, but only {remaining} remain")
    if rules.sides != 2:
        raise RecordError(at, "claims are defined only for two sides")
    apply_claim(state, claim)
    return HandReplay(state, claimed=True)


def apply_claim(state: HandState, claim: int) -> None:
    """End a hand by claim: the declaring side takes ``claim`` of the remaining tricks.

    records.md defines a claim between two sides only (the other side takes the rest);
    with more sides (each player alone) nobody could say which defender takes what.
    """
    rules = state.rules
    if rules.sides != 2:
        raise ValueError(f"claims are defined only for two sides, not {rules.sides}")
    remaining = len(state.hands[0])
    side = rules.side_of[state.declarer]
    books = state.books_so_far()  # tricks taken and the discards' book, as the variant counts it
    books[side] += claim
    books[1 - side] += remaining - claim
    state.books = books
    state.score = state.score_books(books)
    state.phase = OVER
    state.seat = -1
    state._legal = None


def replay_game(records: list[dict], resolve: Resolver) -> tuple[list[HandReplay], GameTally]:
    """Replay a game record; RecordError (``hand[i].…``) at the first illegal entry."""
    first = records[0]
    rules = _resolve(first, resolve, "hand[0].")
    tally = GameTally(rules)
    replays = []
    previous = None  # the previous hand's state: who deals next depends on how it ended
    for i, record in enumerate(records):
        prefix = f"hand[{i}]."
        for key in ("variant", "with"):
            if record.get(key, [] if key == "with" else None) != first.get(key, [] if key == "with" else None):
                raise RecordError(prefix + key, f"every hand of a game record must have the {key} of the first hand")
        if tally.winner is not None:
            raise RecordError(f"hand[{i}]", "the game was decided by the hand before this one; no hand may follow")
        # The dealer comes before the deal: a wrong one is the hand's first offending entry
        # (the auction itself depends on who deals).  replay_hand checks its type and range.
        dealer = record.get("dealer")
        if (previous is not None and isinstance(dealer, int) and not isinstance(dealer, bool)
                and dealer != tally.next_dealer(previous)):
            raise RecordError(prefix + "dealer",
                              f"dealer {dealer} does not follow the rotation "
                              f"(expected {tally.next_dealer(previous)})")
        replay = replay_hand(rules, record, prefix)
        previous = replay.state
        tally.add_hand(replay.state)
        replays.append(replay)
    return replays, tally


def _resolve(record: dict, resolve: Resolver, prefix: str) -> Ruleset:
    variant = record.get("variant")
    with_rules = record.get("with", [])
    if not isinstance(variant, str):
        raise RecordError(prefix + "variant", "variant must be a variant's name or a path")
    if not isinstance(with_rules, list) or not all(isinstance(w, str) for w in with_rules):
        raise RecordError(prefix + "with", "with must be a list of house-rule names")
    if len(with_rules) > MAX_WITH:
        raise RecordError(prefix + "with", f"with lists {len(with_rules)} house rules; a record may lay "
                                           f"at most {MAX_WITH} on its variant")
    # The variant alone first, so a bad house rule (or one that does not fit the
    # variant) is reported at `with`, not at `variant`.
    for field, rules_with in (("variant", []), ("with", with_rules)):
        if field == "with" and not with_rules:
            break
        try:
            rules = resolve(variant, rules_with)
        except LookupError as exc:
            raise RecordError(prefix + field, str(exc.args[0] if exc.args else exc)) from None
    return rules


def replay_file(rf: RecordFile, resolve: Resolver) -> dict:
    """Replay a parsed record file to replay's JSON output; errors become ``error``."""
    if rf.is_game:
        try:
            replays, tally = replay_game(rf.records, resolve)
        except RecordError as exc:
            return {"hands": None, "totals": None, "winner": None, "error": exc.as_json()}
        return {"hands": [r.as_json() for r in replays], "totals": list(tally.totals),
                "winner": tally.winner, "error": None}
    record = rf.records[0]
    try:
        rules = _resolve(record, resolve, "")
        return replay_hand(rules, record).as_json()
    except RecordError as exc:
        return {"contract": None, "tricks": None, "books": None, "score": None, "error": exc.as_json()}


# --------------------------------------------------------------------------- writing
def hand_record(state: HandState, variant: str, with_rules: list[str] | tuple = ()) -> dict:
    """The ``bidwhist-hand/1`` record of a hand (finished or in progress)."""
    rules = state.rules
    cards = rules.cards
    names = rules.action_names
    record = {
        "format": HAND_FORMAT,
        "variant": variant,
        "with": list(with_rules),
        "dealer": state.dealer,
        "hands": [[cards[c] for c in hand] for hand in state.dealt],
        "kitty": [cards[c] for c in state.kitty],
        "auction": [names[a] for _, a in state.calls],
    }
    if state.declarer < 0:
        return record
    decl = state.declaration
    declare = {}
    declared = state.table is not None  # set once every declaration step is done
    by_lead = decl.by_first_lead and state.trump != NO_TRUMP  # records.md: no declare
    if declared and not by_lead and (decl.says_trump or decl.chooses_direction):
        declare["trump"] = None if state.trump == NO_TRUMP else rules.suits[state.trump]
    if declared and decl.chooses_direction:
        declare["direction"] = rules.orders[state.direction]
    if declare:
        record["declare"] = declare
    if state.discards:
        record["discard"] = [cards[c] for c in state.discards]
    record["play"] = [cards[c] for _, t, _ in state.tricks for c in t] + [cards[c] for c in state.trick]
    return record
