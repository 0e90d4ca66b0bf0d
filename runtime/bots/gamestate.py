"""The game around a hand, for the bidding: what a result is worth once the game score counts.

A hand played as part of a game carries a :class:`runtime.game.GameView` (``state.game``):
the totals so far and, for any result of this hand, which side the game's own win and
lose conditions would then make the winner.  :class:`GameValues` turns that into the
value the heuristic's bidding compares, in points like its hand-by-hand values:

* a result that ends the game is worth +1 (our side wins) or -1 (it loses);
* any other is worth the score difference it leaves, ``(ours - best other) / (2 * target)``,
  kept inside (-0.9, +0.9) so that ending the game always counts for more;
* the value of a contract is the expected change of that, times ``2 * target``.

Away from the game's end this is the hand's score difference, as before; near it a
contract whose set loses the game (a set on a high bid, ``score <= -target``) is worth
much less, one whose success wins it (a sweep that ends the game) much more, and a
side about to lose bids more boldly.

Speed: the score of every result is tabulated once per ruleset (it does not depend on
the game); per hand the game is asked once whether any result between the lowest and
highest scores can end it (:meth:`runtime.game.GameView.may_end`); if one can, each row
asked for is decided result by result at once (:meth:`runtime.game.GameView.winners_after`,
memoised by the totals after the hand, so positions reached again in later hands and
games are not asked again).  Rows are kept per game position: rows whose results score
alike (``ResultTable.same``) are one, and with two sides one side's rows are the other's
negated.  A contract's expected value is a weighted sum over its row, memoised per
position by an int key (the row's number and the tenths of books) and, by the row's
values, across positions (rows of different scores often read alike).
When no result can end the game and no score difference reaches the clamp,
the values are the hand's plain points and :func:`game_values` returns None, so the
heuristic runs exactly as outside a game.

Nothing here knows a rule by name: the engine (:mod:`runtime.game`,
:mod:`runtime.scoring`) says what each result scores and does.
"""

from __future__ import annotations

from operator import mul

from ..hand import HandState
from ..ruleset import NO_TRUMP, Ruleset
from .knowledge import RulesInfo

# A position that has not ended the game is worth at most this much (a win is 1).
_CLAMP = 0.9
# Game positions whose values are kept for later hands (each a few rows of floats).
_MEMO_LIMIT = 20000


class ResultTable:
    """Every result a hand of a ruleset can have, scored once: nothing here depends on the game.

    ``rows[(side, bid, nt)][k]``: ``(score, books, made)`` when ``side`` declares ``bid``
    (``nt`` 1: in notrump) and takes ``k`` books, the other sides sharing the rest
    evenly; ``low``/``high``: each side's lowest and highest score over them all (and a
    hand thrown in, which scores nothing).
    """

    def __init__(self, state: HandState, info: RulesInfo):
        rules = state.rules
        self.rules = rules
        scratch = state.clone()
        scratch.reneges = []
        total = info.total_books
        # A seat of each side declares for that side (the score is the side's).
        self.seat_of = [rules.side_of.index(side) for side in range(rules.sides)]
        self.rows: dict[tuple[int, int, int], list[tuple[list[int], list[int], bool | None]]] = {}
        low = [0] * rules.sides
        high = [0] * rules.sides
        for dside in range(rules.sides):
            others = [s for s in range(rules.sides) if s != dside]
            scratch.declarer = self.seat_of[dside]
            for b in range(len(rules.bids)):
                scratch.bid = b
                for nt in (0, 1):
                    scratch.trump = NO_TRUMP if nt else 0
                    row = []
                    for k in range(total + 1):
                        books = [0] * rules.sides
                        books[dside] = k
                        rest = total - k
                        for i, o in enumerate(others):  # the other sides share the rest evenly
                            books[o] = rest // len(others) + (1 if i < rest % len(others) else 0)
                        score = list(scratch.score_books(books))
                        row.append((score, books, scratch.made))
                        for side, points in enumerate(score):
                            low[side] = min(low[side], points)
                            high[side] = max(high[side], points)
                    self.rows[(dside, b, nt)] = row
        self.low, self.high = low, high
        # Rows whose results the game's end test reads alike (the same declaring side,
        # bid level and results: an uptown and a downtown bid of one level, say) share
        # one list of winners per game position: ``same[key]`` names the first of them.
        first: dict = {}
        self.same: dict[tuple[int, int, int], tuple] = {}
        for (dside, b, nt), row in self.rows.items():
            sig = (dside, rules.bids[b].level,
                   tuple((tuple(score), tuple(books), made) for score, books, made in row))
            self.same[(dside, b, nt)] = first.setdefault(sig, (dside, b, nt))
        # GameValues.expected's memo keys: per declaring side, bid and strain kind, the
        # number of the row that stands for it (rows scoring alike share one), shifted
        # past any count of tenths of a book (the key adds them: an int, cheaper to
        # hash than a tuple; the offset keeps a negative count inside its own row's range).
        numbers: dict = {}
        self.ids = [[[0, 0] for _ in rules.bids] for _ in range(rules.sides)]
        for (dside, b, nt), canon in self.same.items():
            self.ids[dside][b][nt] = (numbers.setdefault(canon, len(numbers)) << 20) + (1 << 19)
        self._weights: dict[tuple[int, int], tuple[int, int, list[float]]] = {}
        # The weighted sums of a row's values (GameValues.expected), per row content:
        # positions of different games and scores often value the results alike (the
        # same lead, the same ends), and share their sums (see sums_for).
        self._by_content: dict[tuple[float, ...], dict[int, float]] = {}
        # Values that depend on the game only through what its end test reads
        # (GameView.key): shared by every hand of the process that starts from the same
        # position, as each game's first hand at 0-0 does.
        self.memo: dict = {}

    def weights(self, info: RulesInfo, tenths: int, nt: int) -> tuple[int, int, list[float]]:
        """``info.weights(tenths / 10, nt)`` as (first book count, one past the last, weights),
        kept per tenth and strain kind (notrump's books spread wider, as the plain values say).

        The book counts are one unbroken run: the weights fall away on both sides of
        the mean, and only the small ones are left out.  So a row's values are read as
        a slice, in the same order as the weights."""
        found = self._weights.get((tenths, nt))
        if found is None:
            w = info.weights(tenths / 10, nt)
            ks = [k for k, _ in w]
            assert ks == list(range(ks[0], ks[-1] + 1)), "book counts with a gap"
            found = self._weights[(tenths, nt)] = (ks[0], ks[-1] + 1, [x for _, x in w])
        return found

    def sums_for(self, row: list[float]) -> dict[int, float]:
        """The memo of ``row``'s weighted sums (keyed by ``2 * tenths + nt``), shared by
        every row of the same values (emptied when it grows past a bound).

        Two rows of equal values give equal sums: zeros of either sign add nothing to a
        sum that starts from (positive) zero, and a tuple compares them equal."""
        content = tuple(row)
        found = self._by_content.get(content)
        if found is None:
            if len(self._by_content) > _MEMO_LIMIT:
                self._by_content.clear()
            found = self._by_content[content] = {}
        return found

    def memo_for(self, key) -> dict:
        """The shared memo of one game position (emptied when it grows past a bound)."""
        memo = self.memo
        got = memo.get(key)
        if got is None:
            if len(memo) > _MEMO_LIMIT:
                memo.clear()
            got = memo[key] = {}
        return got


_TABLES: dict[int, ResultTable] = {}


def result_table(state: HandState, info: RulesInfo) -> ResultTable:
    """The :class:`ResultTable` of ``state``'s ruleset (built once per ruleset)."""
    rules: Ruleset = state.rules
    table = _TABLES.get(id(rules))
    if table is None or table.rules is not rules:
        table = _TABLES[id(rules)] = ResultTable(state, info)
    return table


def _plain(state: HandState, info: RulesInfo) -> bool:
    """True when no result of this hand can end the game nor reach the clamp: the game
    then values every result by its points alone.  Asked once per game position."""
    view = state.game
    assert view is not None
    table = result_table(state, info)
    shared = table.memo_for(view.key(state.dealer))
    plain = shared.get("plain")
    if plain is None:
        low, high = table.low, table.high
        plain = not view.may_end(low, high)
        if plain:
            # Nor may any side's lead (or deficit) pass the clamp.
            totals = view.totals
            limit = _CLAMP * 2.0 * max(1, view.target)
            for side in range(len(totals)):
                others = [s for s in range(len(totals)) if s != side]
                if not others:
                    continue
                best = max(totals[o] + high[o] for o in others)
                worst = max(totals[o] + low[o] for o in others)
                if totals[side] + high[side] - worst > limit or totals[side] + low[side] - best < -limit:
                    plain = False
        shared["plain"] = plain
    return plain


class GameValues:
    """The game-aware expected values of one seat's contracts in one hand of a game."""

    def __init__(self, state: HandState, info: RulesInfo, seat: int):
        rules = state.rules
        self.info = info
        view = state.game
        assert view is not None  # game_values makes one only for a hand of a game
        self.view = view
        self.table = result_table(state, info)
        self.seat = seat
        self.side = rules.side_of[seat]
        self.dealer = state.dealer
        # Who would declare: this seat for our contracts, the opponent holding the high
        # bid (else the next opponent) for theirs.  Only their side and the tie-breaks use it.
        opponents = info.opponents[seat]
        high = state.high_seat
        self.declarers = (seat, high if high in opponents else (opponents[0] if opponents else seat))
        self._dsides = (rules.side_of[self.declarers[0]], rules.side_of[self.declarers[1]])
        self.scale = 2.0 * max(1, self.view.target)
        self.totals = self.view.totals
        self.now = self._position(self.totals, None)
        # Rows depend on the declaring side, the bid and the strain kind only: shared by
        # every seat's calls in the hand (per side of the seat asking).
        shared = self.table.memo_for(view.key(state.dealer))
        self._rows: dict = shared.setdefault(("rows", self.side), {})
        self._eu: dict = shared.setdefault(("eu", self.side), {})
        # Per row (by its number in ResultTable.ids): the memo of its weighted sums.
        self._sums: dict = shared.setdefault(("sums", self.side), {})
        self._ids = (self.table.ids[self._dsides[0]], self.table.ids[self._dsides[1]])
        # The winners after each result do not depend on the side asking: shared by both.
        self._won: dict = shared.setdefault("winners", {})
        # Two sides: the other side's rows are ours negated (see row), shared the same way.
        self._rows_other: dict | None = (shared.setdefault(("rows", 1 - self.side), {})
                                         if len(self.totals) == 2 and info.util is not None else None)

    def _position(self, totals: list[int], winner: int | None) -> float:
        """The value of a position for our side: +1 won, -1 lost, else the clamped score difference."""
        if winner is not None:
            return 1.0 if winner == self.side else -1.0
        ours = totals[self.side]
        others = max((t for s, t in enumerate(totals) if s != self.side), default=0)
        return max(-_CLAMP, min(_CLAMP, (ours - others) / self.scale))

    def row(self, table: int, bid: int, nt: int) -> list[float]:
        """Per book count of the declaring side: the change of our position's value, in points."""
        key = (self._dsides[table], bid, nt)
        row = self._rows.get(key)
        if row is not None:
            return row
        same = self.table.same[key]
        if same != key:
            # A row whose results score alike (an uptown and a downtown bid of one level):
            # every value below comes out the same, so the first such row is used.
            row = self._rows.get(same)
            if row is None:
                row = self.row(table, same[1], same[2])
            self._rows[key] = row
            return row
        other = self._rows_other
        if other is not None:
            theirs = other.get(key)
            if theirs is not None:
                # Two sides: every value below is the other side's negated exactly (its
                # lead, its plain points and its position are ours negated, the clamp and
                # the ends symmetric; IEEE negation, subtraction and products keep the
                # sign symmetry), except that a zero stays +0.0 as the loop computes it.
                row = self._rows[key] = [-x if x else 0.0 for x in theirs]
                return row
        results = self.table.rows[key]
        winners = self._won.get(same)
        if winners is None:
            # Decided result by result (memoised by the totals after each): asking first
            # whether the row's whole range can end the game (GameView.may_end) gave the
            # same answers but said yes for 96% of rows in whole games of the base game,
            # at more cost than it saved.
            winners = self._won[same] = self.view.winners_after(results, self.declarers[table], same[1],
                                                                self.dealer)
        totals = self.totals
        if len(totals) == 2 and self.info.util is not None:
            # Two sides: a result that ends nothing and stays inside the clamp is worth its
            # score difference, which the plain score table already holds.
            plain = self.info.util[0 if key[0] == self.side else 1][bid][nt]
            lead = totals[self.side] - totals[1 - self.side]
            limit = _CLAMP * self.scale
        else:
            plain = None
        if (plain is not None and -limit <= lead + min(plain) and lead + max(plain) <= limit
                and winners.count(None) == len(winners)):
            # Nothing ends the game and every result stays inside the clamp (float
            # addition is monotone: the extremes decide): the plain row, as the loop gives it.
            row = self._rows[key] = list(plain)
            return row
        row = []
        side, scale, now = self.side, self.scale, self.now
        if plain is not None:
            # Two sides: the loop below, written for them (the same arithmetic: the best
            # other total is the one other side's).
            other = 1 - side
            ours, theirs = totals[side], totals[other]
            append = row.append
            for k, winner in enumerate(winners):
                if winner is None:
                    p = plain[k]
                    if -limit <= lead + p <= limit:
                        append(p)
                        continue
                    score = results[k][0]
                    position = max(-_CLAMP, min(_CLAMP, (ours + score[side] - (theirs + score[other])) / scale))
                else:
                    position = 1.0 if winner == side else -1.0
                append((position - now) * scale)
            self._rows[key] = row
            return row
        others = [s for s in range(len(totals)) if s != side]
        for k, ((score, _, _), winner) in enumerate(zip(results, winners)):
            if plain is not None and winner is None and -limit <= lead + plain[k] <= limit:
                row.append(plain[k])
                continue
            # self._position of the totals after the result, written out (the same arithmetic).
            if winner is not None:
                position = 1.0 if winner == side else -1.0
            else:
                best = max((totals[s] + score[s] for s in others), default=0)
                position = max(-_CLAMP, min(_CLAMP, (totals[side] + score[side] - best) / scale))
            row.append((position - now) * scale)
        self._rows[key] = row
        return row

    def expected(self, table: int, bid: int, nt: int, books: float) -> float:
        """As :meth:`RulesInfo.expected` (``table`` 0: we declare, 1: they do), with the game counted."""
        tenths = int(books * 10 + 0.5)
        # Bids whose rows are one (ResultTable.same) share their values too.
        number = self._ids[table][bid][nt]
        key = number + tenths
        v = self._eu.get(key)
        if v is None:
            v = self._eu[key] = self._weighted(table, bid, nt, number, tenths)
        return v

    def _weighted(self, table: int, bid: int, nt: int, number: int, tenths: int) -> float:
        """The weighted sum of row ``number`` (``self.row(table, bid, nt)``) over the spread
        of books around ``tenths`` tenths: the value :meth:`expected` memoises."""
        got = self._sums.get(number)
        if got is None:
            row = self.row(table, bid, nt)
            got = self._sums[number] = (row, self.table.sums_for(row))
        row, sums = got
        wkey = 2 * tenths + nt
        v = sums.get(wkey)
        if v is None:
            k0, k1, ws = self.table.weights(self.info, tenths, nt)
            v = sums[wkey] = sum(map(mul, ws, row[k0:k1]))
        return v

    def expected_bids(self, nt: int, books: float, strain: int, allowed: frozenset[int]) -> dict[int, float]:
        """``{bid: self.expected(0, bid, nt, books)}`` for ``strain``'s bids in ``allowed``
        (the same values, kept per position for the calls that ask again)."""
        key = ("bids", self._dsides[0], nt, int(books * 10 + 0.5), strain, allowed)
        found = self._eu.get(key)
        if found is None:
            expected = self.expected
            found = self._eu[key] = {b: expected(0, b, nt, books) for b in self.info.strain_bids[strain]
                                     if b in allowed}
        return found

    def best_of(self, nt: int, books: float, strain: int, allowed: frozenset[int],
                tolerance: float) -> tuple[int, float]:
        """As :meth:`RulesInfo.best_of`: the best of ``strain``'s allowed bids (the highest of
        those within ``tolerance``) and its value, or (-1, 0.0)."""
        bids = [b for b in self.info.strain_bids[strain] if b in allowed]
        if not bids:
            return -1, 0.0
        key = ("best", nt, int(books * 10 + 0.5), strain, allowed, tolerance)
        found = self._eu.get(key)
        if found is None:
            values = {b: self.expected(0, b, nt, books) for b in bids}
            best = max(values.values())
            b = max(b for b in bids if values[b] >= best - tolerance)
            found = self._eu[key] = (b, values[b])
        return found


def game_values(state: HandState, info: RulesInfo, seat: int) -> GameValues | None:
    """The game-aware values for ``seat`` in ``state``, or None where the hand's plain
    points say the same: a hand played outside a game, or one no result of which can
    end the game (nor reach the clamp)."""
    view = state.game
    if view is None:
        return None
    cache = view.cache
    # One per seat and opposing declarer in a hand (the high bid changes who that is).
    key = ("values", seat, state.high_seat)
    values = cache.get(key)
    if values is None:
        plain = cache.get("plain")
        if plain is None:  # the same for every call of the hand
            plain = cache["plain"] = _plain(state, info)
        if plain:
            return None
        values = cache[key] = GameValues(state, info, seat)
    return values
