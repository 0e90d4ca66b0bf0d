"""Hands exported by the Trickster Cards app (PTN, a PBN-like tag format) as hand records.

PTN as Trickster writes it (learnt from the public examples in the app's bot
repository, TricksterCards/TricksterBots, TestBots/**/*.ptn, and its test reader):

* tag lines ``[Name "value"]``; the lines after a tag that are not tags are its data
  (the calls of ``Auction``, the tricks of ``Play``); lines starting with ``%`` are
  comments.  A hand begins at ``[Event …]``, or at a second ``[Deal …]``; a file that
  writes no Events begins one also where a tag the hand gave before its Deal
  (``[GameOptions …]``, say) repeats once the hand has its Deal.  Any other tag given twice
  in one hand (two ``[Result]``) is refused, naming it and its line, Events or none.
* seats are ``S W N E`` for four players, in the order of play (each one's left is the
  next): here seat 0 is S, 1 W, 2 N, 3 E, so partners are S+N and W+E.
* ``[Deal "N:… … … …"]``: the first seat (the dealer), then its hand and the others'
  clockwise; a hand is its suits ``S.H.D.C`` by rank letters (``T`` or ``10``), and a
  fifth group holds the jokers (``H`` or ``B`` the big one, ``L`` the little one).
  ``[Undealt "…"]`` is the kitty in the same spelling, or (as real exports write it,
  TricksterBots issue 241) a list of suit-first cards, ``S2SJCJS5``; so are
  ``CardsAdded`` and ``CardsRemoved``.
* real exports begin with a ``% PBN ---`` (or ``% PTN ---``) comment, name the options
  in the Event (``Trickster Cards: Practice Whist - Bid Whist to ±7, no Jokers, …``) and
  again in GameOptionsJson (both are returned, :meth:`PtnHand.option_sources`), may write
  GameOptionsJson's inner quotes unescaped and may leave a tag's ``]`` off: a tag's value
  runs from its first quote to the line's last one.  Tags not used here are skipped with
  their lines; ``;`` and ``{…}`` lines are comments too (PBN's).
* ``[Auction "E"]``: the first caller; its lines hold the calls in fixed seat order from
  that seat, ``-`` where a seat made none: ``Pass``, ``4`` (a bare number), ``4↑``
  (uptown), ``4↓`` (downtown), ``4NT``.  A call naming a suit after the auction
  (``4♠↑``, as the examples write the declarer's choice) is the declaration; so is the
  suit of the winning bid when a real export writes it there (``Pass Pass 3↓ 4♠↓``,
  TricksterBots issue 327): the bid is ``4↓``, and only the winning bid may name a suit.
* ``[Declarer "E"]``, ``[Contract "4♠↑"]`` (level, then a suit or ``NT``, then ``↑`` or
  ``↓``), ``[CardsAdded "…"]`` (the kitty taken) and ``[CardsRemoved "…"]`` (the discards).
* ``[Play "E"]``: the first leader; one line per trick, each card under its seat in fixed
  seat order from that first leader (not in the order of play), suit first: ``D9``,
  ``♠A``, ``H10``, jokers ``JH``/``JB`` (big) and ``JL`` (little); ``-`` for a card not
  played.  The last line may stop short (a hand in progress) where the trick's leader is
  that first leader: its cards are then the first seats' from it, the rest not played.

The hand is replayed by the engine as it is read: who calls, who leads each trick
(the previous trick's winner) and whether a card may be played are the rules' answer,
and each trick's cards are taken from its line in the order of play from that leader.
A hand that stops early (an open auction, no discards yet, tricks missing) becomes a
record with ``in_progress: true``; with PBN's ``[Result "N"]`` (the tricks the declaring
side took) after a play that stops at a trick's end, it is a claim of the rest (no public
export shows how the app writes a claim).  Result counts tricks, not books: the kitty's
book is not in it.  A Result on a hand stopped before its play is refused.
A tag whose value is ``""`` or ``?`` is not there.
Every fault is a :class:`PtnError` naming the line.

This module is runtime only: the caller resolves the rules (the game options' mapping
lives with the compiler) and passes the Ruleset.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from .errors import IllegalAction
from .hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, OVER, PLAY, HandState
from .cards import digits_note
from .notation import parse_call, parse_card, parse_direction, parse_suit
from .records import RecordError, check_deal, claim_shares, hand_record, json_trouble
from .ruleset import Ruleset

# Trickster's seat letters for four players, in the order of play (left is next).
SEATS = ("S", "W", "N", "E")
_SUITS = "SHDC"
_SYMBOLS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANKS = "23456789TJQKA"
# Jokers: in a deal's fifth group by one letter, in play as J + that letter.
_JOKER_LETTERS = {"H": "BJ", "B": "BJ", "L": "LJ"}
# Trickster's marks for a call's strain, as the words the variants' calls understand.
_ARROWS = {"↑": "uptown", "↓": "downtown"}
_NOTRUMP = "notrump"

# The tags followed by lines of their own (calls, tricks).
_SECTIONS = {"auction": "Auction", "play": "Play"}
# Only Auction and Play take lines of their own, and PBN's tables (a tag whose name ends
# in "Table") their rows, which are skipped; a line after any other tag is refused, so that
# a misspelt [Plays] or a tag put between [Play] and its tricks never drops them unsaid.
# A tag line's head, ``[Name "``; the value runs to the line's last quote, as the app's
# own reader (TestBots/PTN.cs) takes it: real exports hold GameOptionsJson with its inner
# quotes unescaped (``"{"kittySize":1}"``) and may lack the closing bracket
# (``[LocalDateTime "…"``) — TricksterBots issues 241, 231, 254.  Found with str.rfind,
# the line is read in linear time whatever its length.
_TAG_HEAD = re.compile(r'\[\s*([A-Za-z][A-Za-z0-9_]*)\s+"')
# Within a value: the end of one tag and the head of another (one tag a line).
_NEXT_TAG = re.compile(r'"\s*\]\s*\[\s*[A-Za-z][A-Za-z0-9_]*\s+"')
# A real export's Event: "Trickster Cards: <mode> <game> - <options, comma-separated>".
_EVENT_OPTIONS = re.compile(r"^\s*Trickster Cards:[^\n]*? - (.+)$", re.IGNORECASE)
# A level in ASCII digits: ``\d`` also matches '٤', which int() reads as 4.
# The arrow may also come before the suit (``4↑♠``): the app's reader finds the suit
# anywhere in a contract (TestBots/PTN.cs), so its order is not relied on.
# At most 3 digits: int() refuses more than 4300 (a ValueError, status 70, before).
_CALL = re.compile(r"^([0-9]{1,3})\s*(?:(NT|[SHDC♠♥♦♣])?\s*([↑↓])?|([↑↓])\s*(NT|[SHDC♠♥♦♣]))$", re.IGNORECASE)


class PtnError(Exception):
    """A fault in a PTN file: the line (from 1) and what is wrong there."""

    def __init__(self, line: int, message: str):
        self.line = line
        self.message = message
        super().__init__(f"line {line}: {message}")


@dataclass
class Tag:
    """One tag: its value, the line it is on, and its data lines as (line, text)."""

    name: str
    value: str
    line: int
    data: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class PtnHand:
    """The tags of one hand, by name, and the line where the hand begins."""

    line: int
    tags: dict[str, Tag] = field(default_factory=dict)

    def get(self, name: str) -> Tag | None:
        """The tag ``name`` (tag names are matched without regard to case), or None.

        A tag whose value is empty or ``?`` (PBN's "not known") and that has no lines is
        read as not there: a hand exported before its auction is over may say
        ``[Declarer ""]`` or ``[Contract "?"]``.
        """
        tag = self.tags.get(name.lower())
        if tag is not None and tag.value.strip() in ("", "?") and not tag.data:
            return None
        return tag

    def option_sources(self) -> list[tuple[str, int, list[str], bool]]:
        """The hand's statements of its game options: (tag, line, phrases, is_json) each.

        The words: ``[GameOptions "2 Jokers, 6-card kitty, …"]``'s comma-separated
        phrases, and a real export's Event's, after the game's name
        (``[Event "Trickster Cards: Practice Whist - Bid Whist to ±7, no Jokers, …"]``,
        TricksterBots issue 241).  And ``[GameOptionsJson "{…}"]``'s keys, as
        ``key=value`` phrases (is_json true): the JSON leaves out the settings at the
        app's defaults, so what its silence means is the caller's to say.  Both are
        returned when both are there (and both GameOptions and the Event's words, when a
        hand has both, to be cross-checked); none when the hand names no options.  Each
        phrase is listed once.
        """
        sources: list[tuple[str, int, list[str], bool]] = []
        words = self.get("GameOptions")
        event = self.get("Event")
        match = None if event is None else _EVENT_OPTIONS.match(event.value)
        for tag, text in ((words, None if words is None else words.value),
                          (event, None if match is None else match.group(1))):
            if tag is not None and text is not None:
                # Each phrase once: a hostile Event repeating one phrase a million times is read
                # as that phrase (the cross-check's work grows with the phrases).
                phrases = list(dict.fromkeys(p.strip() for p in text.split(",") if p.strip()))
                sources.append(("GameOptions" if tag is words else "Event", tag.line, phrases, False))
        json_tag = self.get("GameOptionsJson")
        if json_tag is not None:
            try:
                value = json.loads(json_tag.value, object_pairs_hook=_no_repeated_keys)
            except _RepeatedKey as exc:
                raise PtnError(json_tag.line, f"GameOptionsJson gives the key {exc.key[:40]!r} twice") from None
            except (ValueError, RecursionError) as exc:
                raise PtnError(json_tag.line, f"GameOptionsJson is not JSON: {json_trouble(exc)}") from None
            if not isinstance(value, dict):
                raise PtnError(json_tag.line, "GameOptionsJson must be a JSON object")
            sources.append(("GameOptionsJson", json_tag.line, [f"{k}={json.dumps(v)}" for k, v in value.items()], True))
        return sources


class _RepeatedKey(Exception):
    """A JSON object that gives one key twice (json.loads would keep the last silently)."""

    def __init__(self, key: str):
        self.key = key
        super().__init__(key)


def _no_repeated_keys(pairs: list[tuple[str, object]]) -> dict:
    """json.loads' object hook: the object, or _RepeatedKey naming a key given twice."""
    value: dict = {}
    for key, item in pairs:
        if key in value:
            raise _RepeatedKey(key)
        value[key] = item
    return value


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def _tag_line(line: str) -> tuple[str, str] | None:
    """A tag line's name and value (unescaped), or None when the line is not a tag.

    The value is what lies between the first quote and the line's last one; after that
    only a closing bracket (which may be missing) and blanks may come.
    """
    head = _TAG_HEAD.match(line)
    if head is None:
        return None
    end = line.rfind('"')
    if end < head.end() or line[end + 1:].strip() not in ("", "]"):
        return None
    value = line[head.end():end]
    if _NEXT_TAG.search(value):  # `[A "x"] [B "y"]`: two tags, not one value running over both
        return None
    return head.group(1), _unescape(value)


def _begins_hand_without_event(hand: PtnHand, key: str) -> bool:
    """Whether tag `key`, given again, begins the next hand of a file that writes no Events.

    Such a file's hands are told apart by their header tags: a tag the hand gave before its
    Deal ([GameOptions], [Site] …) that comes again once the hand has its Deal begins the next
    hand; one given after the Deal ([Result]) or before any Deal is a hand's tag given twice.
    """
    deal = hand.tags.get("deal")
    return "event" not in hand.tags and deal is not None and hand.tags[key].line < deal.line


def read_ptn(text: str) -> list[PtnHand]:
    """The hands of a PTN text, tag by tag; PtnError at the first line that is not PTN."""
    hands: list[PtnHand] = []
    current: PtnHand | None = None
    last: Tag | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip().lstrip("\ufeff")
        # Comments: "%" lines as the app writes them; ";" lines and "{…}" lines as PBN allows.
        # A lone "*" is PBN's end of a section's lines, nothing more.
        if not line or line == "*" or line.startswith(("%", ";")) or (line.startswith("{") and line.endswith("}")):
            continue
        if line.startswith("["):
            tag = _tag_line(line)
            if tag is None:
                if _NEXT_TAG.search(line):
                    raise PtnError(number, f"two tags on one line: write one tag a line, found {line[:60]!r}")
                raise PtnError(number, f"not a tag: expected [Name \"value\"], found {line[:60]!r}")
            name, value = tag
            key = name.lower()
            if current is not None and key in current.tags and key not in ("event", "deal") \
                    and not _begins_hand_without_event(current, key):
                # A hand begins at its Event (or, with none, at a tag it gave before its Deal,
                # once it has the Deal): a tag given twice otherwise is a fault, as a second
                # [Result] or [GameOptionsJson] must not start a hand of its own (it had no Deal).
                where = "its [Event …]" if "event" in current.tags else \
                    "a tag the hand gave before its [Deal …] (once it has the Deal), or at a second [Deal …]"
                raise PtnError(number, f"[{name}] is given twice in this hand (first at line "
                                       f"{current.tags[key].line}); a new hand begins at {where}")
            if current is None or key == "event" or key in current.tags:
                current = PtnHand(number)
                hands.append(current)
            last = current.tags[key] = Tag(name, value, number)
            continue
        if last is None:
            raise PtnError(number, f"{line[:60]!r} comes before any tag")
        if last.name.lower() not in _SECTIONS and last.name.lower().endswith("table"):
            continue  # a PBN table (OptimumResultTable, ScoreTable, ...): its rows are not used here
        if last.name.lower() not in _SECTIONS:
            raise PtnError(number, f"{line[:60]!r} is not a tag, and {last.name} takes no lines after it "
                                   f"(only {' and '.join(sorted(_SECTIONS.values()))} do)")
        last.data.append((number, line))
    if not hands:
        raise PtnError(1, "no PTN tags found (expected [Event …], [Deal …], …)")
    return hands


# --------------------------------------------------------------------------- cards and seats
def _seat(tag: Tag, text: str, players: int) -> int:
    if players != len(SEATS):
        raise PtnError(tag.line, f"PTN seats are read for {len(SEATS)} players; these rules have {players}")
    letter = text.strip().upper()
    if letter not in SEATS:
        raise PtnError(tag.line, f"{tag.name}: {text!r} is not a seat (one of {', '.join(SEATS)})")
    return SEATS.index(letter)


def _hand_cards(tag: Tag, text: str, what: str) -> list[str]:
    """The cards of one hand written by suits, ``AK.QJ.T9.8765.HL``, as records spell them."""
    text = text.strip()
    if text == "-":
        raise PtnError(tag.line, f"{what} is not shown ('-'); a record needs every card of the deal")
    if "." not in text:
        return _card_list(tag, text, what)
    groups = text.split(".")
    if len(groups) not in (4, 5):
        raise PtnError(tag.line, f"{what} {text!r}: expected the suits S.H.D.C and maybe a fifth group of "
                                 f"jokers, separated by dots; found {len(groups)} groups")
    cards = []
    for index, group in enumerate(groups):
        letters = group.upper().replace("10", "T")
        for letter in letters:
            if index == 4:
                card = _JOKER_LETTERS.get(letter)
                if card is None:
                    raise PtnError(tag.line, f"{what}: {letter!r} in the jokers' group is not H, B or L")
            elif letter in _RANKS:
                card = letter + _SUITS[index]
            else:
                raise PtnError(tag.line, f"{what}: {letter!r} is not a rank (2-9, T or 10, J, Q, K, A)")
            if card in cards:
                raise PtnError(tag.line, f"{what} holds {card} twice")
            cards.append(card)
    return cards


def _card_list(tag: Tag, text: str, what: str) -> list[str]:
    """Cards written one after another, suit first, as real exports write the kitty and the
    discards (``[Undealt "S2SJCJS5"]``, ``[CardsAdded "S:S5CJSJS2"]``, TricksterBots issue 241;
    jokers ``JH``/``JL``); blanks between the cards and ``10`` for a ten are read too."""
    cards: list[str] = []
    compact = "".join(text.split())
    i = 0
    while i < len(compact):
        size = 3 if compact[i + 1:i + 3] == "10" else 2
        token = compact[i:i + size]
        if len(token) < 2:
            raise PtnError(tag.line, f"{what}: {token!r} is not a card (suit then rank, such as S2 or CT; "
                                     "or the suits S.H.D.C by ranks, separated by dots)")
        try:
            card = _play_card(tag.line, token)
        except PtnError as exc:
            raise PtnError(tag.line, f"{what}: {exc.message}") from None
        if card in cards:
            raise PtnError(tag.line, f"{what} holds {card} twice")
        cards.append(card)
        i += size
    return cards


def _play_card(line: int, token: str) -> str:
    """A card as the play lines spell it (suit first: ``D9``, ``♠A``, ``H10``, ``JH``) as records spell it."""
    text = token.upper()
    if text in ("BJ", "LJ"):
        return text
    suit, rank = _SYMBOLS.get(text[:1], text[:1]), text[1:].replace("10", "T")
    if suit == "J" and rank in _JOKER_LETTERS:
        return _JOKER_LETTERS[rank]
    if suit in _SUITS and len(rank) == 1 and rank in _RANKS:
        return rank + suit
    raise PtnError(line, f"{token!r} is not a card (suit then rank, such as D9, ♠A, H10; jokers JH and JL)")


@dataclass
class _Call:
    """A Trickster call read as the record's words: the call, or a declaration after the auction."""

    text: str | None  # "pass", "4", "4 uptown" … (None: a declaration only)
    level: int | None = None
    trump: str | None = None  # a suit letter; "" for notrump; None when not said
    direction: str | None = None


def _read_call(line: int, token: str) -> _Call:
    if token.lower() in ("pass", "p"):
        return _Call("pass")
    match = _CALL.match(token)
    if match is None:
        raise PtnError(line, f"{token[:40]!r} is not a call (Pass, 4, 4↑, 4↓, 4NT, or a contract such as 4♠↑)"
                             + digits_note(token))
    level, strain, arrow = int(match.group(1)), match.group(2) or match.group(5), match.group(3) or match.group(4)
    direction = _ARROWS[arrow] if arrow else None
    if strain is None:
        return _Call(f"{level} {direction}" if direction else str(level), level, None, direction)
    if strain.upper() == "NT":
        return _Call(f"{level} {_NOTRUMP}", level, "", direction)
    return _Call(None, level, _SYMBOLS.get(strain, strain.upper()), direction)


# --------------------------------------------------------------------------- the hand
def _apply(state: HandState, action: int, line: int, who: str) -> None:
    try:
        state.apply_action(action)
    except IllegalAction as exc:
        raise PtnError(line, f"{who}: {exc.message}") from None


def _who(seat: int) -> str:
    return f"{SEATS[seat]} (seat {seat})"


def hand_to_record(hand: PtnHand, rules: Ruleset, variant: str, with_rules: list[str]) -> dict:
    """The hand record (records.md) of one PTN hand played under ``rules``; PtnError where it is wrong.

    The record has ``in_progress: true`` when the PTN stops before the hand is over.
    """
    n = rules.players
    deal = hand.get("Deal")
    if deal is None:
        raise PtnError(hand.line, "the hand has no [Deal \"…\"] tag")
    first, sep, rest = deal.value.partition(":")
    if not sep:
        raise PtnError(deal.line, "Deal must start with the dealer's seat and a colon, such as \"N:…\"")
    dealer = _seat(deal, first, n)
    groups = rest.split()
    if len(groups) != n:
        raise PtnError(deal.line, f"Deal holds {len(groups)} hands; these rules have {n} players")
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, group in enumerate(groups):
        seat = (dealer + i) % n
        hands[seat] = _hand_cards(deal, group, f"{SEATS[seat]}'s hand")
    dealer_tag = hand.get("Dealer")
    if dealer_tag is not None and _seat(dealer_tag, dealer_tag.value, n) != dealer:
        raise PtnError(dealer_tag.line, f"Dealer {dealer_tag.value!r} is not the Deal's first seat ({SEATS[dealer]})")
    undealt, added = hand.get("Undealt"), hand.get("CardsAdded")
    kitty_tag = undealt or added
    kitty = [] if kitty_tag is None else _hand_cards(kitty_tag, _drop_seat(kitty_tag.value), kitty_tag.name)
    try:
        ids, kitty_ids = check_deal(rules, {"hands": hands, "kitty": kitty})
    except RecordError as exc:
        line = kitty_tag.line if exc.at == "kitty" and kitty_tag is not None else deal.line
        raise PtnError(line, exc.message.replace("hands[", "the hand of seat ").replace("]", "")) from None
    if undealt is not None and added is not None:
        taken = _hand_cards(added, _drop_seat(added.value), "CardsAdded")
        if sorted(taken) != sorted(kitty):
            raise PtnError(added.line, "CardsAdded is not the kitty (the Undealt cards)")
    state = HandState(rules, dealer, ids, kitty_ids)

    record = _replay(hand, state, variant, with_rules)
    result = hand.get("Result")
    if result is not None:
        _claim(result, state, record)
    return record


def _replay(hand: PtnHand, state: HandState, variant: str, with_rules: list[str]) -> dict:
    """The hand's calls, declaration, discards and tricks applied to ``state``; its record."""
    rules = state.rules
    later = [t for t in ("Contract", "Declarer", "CardsRemoved", "Play") if hand.get(t) is not None]
    declaration = _auction(hand, state, later)
    if state.phase == AUCTION or state.phase == OVER:
        return _record(state, variant, with_rules)
    _check_declarer(hand, state)
    _check_kitty_seat(hand, state)
    contract = hand.get("Contract")
    if contract is not None:
        said = _read_call(contract.line, contract.value.strip())
        declaration = _merge(contract.line, declaration, said)
    if declaration is not None and declaration.level is not None and declaration.level != rules.bids[state.bid].level:
        raise PtnError(contract.line if contract else hand.line,
                       f"the contract's level {declaration.level} is not the winning bid's "
                       f"({rules.bids[state.bid].level})")
    if not _declare_and_discard(hand, state, declaration):
        return _record(state, variant, with_rules)
    _play(hand, state)
    return _record(state, variant, with_rules)


def _claim(tag: Tag, state: HandState, record: dict) -> None:
    """PBN's ``[Result "N"]``, the tricks the declaring side took in all: a claim of the rest
    where the play stops at a trick's end; where the hand was played out, it must agree.
    A Result on a hand stopped before its play (in the auction, the declaration or the
    discards) or on a hand with no declarer (thrown in) is refused: there is nothing to claim."""
    rules = state.rules
    text = tag.value.strip()
    if not re.fullmatch(r"[0-9]{1,3}", text):
        raise PtnError(tag.line, f"Result {text[:20]!r} is not a number of tricks (the declaring side's, 0 or more)")
    said = int(text)
    if state.declarer < 0:  # -1: no declarer (side_of[-1] would be a seat's side, silently)
        raise PtnError(tag.line, f"Result {said}, but no one declared (the hand was thrown in or its auction is "
                                 "not over): a claim comes at the end of a trick, after at least one trick")
    if state.phase not in (PLAY, OVER):
        raise PtnError(tag.line, f"Result {said} claims the tricks left, but the hand stops before its play: "
                                 "a claim comes at the end of a trick, after at least one trick")
    side = rules.side_of[state.declarer]
    taken = sum(won for seat, won in enumerate(state.won) if rules.side_of[seat] == side)
    if state.phase == OVER:
        if said != taken:
            raise PtnError(tag.line, f"Result {said}, but the declaring side took {taken} tricks in the play")
        return
    if state.trick or not state.tricks:
        raise PtnError(tag.line, f"Result {said} claims the tricks left, but a claim comes at the end of a trick, "
                                 "after at least one trick")
    remaining = len(state.hands[0])
    if not taken <= said <= taken + remaining:
        raise PtnError(tag.line, f"Result {said}: the declaring side has taken {taken} tricks and "
                                 f"{remaining} remain, so Result must be {taken} to {taken + remaining}")
    try:
        claim_shares(state, said - taken)
    except RecordError as exc:
        raise PtnError(tag.line, f"Result {said}: {exc.message}") from None
    record.pop("in_progress", None)
    record["claim"] = said - taken


def _check_kitty_seat(hand: PtnHand, state: HandState) -> None:
    """The seat a ``CardsAdded``/``CardsRemoved`` names (``S:…``) must be the kitty's taker (the
    declarer, unless the rules name another seat): another seat contradicts the auction.  The
    seat was dropped unread before, and such a file imported as if it named the taker."""
    taker = state.kitty_taker()
    if taker < 0:
        return
    for name in ("CardsAdded", "CardsRemoved"):
        tag = hand.get(name)
        seat = None if tag is None else _split_seat(tag.value)[0]
        if tag is not None and seat is not None and seat != taker:
            raise PtnError(tag.line, f"{name} gives the cards of {_who(seat)}, "
                                     f"but the kitty is taken by {_who(taker)}")


def _split_seat(value: str) -> tuple[int | None, str]:
    """The seat a ``CardsAdded``-like value names (``E:…``; None where it names none) and its cards."""
    head, sep, tail = value.partition(":")
    letter = head.strip().upper()
    return (SEATS.index(letter), tail) if sep and letter in SEATS else (None, value)


def _drop_seat(value: str) -> str:
    """``CardsAdded`` may say whose cards they are (``E:…``); :func:`_check_kitty_seat` checks that seat."""
    return _split_seat(value)[1]


def _record(state: HandState, variant: str, with_rules: list[str]) -> dict:
    record = hand_record(state, variant, with_rules)
    if state.phase != OVER:
        record["in_progress"] = True
    return record


def _merge(line: int, a: _Call | None, b: _Call, what: str = "Contract") -> _Call:
    """Two statements of the contract (the auction's, then a later call or the Contract tag) as one;
    they must agree.  ``what`` names the later one in a message: "Contract", or the call."""
    if a is None:
        return b
    for name in ("level", "trump", "direction"):
        x, y = getattr(a, name), getattr(b, name)
        if x is not None and y is not None and x != y:
            raise PtnError(line, f"{what}: {name} {y or 'NT'!r} contradicts what the auction said before "
                                 f"({x or 'NT'!r})")
        if x is None:
            setattr(a, name, y)
    return a


def _auction(hand: PtnHand, state: HandState, later: list[str]) -> _Call | None:
    """Apply the calls; the declaration written after them, if any."""
    n = state.rules.players
    tag = hand.get("Auction")
    if tag is None:
        if later:
            raise PtnError(hand.get(later[0]).line, f"{later[0]} comes without an [Auction …] tag")  # type: ignore[union-attr]
        return None
    first = _seat(tag, tag.value, n)
    if first != state.current_player():
        raise PtnError(tag.line, f"the auction starts with {_who(first)}, but under these rules "
                                 f"{_who(state.current_player())} calls first")
    declaration = None
    named: tuple[int, str, int] | None = None  # a bid written with its trump: (line, token, seat)
    index = 0
    for line, text in tag.data:
        for token in text.split():
            seat = (first + index) % n
            index += 1
            if token == "-":
                continue
            call = _read_call(line, token)
            if state.phase != AUCTION:
                if seat != state.declarer or call.text == "pass":
                    raise PtnError(line, f"{token!r} by {_who(seat)} follows the end of the auction")
                declaration = _merge(line, declaration, call, f"{token!r} by {_who(seat)}")
                continue
            if seat != state.current_player():
                raise PtnError(line, f"{token!r} is {_who(seat)}'s call, but {_who(state.current_player())} "
                                     "is to call (calls are in seat order from the first caller)")
            suited = None
            if call.text is None:
                # A real export writes the winning bid with the trump declared after it
                # (``Pass Pass 3↓ 4♠↓``, TricksterBots issue 327): the bid, and the declaration.
                suited = (line, token, seat)
                call = _Call(f"{call.level} {call.direction}" if call.direction else str(call.level),
                             call.level, call.trump, call.direction)
                assert call.text is not None
            action = parse_call(state.rules, call.text)
            if action is None:
                raise PtnError(line, f"{_who(seat)}: {token!r} ({call.text}) is not a call of these rules")
            _apply(state, state.call_meaning(action), line, _who(seat))
            if call.text != "pass":
                # A bid outbids the bids before it: what they said of trump is void, and a
                # bid that named its suit was not the winning one (only that one may).
                if named is not None:
                    raise PtnError(named[0], f"{named[1]!r} by {_who(named[2])} names a suit, but {_who(seat)} "
                                             f"bids over it ({token!r}): only the winning bid may name its trump")
                declaration = None
            if call.text.split()[-1] == _NOTRUMP and call.direction:  # "4NT↓": the direction comes with it
                declaration = _Call(None, call.level, "", call.direction)
            elif suited is not None:
                declaration, named = _Call(None, call.level, call.trump, call.direction), suited
    if named is not None and state.phase != AUCTION and state.declarer != named[2]:
        raise PtnError(named[0], f"{named[1]!r} by {_who(named[2])} names a suit, but {_who(state.declarer)} "
                                 "won the auction (only the winning bid may name its trump)")
    if named is not None and state.phase == AUCTION:
        raise PtnError(named[0], f"{named[1]!r} names a suit, but the auction is not over")
    if state.phase == AUCTION and later:
        raise PtnError(hand.get(later[0]).line,  # type: ignore[union-attr]
                       f"{later[0]} comes, but the auction is not over: {_who(state.current_player())} is to call")
    return declaration


def _check_declarer(hand: PtnHand, state: HandState) -> None:
    """The Declarer tag, if any, names the seat that won the auction; PtnError where it does not."""
    tag = hand.get("Declarer")
    if tag is not None and _seat(tag, tag.value, state.rules.players) != state.declarer:
        raise PtnError(tag.line, f"Declarer {tag.value!r}, but the auction was won by {_who(state.declarer)}")


def _declare_and_discard(hand: PtnHand, state: HandState, said: _Call | None) -> bool:
    """Declare and discard as the rules ask; False when the PTN stops before that is done."""
    rules = state.rules
    contract = hand.get("Contract")
    line = contract.line if contract is not None else hand.line
    removed = hand.get("CardsRemoved")
    play = hand.get("Play")
    discards = None if removed is None else _hand_cards(removed, _drop_seat(removed.value), "CardsRemoved")
    while True:
        if state.phase == DECLARE_TRUMP:
            if said is None or said.trump is None:
                if play is None and removed is None:
                    return False
                raise PtnError(line, f"{_who(state.declarer)} must name trump; the PTN has no Contract naming it")
            suit = None if said.trump == "" else parse_suit(rules, said.trump)
            if said.trump and suit is None:
                raise PtnError(line, f"trump {said.trump!r} is not a suit of these rules")
            _apply(state, rules.no_trump_action if suit is None else rules.first_trump_action + suit,
                   line, _who(state.declarer))
        elif state.phase == DECLARE_DIRECTION:
            if said is None or said.direction is None:
                if play is None and removed is None:
                    return False
                raise PtnError(line, f"{_who(state.declarer)} must choose a direction (↑ or ↓); "
                                     "the PTN's Contract does not say")
            d = parse_direction(rules, said.direction)
            if d is None:
                raise PtnError(line, f"direction {said.direction} is not one of these rules'")
            _apply(state, rules.first_direction_action + d, line, _who(state.declarer))
        elif state.phase == DISCARD:  # the kitty's taker discards (the declarer unless the rules say)
            if discards is None:
                if play is None:
                    return False
                raise PtnError(play.line, f"{_who(state.kitty_taker())} must discard; the PTN has no CardsRemoved")
            assert removed is not None
            if len(discards) != state.discard_target:
                raise PtnError(removed.line, f"{_who(state.kitty_taker())} must discard {state.discard_target} cards; "
                                             f"CardsRemoved holds {len(discards)}")
            for card in discards:
                cid = parse_card(rules, card)
                if cid is None:
                    raise PtnError(removed.line,
                                   f"CardsRemoved: {card} is not a card of these rules' deck" + digits_note(card))
                _apply(state, cid, removed.line, _who(state.kitty_taker()))
        elif state.phase == PLAY and state.table is None and said is not None and said.trump == "":
            _apply(state, rules.no_trump_action, line, _who(state.declarer))  # a declared notrump
        else:
            break
    if state.phase == PLAY and state.table is not None and said is not None:
        _check_contract(state, said, line)
    return True


def _check_contract(state: HandState, said: _Call, line: int) -> None:
    """What the PTN says of the contract agrees with the contract the rules made of it."""
    contract = state.contract or {}
    trump = contract.get("trump")
    if said.trump is not None and (said.trump or None) != trump:
        raise PtnError(line, f"the PTN says trump {said.trump or 'none'}, but the contract's trump is "
                             f"{trump or 'none'}")
    if said.direction is not None and contract.get("direction") not in (None, said.direction):
        raise PtnError(line, f"the PTN says {said.direction}, but the contract plays {contract.get('direction')}")


def _trick_tokens(tokens: list[str], line: int, first: int, n: int, leader: int | None,
                  last: bool) -> list[str]:
    """The cards of one trick line under the ``n`` seats from ``first`` (fixed seat order).

    The last line may stop short where the seats that played are known without guessing:
    its ``k`` cards are under the first ``k`` seats from ``first``, which are the first ``k``
    to play only when this trick's ``leader`` is ``first``; read so, the rest are ``-`` (a
    hand in progress).  Where no trick starts at the line (``leader`` None: the play is
    over, or stopped) the rest are ``-`` too, and the caller says what is wrong with a card
    there.  Any other short line is refused, saying what to write instead.
    """
    if len(tokens) == n:
        return tokens
    order = " ".join(SEATS[(first + i) % n] for i in range(n))
    said = f"a trick line holds {n} cards, one per seat from {SEATS[first]} ({order}); found {len(tokens)}"
    fix = "write '-' under each seat that has not played"
    if not last or not 0 < len(tokens) < n:
        raise PtnError(line, f"{said}; {fix}" if len(tokens) < n else said)
    if leader is not None and leader != first:
        raise PtnError(line, f"{said}: this trick is led by {_who(leader)}, so the seats that played "
                             f"these cards cannot be known; {fix}")
    return tokens + ["-"] * (n - len(tokens))


def _play(hand: PtnHand, state: HandState) -> None:
    rules = state.rules
    n = rules.players
    tag = hand.get("Play")
    if tag is None:
        return
    first = _seat(tag, tag.value, n)
    if state.phase != PLAY:
        raise PtnError(tag.line, "Play comes before the declaration and discards are complete")
    if first != state.current_player():
        raise PtnError(tag.line, f"Play says {_who(first)} leads the first trick, but under these rules "
                                 f"{_who(state.current_player())} leads it")
    stopped = False
    for number, (line, text) in enumerate(tag.data, 1):
        # The seat that leads this line's trick; None where no trick starts here (play over, or stopped).
        leader = state.current_player() if state.phase == PLAY and not stopped else None
        tokens = _trick_tokens(text.split(), line, first, n, leader, last=number == len(tag.data))
        if stopped or state.phase != PLAY:
            if all(t == "-" for t in tokens):
                continue
            raise PtnError(line, "a trick follows the end of the play" if not stopped
                           else "a card follows a card not played ('-')")
        leader = state.current_player()
        for k in range(n):  # in the order of play, from the trick's leader
            seat = (leader + k) % n
            token = tokens[(seat - first) % n]
            if token == "-":
                stopped = True
                continue
            if stopped:
                raise PtnError(line, f"{_who(seat)} plays {token} after a seat that has not played; "
                                     f"{_who(leader)} leads this trick")
            card = _play_card(line, token)
            cid = parse_card(rules, card)
            if cid is None:
                raise PtnError(line, f"{card} is not a card of these rules' deck" + digits_note(card))
            if cid not in state.hands[seat]:
                holder = next((s for s in range(n) if cid in state.hands[s]), None)
                hint = "" if holder is None else (
                    f"; {_who(holder)} holds it (each line lists the cards under their seats, "
                    f"{' '.join(SEATS[(first + i) % n] for i in range(n))})")
                raise PtnError(line, f"{_who(seat)} plays {card}, which it does not hold{hint}")
            _apply(state, cid, line, _who(seat))
