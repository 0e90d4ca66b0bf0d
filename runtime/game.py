"""A game: hands dealt from one seeded generator until the variant's game end.

``GameState`` exposes the same API as :class:`runtime.hand.HandState`; after a hand
is scored it adds the score to the totals, checks the game end and deals the next
hand itself, so a seed and the list of players' actions replay a whole game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from operator import add
from types import SimpleNamespace

from . import draws
from .hand import HandState
from .kitty import swept
from .ruleset import Ruleset
from .variables import reads_sweep

# The tie-break that always decides last: the first of the tied sides from the dealer's
# left leaves no tie, so the game always has one winner.
LAST_TIE_BREAK = "first-from-dealers-left"


def tie_breaks(value) -> tuple[str, ...]:
    """game.tie's list of tie-breaks in order, ending with the one that always decides."""
    breaks = tuple(value)
    if LAST_TIE_BREAK in breaks:  # nothing after it is ever reached
        return breaks[:breaks.index(LAST_TIE_BREAK) + 1]
    return breaks + (LAST_TIE_BREAK,)


def deal(rules: Ruleset, rng: random.Random) -> tuple[list[list[int]], list[int]]:
    """Shuffle the variant's deck with ``rng`` and deal the hands and the kitty.

    The cards after them (``rules.undealt`` of them, in a variant that sets some
    aside) stay undealt: no hand, kitty or record holds them.
    """
    deck = rules.deck()
    if draws.exact(rng):  # the same permutation, drawn without random.shuffle's call layers
        draws.shuffle(rng, deck)
    else:
        rng.shuffle(deck)
    size = rules.hand_size
    hands = [deck[i * size:(i + 1) * size] for i in range(rules.players)]
    kitty = deck[rules.players * size:rules.players * size + rules.kitty_size]
    return hands, kitty


def named_first_dealer(rules: Ruleset) -> int | None:
    """The seat the variant names to deal a game's first hand, or None where it is drawn at random."""
    if rules.first_dealer == "random":
        return None
    return int(rules.first_dealer)


def first_dealer(rules: Ruleset, rng: random.Random) -> int:
    """The first dealer of a game, as the variant says: drawn from ``rng``, or the seat it names
    (nothing is drawn then)."""
    named = named_first_dealer(rules)
    return rng.randrange(rules.players) if named is None else named


def next_dealer(rules: Ruleset, dealer: int, hands: int = 1) -> int:
    """Who deals ``hands`` deals after ``dealer`` as the deal passes round the table (the variant's rotation).

    The rotation alone: whether a thrown-in hand is dealt again by the same player is
    :meth:`GameTally.next_dealer`'s to say.
    """
    return (dealer + hands * rules.rotation) % rules.players


@dataclass
class GameResult:
    """One game of a match as records.md's ``games`` lists it: where it began, its hands, totals and winner."""

    first_hand: int  # the match's hand (from 0) that began this game
    hands: int = 0
    totals: list[int] = field(default_factory=list)
    winner: int | None = None  # None while the game is in progress

    def as_json(self) -> dict:
        """The entry of replay's ``games`` list."""
        return {"first_hand": self.first_hand, "hands": self.hands, "totals": list(self.totals),
                "winner": self.winner}


class GameTally:
    """Running totals of a game (or rubber) and its end test, shared by play and replay.

    ``totals`` are the current game's, from zero again as soon as a game of a rubber is
    won; ``games`` keeps every game begun, each with its final totals and winner.
    """

    def __init__(self, rules: Ruleset):
        self.rules = rules
        self.games: list[GameResult] = []
        self.totals = [0] * rules.sides
        self.sets = [0] * rules.sides
        # This side's contracts set one after another (a contract it makes ends the row;
        # hands the other sides declare, or thrown in, do not): "set twice in a row".
        self.sets_in_a_row = [0] * rules.sides
        self.hands_played = 0  # in the current game
        self.played = 0  # hands of the current game played with a contract (not thrown in)
        self.games_won = [0] * rules.sides  # in a rubber
        self.game_winners: list[int] = []
        self.winner: int | None = None  # of the game, or of the rubber

    @property
    def plays_rubber(self) -> bool:
        """True where the variant plays a rubber (best of several games), not one game."""
        return self.rules.game_end.rubber > 1

    def next_dealer(self, hand: HandState) -> int:
        """Who deals after ``hand``: the same dealer again after a throw-in where the variant says so.

        A hand ends without a contract either by a call of ``redeal`` or because
        everyone passed; the variant may say a different thing for each.
        """
        rules = self.rules
        if hand.declarer < 0:
            called = bool(hand.calls) and hand.calls[-1][1] == rules.redeal_action
            if (rules.redeal_dealer if called else rules.all_pass_dealer) == "same":
                return hand.dealer
        return next_dealer(rules, hand.dealer)

    def _game_of_next_hand(self) -> GameResult:
        """The game the next hand belongs to: the current one, or a new one once the last is won."""
        if not self.games or self.games[-1].winner is not None:  # this hand begins a game
            self.games.append(GameResult(first_hand=sum(g.hands for g in self.games),
                                         totals=[0] * self.rules.sides))
        return self.games[-1]

    def add_unfinished_hand(self) -> None:
        """Count a hand still in progress (the last of a game record) in the game it belongs to.

        records.md: ``games`` has an entry for every game *begun* in the record, so a
        hand in progress after a won game of a rubber begins the next game (totals from
        zero, no winner), and it is one of its game's ``hands``; it scores nothing.
        """
        self._game_of_next_hand().hands += 1

    def add_hand(self, hand: HandState) -> None:
        """Add a finished hand's score and decide the game (and rubber) if it is over."""
        rules = self.rules
        game = self._game_of_next_hand()
        game.hands += 1
        self._counts = self._counts_after(hand)
        declaring_side = rules.side_of[hand.declarer] if hand.declarer >= 0 else None
        game_winner = self._decide(declaring_side, hand)
        game.totals = list(self.totals)
        if game_winner is None:
            return
        game.winner = game_winner
        self.game_winners.append(game_winner)
        self.games_won[game_winner] += 1
        if self.games_won[game_winner] * 2 > rules.game_end.rubber:
            self.winner = game_winner
        else:  # the rubber goes on: a new game from zero
            self._counts = ([0] * rules.sides, [0] * rules.sides, [0] * rules.sides, 0, 0)

    @property
    def _counts(self) -> tuple[list[int], list[int], list[int], int, int]:
        """The current game's counts a hand moves, in :meth:`_counts_after`'s order: (totals,
        sets, sets in a row, hands, hands with a contract).  One place names them all, so a
        new count is added here and in :meth:`_counts_after`, not in each caller."""
        return self.totals, self.sets, self.sets_in_a_row, self.hands_played, self.played

    @_counts.setter
    def _counts(self, counts: tuple[list[int], list[int], list[int], int, int]) -> None:
        self.totals, self.sets, self.sets_in_a_row, self.hands_played, self.played = counts

    def _counts_after(self, hand) -> tuple[list[int], list[int], list[int], int, int]:
        """(totals, sets, sets in a row, hands, hands with a contract) of the game once ``hand`` is
        added (new lists)."""
        rules = self.rules
        floor = rules.game_end.floor
        totals = []
        for side, points in enumerate(hand.score):
            total = self.totals[side] + points
            totals.append(total if floor is None else max(floor, total))
        sets = list(self.sets)
        row = list(self.sets_in_a_row)
        if hand.declarer >= 0 and hand.made is not None:
            side = rules.side_of[hand.declarer]
            sets[side] += not hand.made
            row[side] = 0 if hand.made else row[side] + 1
        return totals, sets, row, self.hands_played + 1, self.played + (1 if hand.declarer >= 0 else 0)

    def winner_if(self, hand) -> int | None:
        """The side that would win the current game if ``hand`` (a finished hand, or any object
        with its ``score``, ``books``, ``declarer``, ``bid``, ``made`` and ``dealer``) were
        added now; None if the game would go on.  Nothing is changed."""
        saved = self._counts
        self._counts = self._counts_after(hand)
        try:
            side = self.rules.side_of[hand.declarer] if hand.declarer >= 0 else None
            return self._decide(side, hand)
        finally:
            self._counts = saved

    def may_end(self, low: list[int], high: list[int]) -> bool:
        """Whether some result of the next hand could end the current game, each side's
        score for the hand lying between ``low[side]`` and ``high[side]``.

        The game's own win and lose formulas are evaluated over ranges (Formula.span):
        every variable :meth:`_decide` gives them spans what one hand can make of it
        (sets up by one, a sweep or not, any bid, made or not), so False is certain;
        True may be said of a hand that cannot in fact end the game.
        """
        rules = self.rules
        end = rules.game_end
        floor = end.floor
        scores = []
        for side in range(rules.sides):
            lo, hi = self.totals[side] + low[side], self.totals[side] + high[side]
            scores.append((lo, hi) if floor is None else (max(floor, lo), max(floor, hi)))
        levels = [b.level for b in rules.bids]
        last_bid = (min([0, *levels]), max([0, *levels]))
        for side in range(rules.sides):
            others = [r for s, r in enumerate(scores) if s != side]
            ranges = {  # the names _decide gives, each as the range one hand can make of it
                "score": scores[side],
                "opponent_score": (max(r[0] for r in others), max(r[1] for r in others)) if others else (0, 0),
                "sets": (self.sets[side], self.sets[side] + 1),
                "sets_in_a_row": (0, self.sets_in_a_row[side] + 1),
                "hands": (self.hands_played + 1, self.hands_played + 1),
                "swept": (0, 1),
                "games": (self.games_won[side], self.games_won[side]),
                "target": (end.target, end.target),
                "played": (self.played, self.played + 1),
                "last_bid": last_bid,
                "last_declarer": (0, 1),
                "last_made": (0, 1),
            }
            try:
                if end.win.span(ranges)[1] or end.lose.span(ranges)[1]:
                    return True
            except KeyError:  # a name this does not know: say it may end
                return True
        return False

    def _decide(self, declaring_side: int | None, hand: HandState) -> int | None:
        rules = self.rules
        winners, losers = [], []
        who_swept = swept(rules, hand.books, declaring_side) if hand.books else (False,) * rules.sides
        # The hand just played, as the game-end formulas see it (nothing after a throw-in).
        last_bid = rules.bids[hand.bid].level if declaring_side is not None else 0
        last_made = bool(hand.made)
        for side in range(rules.sides):
            others = [t for s, t in enumerate(self.totals) if s != side]
            env = {
                "score": self.totals[side],
                "opponent_score": max(others) if others else 0,
                "sets": self.sets[side],
                "sets_in_a_row": self.sets_in_a_row[side],
                "hands": self.hands_played,
                "swept": who_swept[side],
                "games": self.games_won[side],
                "target": rules.game_end.target,
                "played": self.played,
                "last_bid": last_bid,
                "last_declarer": side == declaring_side,
                "last_made": last_made,
            }
            # A side that meets a losing condition loses, whatever else it meets: rules.md's
            # losing rules say "a side set for the third time in a game loses it" and "loses
            # the game at once" (and the rulebook "the other side then wins").
            if rules.game_end.lose(env):
                losers.append(side)
            elif rules.game_end.win(env):
                winners.append(side)
        if winners:
            return self.break_tie(winners, rules.tie_break, declaring_side, hand.dealer)
        if losers:
            standing = [s for s in range(rules.sides) if s not in losers]
            if standing:  # the side still in with the highest score wins
                return self.break_tie(standing, ("higher",), None, hand.dealer)
        return None

    def break_tie(self, sides: list[int], breaks: tuple[str, ...], declaring_side: int | None,
                  dealer: int) -> int:
        """The one of ``sides`` that wins, by the tie-breaks in order (game.tie).

        ``declarer``: the declaring side, if it is one of them; ``higher``: those with the
        highest total; and last, whatever the list says, the first of them from the
        dealer's left (the side of the first seat from ``dealer + 1`` round the table).
        """
        for rule in breaks:
            if len(sides) == 1:
                break
            if rule == "declarer" and declaring_side in sides:
                sides = [declaring_side]
            elif rule == "higher":
                best = max(self.totals[s] for s in sides)
                sides = [s for s in sides if self.totals[s] == best]
        if len(sides) == 1:
            return sides[0]
        players = self.rules.players
        for step in range(1, players + 1):
            side = self.rules.side_of[(dealer + step) % players]
            if side in sides:
                return side
        return sides[0]


class GameView:
    """What a hand may know of the game it is part of: the totals so far and what a result would do.

    Bots ask it (``HandState.game``) instead of reading the game-end settings: the game's
    win and lose conditions are interpreted only by :class:`GameTally`, and
    :meth:`winner_after` plays a hypothetical result through a copy of the tally.
    """

    __slots__ = ("_tally", "_memo", "_shared", "cache")

    def __init__(self, tally: GameTally):
        self._tally = _copy_tally(tally)
        self._memo: dict = {}
        self._shared = _shared_memo(tally.rules)
        # A memo for callers' values derived from this view (it lives as long as the hand).
        self.cache: dict = {}

    @property
    def totals(self) -> list[int]:
        """Each side's score in the current game before this hand."""
        return list(self._tally.totals)

    def key(self, dealer: int) -> tuple:
        """What the game's end test reads of the game so far (totals, sets, hands, games won)
        and of ``dealer`` (the order of the sides from the dealer's left, the last
        tie-break): two hands with the same key decide every result alike."""
        found = self._memo.get(("key", dealer))
        if found is not None:
            return found
        t = self._tally
        rules = t.rules
        order = tuple(dict.fromkeys(rules.side_of[(dealer + step) % rules.players]
                                    for step in range(1, rules.players + 1)))
        end = t.rules.game_end
        names = end.win.names | end.lose.names
        # Only the counts the formulas read (the totals always: the tie-breaks read them).
        found = self._memo[("key", dealer)] = (
                tuple(t.totals),
                tuple(t.sets) if "sets" in names else None,
                tuple(t.sets_in_a_row) if "sets_in_a_row" in names else None,
                t.hands_played if "hands" in names else None,
                t.played if "played" in names else None,
                tuple(t.games_won) if "games" in names else None,
                order)
        return found

    @property
    def target(self) -> int:
        """The game's target score (the scale of a game: what a side plays towards)."""
        return self._tally.rules.game_end.target

    def may_end(self, low: list[int], high: list[int]) -> bool:
        """Whether a result of this hand scoring each side between ``low[side]`` and
        ``high[side]`` might end the game (False is certain): :meth:`GameTally.may_end`."""
        # The end test reads the totals only as each side's range after the hand (and the
        # counts of view.key): ranges that reach the same totals from another position of
        # the process decide alike (shared by every view of the ruleset).
        totals = self._tally.totals
        key = ("may_end", self.key(0)[1:-1],  # every count, not the totals or the order
               tuple([t + x for t, x in zip(totals, low)]),
               tuple([t + x for t, x in zip(totals, high)]))
        memo = self._shared
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._tally.may_end(low, high)
        return found

    def winners_after(self, results, declarer: int, bid: int, dealer: int) -> list[int | None]:
        """:meth:`winner_after` of each ``(score, books, made)`` of ``results``, all with
        one declaring seat and bid (-1, -1: no contract): the same answers, asked at once.

        Each is keyed by what the end test reads of it (the totals after the hand, the
        counts of :meth:`key`, and of the hand only the parts the win and lose formulas
        and the tie-breaks read), in the memo shared by every view of the ruleset.
        """
        tally = self._tally
        rules = tally.rules
        swept_read, level_read, made_read = _reads(rules)
        pos = self.key(dealer)[1:]
        if declarer >= 0:
            side = rules.side_of[declarer]
            level = rules.bids[bid].level if level_read else None
        else:
            side, level = None, 0
        totals = tally.totals
        memo = self._shared
        # One memo per game position's counts, declaring side and level (what is the same
        # for every result of the list), keyed by the totals after each result and, where
        # the end test reads them, who swept and whether it was made.
        group = ("won", pos, side, level)
        sub = memo.get(group)
        if sub is None:
            sub = memo[group] = {}
        get = sub.get
        # What each result adds to the key besides the totals after it: the same for every
        # position, worked out once per list of results (kept while the list lives).  Many
        # results of a list read alike (every set of a bid scores the same): each distinct
        # one is decided once, in the order they first come, and shared by the rest.
        distinct, index = _statics(rules, results, swept_read, made_read, side)
        found: list[int | None] = []
        append = found.append
        for i, extra in distinct:
            score, books, made = results[i]
            key = tuple(map(add, totals, score)) if extra is None else (tuple(map(add, totals, score)), extra)
            winner = get(key, _UNKNOWN)
            if winner is _UNKNOWN:
                hand = SimpleNamespace(score=score, books=books, declarer=declarer, bid=bid, made=made, dealer=dealer)
                winner = sub[key] = tally.winner_if(hand)
            append(winner)
        return list(map(found.__getitem__, index))

    def winner_after(self, score: list[int], books: list[int], declarer: int, bid: int, made: bool | None,
                     dealer: int) -> int | None:
        """The side that wins the current game if this hand ends so (None: the game goes on).

        ``score`` and ``books`` per side, ``declarer`` the declaring seat (-1: no contract),
        ``bid`` the ladder index of its bid, ``made`` whether it was made.
        """
        # Only what the tally's end test reads of a hand: the scores, who swept, the
        # declaring side, the bid's level, made and the dealer (so results that differ
        # elsewhere, as two sets of one level, are decided once).
        # The end test reads the totals only as they are after the hand, and the rest of
        # the game as view.key says (the dealer through the order of the sides): the
        # same totals after the hand reached from another position decide alike, so the
        # memo is shared by every view of the ruleset in the process.
        tally = self._tally
        rules = tally.rules
        after = tuple([t + p for t, p in zip(tally.totals, score)])
        if declarer >= 0:
            side = rules.side_of[declarer]
            key = (self.key(dealer)[1:], after, swept(rules, books, side), side, rules.bids[bid].level, bool(made))
        else:
            key = (self.key(dealer)[1:], after, swept(rules, books, None), None, 0, False)
        memo = self._shared
        if key in memo:
            return memo[key]
        hand = SimpleNamespace(score=score, books=books, declarer=declarer, bid=bid, made=made, dealer=dealer)
        winner = memo[key] = tally.winner_if(hand)
        return winner


_UNKNOWN = object()
_STATICS: dict[int, tuple] = {}


def _statics(rules: Ruleset, results: list, swept_read: bool, made_read: bool,
             side: int | None) -> tuple[list[tuple[int, tuple | None]], list[int]]:
    """What :meth:`GameView.winners_after` reads of ``results`` (``(score, books, made)``
    each) that does not depend on the game: (the results whose memo keys differ, each as
    (its index, the parts of the key besides the totals after it: (who swept, whether it
    was made), each None where the end test does not read it, or None for both), per
    result the position of its like in that list; ``side``: the declaring side, None
    without a contract).  Results with the same score and
    parts have the same key at any position: the first of them stands for the rest.
    Kept per list, by identity (the list kept alive with its entry), and per ruleset: who
    swept is the ruleset's reading (runtime.kitty.swept), not the books' alone."""
    got = _STATICS.get(id(results))
    contract = side is not None
    if (got is None or got[0] is not results or got[5] is not rules
            or got[1:4] != (swept_read, made_read, side)):
        if len(_STATICS) > 4096:
            _STATICS.clear()
        distinct: list[tuple[int, tuple | None]] = []
        index: list[int] = []
        first: dict = {}
        for i, (score, books, made) in enumerate(results):
            extra: tuple | None
            if not (swept_read or made_read):
                extra = None  # nothing but the totals
            else:
                who_swept = swept(rules, books, side) if swept_read else None
                extra = (who_swept, (bool(made) if contract else False) if made_read else None)
            j = first.setdefault((tuple(score), extra), len(distinct))
            if j == len(distinct):
                distinct.append((i, extra))
            index.append(j)
        got = _STATICS[id(results)] = (results, swept_read, made_read, side, (distinct, index), rules)
    return got[4]


_READS: dict[int, tuple[Ruleset, tuple[bool, bool, bool]]] = {}


def _reads(rules: Ruleset) -> tuple[bool, bool, bool]:
    """Whether the game's end test reads of a hand (swept, its bid's level, made):
    the win and lose formulas' names (a set counts in ``sets`` and ``sets_in_a_row``)."""
    got = _READS.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_READS) > 64:
            _READS.clear()
        end = rules.game_end
        names = end.win.names | end.lose.names
        got = _READS[id(rules)] = (rules, (reads_sweep(names), "last_bid" in names,
                                           "last_made" in names or "sets" in names
                                           or "sets_in_a_row" in names))
    return got[1]


# Per ruleset (by identity, the ruleset kept alive with it): what the game's end test
# said of a position after a hand, for every GameView of the process (bounded).
_SHARED: dict[int, tuple[Ruleset, dict]] = {}
_SHARED_LIMIT = 50_000


def _shared_memo(rules: Ruleset) -> dict:
    """The end-test memo shared by the GameViews of ``rules`` (emptied past a bound)."""
    got = _SHARED.get(id(rules))
    if got is None or got[0] is not rules:
        if len(_SHARED) > 64:  # many rulesets made in one process (tests): keep few alive
            _SHARED.clear()
        got = _SHARED[id(rules)] = (rules, {})
    if len(got[1]) > _SHARED_LIMIT:
        got[1].clear()
    return got[1]


def _copy_tally(tally: GameTally) -> GameTally:
    """An independent copy of ``tally`` (the ruleset shared)."""
    other = GameTally.__new__(GameTally)
    other.__dict__.update({k: (list(v) if isinstance(v, list) else v) for k, v in tally.__dict__.items()})
    other.games = [replace(g, totals=list(g.totals)) for g in tally.games]
    return other


class GameState:
    """A whole game of a variant, dealt from ``seed``; same API as a hand."""

    def __init__(self, rules: Ruleset, seed: int, max_hands: int = 1000):
        self.rules = rules
        self.seed = seed
        self.rng = random.Random(seed)
        self.tally = GameTally(rules)
        self.max_hands = max_hands
        self.history: list[HandState] = []
        self.hand = self._new_hand(first_dealer(rules, self.rng))

    def _new_hand(self, dealer: int) -> HandState:
        hands, kitty = deal(self.rules, self.rng)
        state = HandState(self.rules, dealer, hands, kitty)
        state.game = GameView(self.tally)  # the players may know the game's score
        return state

    def current_player(self) -> int:
        """The seat to act, or -1 when the game is over."""
        return -1 if self.is_terminal() else self.hand.current_player()

    def is_terminal(self) -> bool:
        """True once a side has won (or the hand limit is reached)."""
        return self.tally.winner is not None or len(self.history) >= self.max_hands

    def legal_actions(self) -> list[int]:
        """The current player's legal actions in the current hand."""
        return [] if self.is_terminal() else self.hand.legal_actions()

    def apply_action(self, action: int) -> None:
        """Apply an action; when it ends a hand, score it and deal the next one."""
        hand = self.hand
        hand.apply_action(action)
        if hand.is_terminal():
            self.history.append(hand)
            self.tally.add_hand(hand)
            if not self.is_terminal():
                self.hand = self._new_hand(self.tally.next_dealer(hand))

    @property
    def totals(self) -> list[int]:
        """Each side's score so far."""
        return self.tally.totals

    @property
    def winner(self) -> int | None:
        """The winning side once the game is decided."""
        return self.tally.winner

    def clone(self) -> "GameState":
        """An independent copy, generator state included."""
        other = GameState.__new__(GameState)
        other.rules = self.rules
        other.seed = self.seed
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.tally = _copy_tally(self.tally)
        other.max_hands = self.max_hands
        other.history = list(self.history)
        other.hand = self.hand.clone()
        return other

    def observation(self, seat: int) -> dict:
        """What ``seat`` may know: the current hand's view plus the game's totals."""
        obs = self.hand.observation(seat)
        obs["totals"] = list(self.totals)
        obs["hand_number"] = len(self.history)
        return obs
