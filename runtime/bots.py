"""Bots: players that choose an action from a state's legal actions.

A bot is any object with a ``name`` and ``choose(state) -> action`` (plus a generator
it owns), so the simulation driver, the terminal and the benchmarks can seat any mix
of them.  ``make_bot(name, rng)`` builds one from the registry ``BOTS``:

``random``
    uniform over the legal actions.
``heuristic``
    estimates the tricks its hand takes under every contract the ladder offers
    (from the variant's play tables alone), values each bid with the variant's own
    scoring formulas, and plays by rules of thumb that track the cards played.
``sampler``
    determinised Monte Carlo: deals the unseen cards in ways consistent with what
    the seat has seen, plays every candidate action out in each deal and takes the
    best on average.

No bot knows a variant by name; everything comes from the :class:`Ruleset`.  Bots
only use what their seat may know (the information of ``state.observation(seat)``):
their own hand, the calls, the contract, the cards played, the kitty when it was
shown, their own discards when they declared, and cards out of play.  They never
read another seat's hand.
"""

from __future__ import annotations

import math
import random
import sys
from itertools import accumulate
from operator import getitem, sub

from .hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, PLAY, HandState
from .ruleset import NO_SUIT, NO_TRUMP, Ruleset

__all__ = ["BOTS", "HeuristicBot", "RandomBot", "SamplerBot", "make_bot"]


class RandomBot:
    """Chooses uniformly among the legal actions."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state) -> int:
        """A uniformly random legal action of ``state``."""
        return self.rng.choice(state.legal_actions())


# ---------------------------------------------------------------------------
# Per-ruleset knowledge, computed once and shared by every bot of the process.
# ---------------------------------------------------------------------------

# Kinds of suit for the trick estimate.
_SIDE, _NT, _TRUMP = 0, 1, 2
# Chance that a card with this many higher cards outstanding wins a trick (when it
# has enough small cards with it to wait for them to fall).
_P_MISSING = (1.0, 0.5, 0.22, 0.06)
# In a trump contract, side-suit winners of later rounds get ruffed: the weight of a
# top card by the round in which it is cashed.
_SIDE_ROUND = (1.0, 0.9, 0.6, 0.3, 0.12, 0.05)
# Trumps: the longest other holding is about this share of the trumps out; long
# trumps beyond it are worth this much each.
_TRUMP_OTHERS = 0.35
_TRUMP_LONG = 1.0
# Ruffs: trumps beyond this many ruff short side suits, worth this much a ruff.
_RUFF_KEEP = 2
_RUFF = 0.8
# Spread (the sigma of a normal curve, in books) of the declaring side's books around the
# estimate; calibrated on heuristic self-play.
_BOOKS_SD = 1.9
# The margin by which a bid must beat passing: bidding is the riskier call.
_BID_MARGIN = 0.3
# Bids worth this little less than the best are as good: the highest of them is bid.
_PREEMPT_TOLERANCE = 0.15
# A hand whose every other call is worth less than this calls a redeal where it may
# (a redeal is worth nothing either way).
_REDEAL_MARGIN = 0.1


def _suit_value(size: int, mask: int, kind: int) -> float:
    """Expected tricks from one holding: bit ``r`` of ``mask`` set = I hold the card ranked ``r``.

    Rank 0 is the top card of the suit (under the contract's powers) and ``size`` the
    number of cards the suit has.  Top cards count by how many higher cards are
    outstanding; long suits add tricks once the others' cards are exhausted (in no
    trump and in the trump suit).
    """
    held = [r for r in range(size) if mask >> r & 1]
    length = len(held)
    tricks = 0.0
    counted = 0
    for i, r in enumerate(held):
        missing = r - i
        if missing >= len(_P_MISSING) or (missing and length <= r):
            continue  # too many higher cards out, or too short to wait for them
        p = _P_MISSING[missing]
        if kind == _SIDE:
            p *= _SIDE_ROUND[i] if i < len(_SIDE_ROUND) else 0.0
        tricks += p
        counted += 1
    if kind != _SIDE and length >= 3:
        # The others hold size - length cards, the longest of their hands a share of
        # them (less of the trumps: a partner's trumps help draw them).
        longest_other = (size - length) * (_TRUMP_OTHERS if kind == _TRUMP else 0.45)
        long_cards = length - max(longest_other, counted)
        if long_cards > 0:
            if kind == _TRUMP:
                tricks += _TRUMP_LONG * long_cards
            else:
                tricks += (0.7 if counted else 0.35) * long_cards
    return tricks


# Holdings are valued by their top cards exactly and the rest by their number: the
# exact ranks of small cards hardly change the estimate, and the memo of holding
# values stays small (a few hundred entries per kind of suit instead of thousands).
_EXACT_TOP = 6


def _canonical(mask: int) -> int:
    """The holding with its small cards moved up to just below the exact top ranks."""
    top = mask & ((1 << _EXACT_TOP) - 1)
    small = (mask >> _EXACT_TOP).bit_count()
    return top | (((1 << small) - 1) << _EXACT_TOP)


_VALUES: dict[int, list[float]] = {}


def _value_table(tag: int) -> list[float]:
    """``_suit_value`` of every holding of a suit (``tag`` = size << 2 | kind)."""
    table = _VALUES.get(tag)
    if table is None:
        size, kind = tag >> 2, tag & 3
        by_canon = {}
        table = []
        for m in range(1 << size):
            c = _canonical(m)
            v = by_canon.get(c)
            if v is None:
                v = by_canon[c] = _suit_value(size, c, kind)
            table.append(v)
        _VALUES[tag] = table
    return table


class _TableInfo:
    """One play table, rearranged for the bots: per effective suit, cards by power."""

    __slots__ = ("table", "key", "trump", "suit_of", "power", "suits", "sidx", "bit", "rank",
                 "desc", "size", "kinds", "win_key", "trump_idx", "wk_led", "free", "above",
                 "suit_mask")

    def __init__(self, key, table):
        self.table = table
        self.key = key
        self.trump = table.trump
        self.suit_of = table.suit_of
        self.power = table.power
        suits = sorted({s for s in table.suit_of if s != NO_SUIT})
        self.suits = suits
        n = len(table.suit_of)
        self.sidx = [-1] * n
        self.rank = [99] * n
        self.bit = [0] * n
        self.desc = {}
        for i, s in enumerate(suits):
            cards = sorted((c for c in range(n) if table.suit_of[c] == s), key=lambda c: -table.power[c])
            self.desc[s] = cards
            for r, c in enumerate(cards):
                self.sidx[c] = i
                self.rank[c] = r
                self.bit[c] = 1 << r
        self.size = [len(self.desc[s]) for s in suits]
        if table.trump == NO_TRUMP:
            self.kinds = [_NT] * len(suits)
        else:
            self.kinds = [_TRUMP if s == table.trump else _SIDE for s in suits]
        self.trump_idx = suits.index(table.trump) if table.trump in suits else -1
        # The strength of a card in a trick, once the suit led is known: trumps over all.
        self.win_key = [(p + 10000 if s == table.trump else p) if s != NO_SUIT else -1
                        for s, p in zip(table.suit_of, table.power)]
        # Per suit led: each card's strength in the trick (-1 for a card that cannot win).
        self.wk_led = {led: [k if s == led or s == table.trump else -1
                             for s, k in zip(table.suit_of, self.win_key)] for led in suits}
        self.free = table.free_no_suit
        # Bit masks (bit c = card c): each suit's cards, and the cards above each card
        # in its suit.  "Is it the best left?" is then one AND with the unseen cards.
        self.suit_mask = {s: sum(1 << c for c in self.desc[s]) for s in suits}
        self.above = [0] * n
        for s in suits:
            mask = 0
            for c in self.desc[s]:
                self.above[c] = mask
                mask |= 1 << c


class _RulesInfo:
    """What the bots precompute for a ruleset: tables, the ladder by strain, score tables."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        n = rules.players
        self.tables = {key: _TableInfo(key, t) for key, t in rules.tables.items()}
        self.table_list = list(self.tables.values())
        self.table_keys = [ti.key for ti in self.table_list]
        self.nones = [None] * len(self.table_list)
        self.partners = [[o for o in range(n) if o != s and rules.side_of[o] == rules.side_of[s]]
                         for s in range(n)]
        self.opponents = [[o for o in range(n) if rules.side_of[o] != rules.side_of[s]] for s in range(n)]
        self.full_mask = (1 << rules.n_cards) - 1
        self.refuse = rules.renege == "refuse"
        # later[seat][k]: the opponents who play after ``seat`` when k cards are on the table.
        self.later = [[[(s + i) % n for i in range(1, n - k) if (s + i) % n not in self.partners[s]]
                       for k in range(n)] for s in range(n)]
        while len(_BIT) < rules.n_cards:  # a deck larger than any shipped one
            _BIT.append(1 << len(_BIT))
        self.tricks = rules.hand_size  # tricks in a hand: each plays hand_size cards
        book_of_discards = 1 if rules.kitty_size and rules.discards_book != "none" else 0
        self.total_books = self.tricks + book_of_discards
        # What the kitty is worth to the declarer before it is seen: more cards to pick
        # from, short suits to void, and (where it says so) the discards' book.
        self.kitty_bonus = 0.3 * rules.kitty_size
        if rules.kitty_size and rules.discards_book == "declarer":
            self.declarer_book = 1.0
        elif rules.kitty_size and rules.discards_book == "first-trick":
            self.declarer_book = 0.6  # the declarer leads to it
        else:
            self.declarer_book = 0.0
        # The contracts each strain lets the declarer choose from, notrump and suit apart.
        suits = range(len(rules.suits))
        self.strain_keys = []
        for strain in rules.strains:
            keys = []
            if strain.trump in ("suit", "suit-or-none", "none-or-first-lead"):
                keys += [(t, d) for t in suits for d in strain.directions]
            if strain.trump in ("none", "suit-or-none", "none-or-first-lead"):
                keys += [(NO_TRUMP, d) for d in strain.directions]
            self.strain_keys.append([k for k in keys if k in rules.tables])
        index = {ti.key: i for i, ti in enumerate(self.table_list)}
        self.table_index = index
        # Per strain: the table indices of its suit contracts and of its notrump ones.
        self.strain_tables = [([index[k] for k in keys if k[0] != NO_TRUMP],
                               [index[k] for k in keys if k[0] == NO_TRUMP])
                              for keys in self.strain_keys]
        self.strain_bids = [[b for b, bid in enumerate(rules.bids) if bid.strain == s]
                            for s in range(len(rules.strains))]
        self.strain_nt_tables = [(s, nt, idx) for s, pair in enumerate(self.strain_tables)
                                 for nt, idx in enumerate(pair) if idx]
        self.suit_tables = [i for i, ti in enumerate(self.table_list) if ti.trump != NO_TRUMP] or \
            list(range(len(self.table_list)))
        # Action ids, read on every call (the Ruleset derives them each time).
        self.first_bid = rules.first_bid_action
        self.n_bids = len(rules.bids)
        self.pass_action = rules.pass_action
        self.take_action = rules.take_action
        self.redeal_action = rules.redeal_action
        self.bid_strain = [b.strain for b in rules.bids]
        self.bid_rank = [b.rank for b in rules.bids]
        self.util = None  # score tables, built from the first state that needs them
        self._eu = {}
        self._rows = {}
        self._best = {}
        self._weights = {}
        self._build_slots()

    def _build_slots(self) -> None:
        """Share the suit holdings of all tables: one "slot" per distinct (cards, kind).

        A side suit is the same under each other trump, so a hand is split into slots
        once and every table's estimate adds up the values of its slots.
        """
        slot_ids = {}
        self.slot_tag = []  # memo tag of each slot: (size << 2) | kind
        per_card = [[] for _ in range(self.rules.n_cards)]
        self.table_slots = []  # per table: (slot ids, trump slot id or -1)
        for ti in self.table_list:
            ids = []
            trump_slot = -1
            for i, s in enumerate(ti.suits):
                cards = tuple(ti.desc[s])
                ident = (cards, ti.kinds[i])
                j = slot_ids.get(ident)
                if j is None:
                    j = slot_ids[ident] = len(self.slot_tag)
                    self.slot_tag.append((len(cards) << 2) | ti.kinds[i])
                    for r, c in enumerate(cards):
                        per_card[c].append((j, 1 << r))
                ids.append(j)
                if i == ti.trump_idx:
                    trump_slot = j
            self.table_slots.append((ids, trump_slot))
        self.per_card = [tuple(x) for x in per_card]
        self.n_slots = len(self.slot_tag)
        # Every slot's holding packed into one integer, 16 bits a slot (32 for suits
        # longer than 16): a hand's holdings are then the sum of its cards' numbers
        # (no two cards share a bit), unpacked in one go by a memoryview cast.
        width = 16 if max(tag >> 2 for tag in self.slot_tag) <= 16 else 32
        self.slot_format = "H" if width == 16 else "I"
        self.packed = [sum(b << (width * j) for j, b in x) for x in per_card]
        self.n_bytes = width // 8 * self.n_slots
        # Suits of at most 16 cards: the value of every holding, tabulated once per
        # process for each (size, kind).  Longer suits: a memo of canonical holdings.
        self.slot_values = [_value_table(tag) for tag in self.slot_tag] if width == 16 else None
        # One memo per kind of slot (same size and kind): holding mask -> tricks.
        by_tag = {}
        self.slot_memo = [by_tag.setdefault(tag, {}) for tag in self.slot_tag]
        self.table_ids = [ids for ids, _ in self.table_slots]
        self.flat_ids = [j for ids in self.table_ids for j in ids]
        self.table_starts, self.table_ends = [], []
        for ids in self.table_ids:
            self.table_starts.append(self.table_ends[-1] if self.table_ends else 0)
            self.table_ends.append(self.table_starts[-1] + len(ids))
        self.table_ruff = [(i, t, tuple(j for j in ids if j != t))
                           for i, (ids, t) in enumerate(self.table_slots) if t >= 0]

    def estimate_all(self, hand) -> list[float]:
        """Tricks ``hand`` should take by itself under each table of ``table_list``."""
        packed = self.packed
        combined = sum(map(packed.__getitem__, hand))
        # The 16-bit holdings of every slot, unpacked in C.
        masks = memoryview(combined.to_bytes(self.n_bytes, sys.byteorder)).cast(self.slot_format).tolist()
        if self.slot_values is not None:
            vals = list(map(getitem, self.slot_values, masks))  # every holding's value, tabulated
        else:
            masks = list(map(_canonical, masks))
            vals = list(map(dict.get, self.slot_memo, masks))
            if None in vals:
                for j, v in enumerate(vals):
                    if v is None:
                        tag = self.slot_tag[j]
                        vals[j] = self.slot_memo[j][masks[j]] = _suit_value(tag >> 2, masks[j], tag & 3)
        # Each table's total, in C: running sums over its slots laid end to end.
        acc = [0.0]
        acc += accumulate(map(vals.__getitem__, self.flat_ids))
        get = acc.__getitem__
        out = list(map(sub, map(get, self.table_ends), map(get, self.table_starts)))
        # Ruffs: short side suits with trumps to spare (beyond three to draw with).
        lens = list(map(int.bit_count, masks))
        short = None
        for i, t, sides in self.table_ruff:
            spare = lens[t] - _RUFF_KEEP
            if spare > 0:
                if short is None:
                    short = [2 - n if n < 2 else 0 for n in lens].__getitem__
                n = sum(map(short, sides))
                out[i] += _RUFF * (n if n < spare else spare)
        return out

    # --- scoring ---------------------------------------------------------------
    def ensure_util(self, state: HandState) -> None:
        """Tabulate the variant's scoring for every bid, strain kind and book count.

        ``decl[b][nt][k]``: the declaring side's score minus the others' mean when it
        takes ``k`` books in bid ``b``; ``defn[...]``: the same for a defending side;
        ``made[b][nt][k]``.  ``score_books`` is run on a scratch clone (it sets ``made``).
        """
        if self.util is not None:
            return
        rules = self.rules
        scratch = state.clone()
        scratch.reneges = []
        scratch.declarer = 0
        side = rules.side_of[0]
        others = [s for s in range(rules.sides) if s != side]
        total = self.total_books
        decl, defn, made = [], [], []
        for b in range(len(rules.bids)):
            scratch.bid = b
            row_d, row_f, row_m = [], [], []
            for nt in (0, 1):
                scratch.trump = NO_TRUMP if nt else 0
                du, fu, mu = [], [], []
                for k in range(total + 1):
                    books = [0] * rules.sides
                    books[side] = k
                    rest = total - k
                    for i, o in enumerate(others):  # defenders share the rest evenly
                        books[o] = rest // len(others) + (1 if i < rest % len(others) else 0)
                    score = scratch.score_books(books)
                    mu.append(bool(scratch.made))
                    mine = score[side]
                    du.append(mine - sum(score[o] for o in others) / len(others))
                    if others:
                        o = others[0]
                        rest_sides = [s for s in range(rules.sides) if s != o]
                        fu.append(score[o] - sum(score[s] for s in rest_sides) / len(rest_sides))
                    else:
                        fu.append(0.0)
                row_d.append(du)
                row_f.append(fu)
                row_m.append(mu)
            decl.append(row_d)
            defn.append(row_f)
            made.append(row_m)
        self.util = (decl, defn, made)
        self.needed = [[next((k for k in range(total + 1) if made[b][nt][k]), total + 1)
                        for nt in (0, 1)] for b in range(len(rules.bids))]

    def best_of(self, nt: int, books: float, strain: int, lo: int) -> tuple[int, float]:
        """(bid, expected utility) of the best bid of ``strain`` from ladder index ``lo`` up."""
        key = (nt, int(books * 10 + 0.5), strain, lo)
        found = self._best.get(key)
        if found is None:
            row = self.eu_row(0, nt, books)
            bids = [b for b in self.strain_bids[strain] if b >= lo]
            if bids:
                best = max(row[b] for b in bids)
                # The highest bid that is (nearly) as good: it keeps others from
                # overcalling at no cost (where overtricks score, a hand sure of its
                # books loses nothing by bidding them).
                b = max(b for b in bids if row[b] >= best - _PREEMPT_TOLERANCE)
                found = (b, row[b])
            else:
                found = (-1, 0.0)
            self._best[key] = found
        return found

    def eu_row(self, table: int, nt: int, books: float) -> list[float]:
        """Expected utility of every bid of the ladder with ``books`` expected books."""
        key = (table, nt, int(books * 10 + 0.5))
        row = self._rows.get(key)
        if row is None:
            w = self.weights(key[2] / 10)
            row = [sum(x * u[nt][k] for k, x in w) for u in self.util[table]]
            self._rows[key] = row
        return row

    def weights(self, mean: float):
        """Discrete distribution of the declaring side's books around ``mean``."""
        key = int(round(mean * 10))
        w = self._weights.get(key)
        if w is None:
            m = key / 10
            total = self.total_books
            # A hand expected to take (nearly) everything is sure of most of it: the
            # spread narrows as the estimate passes the books there are.
            sd = _BOOKS_SD * min(1.0, max(0.35, (total + 1 - m) / 3))
            raw = [(k, math.exp(-((k - m) ** 2) / (2 * sd ** 2))) for k in range(total + 1)]
            s = sum(x for _, x in raw)
            w = [(k, x / s) for k, x in raw if x / s > 1e-3]
            self._weights[key] = w
        return w

    def expected(self, table: int, bid: int, nt: int, books: float) -> float:
        """Expected utility (score difference) of a contract with ``books`` expected books.

        ``table`` 0: for the declaring side; 1: for a defending side.
        """
        key = (((table << 8) | bid) << 1 | nt) << 12 | int(books * 10 + 0.5)
        v = self._eu.get(key)
        if v is None:
            row = self.util[table][bid][nt]
            v = sum(w * row[k] for k, w in self.weights(int(books * 10 + 0.5) / 10))
            self._eu[key] = v
        return v

    # --- trick estimates -------------------------------------------------------
    def estimate(self, ti: _TableInfo, hand) -> float:
        """Tricks ``hand`` should take by itself under the table ``ti``.

        The plain statement of the estimate, one table at a time; the bots use
        :meth:`estimate_all`, which gives the same numbers for every table at once
        (the tests hold the two equal).
        """
        sidx = ti.sidx
        bit = ti.bit
        nsuits = len(ti.suits)
        masks = [0] * nsuits
        for c in hand:
            s = sidx[c]
            if s >= 0:
                masks[s] |= bit[c]
        size = ti.size
        kinds = ti.kinds
        total = 0.0
        for i in range(nsuits):
            total += _suit_value(size[i], _canonical(masks[i]), kinds[i])
        t = ti.trump_idx
        if t >= 0:
            # Ruffs: short side suits with trumps to spare.
            spare = masks[t].bit_count() - _RUFF_KEEP
            if spare > 0:
                short = 0
                for i in range(nsuits):
                    if i != t:
                        ln = masks[i].bit_count()
                        if ln < 2:
                            short += 2 - ln
                total += _RUFF * min(short, spare)
        return total


_INFO: dict[int, _RulesInfo] = {}


def _info(rules: Ruleset) -> _RulesInfo:
    """The shared precomputation for ``rules`` (keyed by identity: rulesets are frozen)."""
    info = _INFO.get(id(rules))
    if info is None or info.rules is not rules:
        info = _INFO[id(rules)] = _RulesInfo(rules)
    return info


_BIT = [1 << c for c in range(256)]  # card id -> its bit in a card mask


def _mask(cards) -> int:
    """The bit mask of a collection of card ids."""
    return sum(map(_BIT.__getitem__, cards))


class _Track:
    """Public knowledge of the play so far: cards played and suits each seat showed out of.

    Updated trick by trick; rebuilt when it is asked about a different hand (or a
    different line of play of the same deal, as in the sampler's playouts).
    """

    __slots__ = ("dealt", "table", "done", "last", "played", "void", "own", "masks")

    def __init__(self):
        self.dealt = None
        self.table = None
        self.done = -1
        self.last = None

    def mask_of(self, what: str, cards: list[int]) -> int:
        """The mask of the cards out of play or the discards: fixed once play begins."""
        got = self.masks.get(what)
        if got is None:
            got = self.masks[what] = _mask(cards)
        return got

    def sync(self, state: HandState, players: int) -> "_Track":
        tricks = state.tricks
        done = len(tricks)
        if done == self.done and self.dealt is state.dealt and self.table is state.table and (
                not done or tricks[-1] is self.last):
            return self  # nothing new since the last look
        if (self.dealt is not state.dealt or self.table is not state.table or done < self.done
                or (self.done and tricks[self.done - 1] is not self.last)):
            self.dealt = state.dealt
            self.table = state.table
            self.done = 0
            self.played = 0
            self.void = [0] * players
            self.own = {}  # seat -> mask of the cards it held when it first played
            self.masks = {}
        if done > self.done:
            table = self.table
            suit_of = table.suit_of
            free = table.free_no_suit
            played = self.played
            void = self.void
            for leader, cards, _ in tricks[self.done:]:
                led = NO_SUIT
                for i, c in enumerate(cards):
                    played |= _BIT[c]
                    s = suit_of[c]
                    if led == NO_SUIT:
                        led = s
                    elif s != led and not (free and s == NO_SUIT):
                        void[(leader + i) % players] |= 1 << led
            self.played = played
            self.done = done
            self.last = tricks[-1]
        return self


def _suit_word(rules: Ruleset, suit: int) -> str:
    return "notrump" if suit == NO_TRUMP else rules.suit_names[suit].lower()


# ---------------------------------------------------------------------------
# The heuristic bot.
# ---------------------------------------------------------------------------

class HeuristicBot:
    """Rules of thumb driven by the variant's tables and scoring.

    *Bidding*: for every contract the ladder offers (each trump and direction a
    strain lets the declarer name) it estimates the books its side takes — its own
    hand's tricks from the play table's powers (top cards, length, trumps, ruffs),
    an average share of its partners' tricks, the kitty and the discards' book —
    and values each legal bid by the variant's scoring formulas over a spread of
    book counts.  It bids the best one when that beats passing (the opponents
    declaring against it, or the hand falling to a forced dealer), takes or calls a
    redeal the same way.
    *Declaring*: the trump and direction with the best expected score; a trump by
    first lead is named by leading its top card.
    *Discards*: cards that cannot win first, then the small cards of short side suits
    (voids to ruff with), keeping trumps and winners.
    *Play*: cashes sure winners, draws trumps when strong, wins as cheaply as it can,
    does not overtake a partner who is winning safely, ruffs when void, and throws
    its least useful card otherwise; it tracks the cards played and the voids shown.

    Deterministic: the generator is kept for the registry's interface only.
    ``explain(state)`` gives the action with a one-line reason; ``choose`` is its first half.
    """

    name = "heuristic"

    def __init__(self, rng: random.Random | None = None):
        self.rng = rng
        self._track = _Track()
        self._est_dealt = None
        self._est = {}
        self._plan = None
        self._table = None  # (play table, rules, their info, the table's info) of the last play

    def choose(self, state: HandState) -> int:
        """The action the heuristic takes in ``state`` (for the seat to move)."""
        if state.phase == PLAY and state.table is not None:  # the hot path
            legal = state.legal_actions()
            if len(legal) == 1:
                return legal[0]
            return self._play(state, legal, False)[0]
        return self._decide(state, False)[0]

    def explain(self, state: HandState) -> tuple[int, str]:
        """The action and a one-line reason in words, e.g. ``play QH: cheapest card that beats the JH``."""
        return self._decide(state, True)

    # ------------------------------------------------------------------ dispatch
    def _decide(self, state: HandState, why: bool):
        legal = state.legal_actions()
        phase = state.phase
        rules = state.rules
        if len(legal) == 1 and phase == PLAY:
            return legal[0], (f"play {rules.cards[legal[0]]}: the only legal card" if why else "")
        if phase == PLAY:
            if state.table is None:
                return self._declare_by_lead(state, legal, why)
            return self._play(state, legal, why)
        if phase == AUCTION:
            return self._call(state, legal, why)
        if phase == DISCARD:
            return self._discard(state, legal, why)
        if phase == DECLARE_TRUMP:
            return self._declare_trump(state, legal, why)
        if phase == DECLARE_DIRECTION:
            return self._declare_direction(state, legal, why)
        return legal[0], "the only action"

    # ------------------------------------------------------------------ estimates
    def _estimates(self, state: HandState, seat: int, info: _RulesInfo):
        """(own tricks per table, own tricks with a kitty shown face up or None).

        Both lists follow ``info.table_list``; cached per seat and hand for the deal.
        """
        hand = state.hands[seat]
        # A kitty lying face up during the auction is part of what a bidder knows.
        kitty_known = state.kitty_seen and bool(state.kitty) and state.phase == AUCTION
        key = (seat, tuple(hand), kitty_known)
        if self._est_dealt is not state.dealt:
            self._est_dealt = state.dealt
            self._est = {}
        est = self._est.get(key)
        if est is not None:
            return est
        plain = info.estimate_all(hand)
        with_kitty = None
        if kitty_known:
            # What this hand would keep from the kitty as declarer: the estimate of all
            # the cards, scaled back to a hand's length.
            both = info.estimate_all(sorted(set(hand) | set(state.kitty)))
            scale = len(hand) / (len(hand) + len(state.kitty))
            with_kitty = [max(e, w * scale + 0.3) for e, w in zip(plain, both)]
        est = self._est[key] = (plain, with_kitty)
        return est

    def _declarer_books(self, info: _RulesInfo, own: float, seat_partners: int, partner_bonus: float,
                        kitty: bool, own_with_kitty: float | None = None) -> float:
        """Expected books of a side that declares, from its declarer's own estimate."""
        rules = info.rules
        if kitty and own_with_kitty is not None:
            base = own_with_kitty
        else:
            base = own + (info.kitty_bonus if kitty else 0.0)
        share = max(0.0, info.tricks - base) / (rules.players - 1)
        return base + seat_partners * (0.85 * share + partner_bonus) + (info.declarer_book if kitty else 0.0)

    # ------------------------------------------------------------------ auction
    def _call(self, state: HandState, legal: list[int], why: bool):
        rules = state.rules
        info = _info(rules)
        info.ensure_util(state)
        seat = state.seat
        est = self._estimates(state, seat, info)
        partners = info.partners[seat]
        npart = len(partners)
        first_bid = info.first_bid
        n_bids = info.n_bids
        # What partners said: a partner who bid is strong, one who passed is not.
        bonus = 0.0
        if npart:
            for s, a in state.calls:
                if s in partners:
                    if first_bid <= a < first_bid + n_bids or a == info.take_action:
                        bonus += 1.0
                    elif a == info.pass_action:
                        bonus -= 0.3
            bonus = min(bonus, 1.5)  # bidding again says little more
        # Best contract per strain, notrump and suit contracts apart (they score apart);
        # the books grow with the hand's own tricks, so the best hand estimate is enough.
        plain, with_kitty = est
        if with_kitty is None:
            bonus_k = info.kitty_bonus
            own_list = plain
        else:
            bonus_k = 0.0
            own_list = with_kitty
        get = own_list.__getitem__
        share_div = rules.players - 1
        tricks = info.tricks
        decl_book = info.declarer_book
        lo = n_bids
        for a in legal:
            if first_bid <= a < first_bid + n_bids:
                lo = a - first_bid
                break
        take = state.high_bid if info.take_action in legal else -1
        best_bid = None  # (value, action, books, table index, bid index)
        best_of = info.best_of
        bid_rank = info.bid_rank
        for s, nt, idx in info.strain_nt_tables:
            i = max(idx, key=get)
            base = own_list[i] + bonus_k
            share = tricks - base
            books = base + npart * ((0.85 * share / share_div if share > 0 else 0.0) + bonus) + decl_book
            b, v = best_of(nt, books, s, lo)
            if b >= 0 and (best_bid is None or v > best_bid[0] + _PREEMPT_TOLERANCE
                           or (v >= best_bid[0] - _PREEMPT_TOLERANCE and bid_rank[b] > bid_rank[best_bid[4]])):
                best_bid = (v, first_bid + b, books, i, b)
            if take >= 0 and info.bid_strain[take] == s:
                v = info.eu_row(0, nt, books)[take]
                if best_bid is None or v > best_bid[0]:
                    best_bid = (v, info.take_action, books, i, take)
        pass_value, pass_words = self._pass_value(state, info, est, npart, bonus)
        can_pass = info.pass_action in legal
        alternatives = []
        if can_pass:
            alternatives.append(pass_value)
        if best_bid is not None:
            alternatives.append(best_bid[0])
        if info.redeal_action in legal and (not alternatives or max(alternatives) < -_REDEAL_MARGIN):
            return info.redeal_action, (
                f"redeal: the hand is hopeless (best call worth {max(alternatives):+.1f})"
                if why and alternatives else "redeal: nothing better" if why else "")
        if best_bid is not None and (not can_pass or best_bid[0] > pass_value + _BID_MARGIN):
            value, action, books, i, b = best_bid
            key = info.table_list[i].key
            if not why:
                return action, ""
            text = rules.bids[b].text
            if action == info.take_action:
                text = f"take {text}"
            else:
                text = f"bid {text}"
            forced = "" if can_pass else " (must bid)"
            return action, (f"{text}{forced}: about {books:.1f} books expected "
                            f"{self._contract_words(rules, key)}, worth {value:+.1f}")
        if can_pass:
            if not why:
                return info.pass_action, ""
            if best_bid is None:
                return info.pass_action, "pass: no bid is left that outranks the high bid"
            return info.pass_action, (f"pass: the best bid, {rules.bids[best_bid[4]].text}, is worth "
                                      f"{best_bid[0]:+.1f} against {pass_value:+.1f} {pass_words}")
        return legal[0], "the only call left"

    def _pass_value(self, state: HandState, info: _RulesInfo, est: dict, npart: int, bonus: float):
        """What passing is worth: partner's contract, the opponents', or a forced dealer's."""
        rules = state.rules
        seat = state.seat
        partners = info.partners[seat]
        # Our books if the opponents declare: own tricks in an average contract + partners'.
        plain = est[0]
        own = sum(map(plain.__getitem__, info.suit_tables)) / len(info.suit_tables)
        share = max(0.0, info.tricks - own) / (rules.players - 1)
        ours = own + npart * share
        theirs = info.total_books - ours
        high = state.high_bid
        if high >= 0:
            lowest = high
        else:
            lowest = 0
        if high >= 0 and state.high_seat in partners:
            # Partner declares: our books from its bid (its estimate assumed an average
            # partner; ours is what we really hold).
            needed = info.needed[high][0]
            books = needed + 0.8 * (own - share)
            nt = 1 if rules.strains[rules.bids[high].strain].trump == "none" else 0
            return info.expected(0, high, nt, books), "with partner's contract"
        opp_value = info.expected(1, lowest, 0, theirs)
        if high >= 0:
            return opp_value, "defending the opponents' contract"
        if opp_value < 0:
            return opp_value, "if the opponents declare"
        # Nobody has bid and the opponents would not want it: the hand may pass out.
        rule = rules.if_all_pass
        if rule in ("redeal", "dealer-bids-or-redeal"):
            return 0.0, "if the hand is thrown in"
        dealer = state.dealer
        if dealer == seat or dealer in partners:
            books = self._declarer_books(info, own, npart, bonus, True)
            return 0.5 * info.expected(0, 0, 0, books), "if our dealer is forced to bid"
        return 0.5 * opp_value, "if their dealer is forced to bid"

    @staticmethod
    def _contract_words(rules: Ruleset, key) -> str:
        trump, direction = key
        where = "in notrump" if trump == NO_TRUMP else f"with {rules.suit_names[trump].lower()} trump"
        if len(rules.orders) > 1:
            where += f" {rules.orders[direction]}"
        return where

    # ------------------------------------------------------------------ declaring
    def _contract_choice(self, state: HandState, keys, kitty: bool):
        """(value, books, key) of the best contract among ``keys`` for the declarer's hand."""
        rules = state.rules
        info = _info(rules)
        info.ensure_util(state)
        seat = state.declarer if state.declarer >= 0 else state.seat
        npart = len(info.partners[seat])
        best = None
        plain = self._estimates(state, seat, info)[0]
        index = info.table_index
        for key in keys:
            own = plain[index[key]]
            books = self._declarer_books(info, own, npart, 0.0, kitty)
            if not kitty and state.discards and info.declarer_book:
                books += info.declarer_book  # the discards already made
            nt = 1 if key[0] == NO_TRUMP else 0
            v = info.expected(0, state.bid, nt, books)
            if best is None or (v, books) > best[:2]:  # equal values: the more books
                best = (v, books, key)
        return best

    def _declare_trump(self, state: HandState, legal: list[int], why: bool):
        rules = state.rules
        kitty = rules.declare_before_kitty and bool(rules.kitty_size)
        strain = rules.strains[rules.bids[state.bid].strain]
        dirs = [state.direction] if state.direction >= 0 else list(strain.directions)
        keys = []
        for a in legal:
            t = NO_TRUMP if a == rules.no_trump_action else a - rules.first_trump_action
            keys += [(t, d) for d in dirs if (t, d) in rules.tables]
        value, books, key = self._contract_choice(state, keys, kitty)
        action = rules.no_trump_action if key[0] == NO_TRUMP else rules.first_trump_action + key[0]
        if action not in legal:
            action = legal[0]
        return action, (f"{rules.action_names[action]}: about {books:.1f} books expected "
                        f"{self._contract_words(rules, key)}, worth {value:+.1f}" if why else "")

    def _declare_direction(self, state: HandState, legal: list[int], why: bool):
        rules = state.rules
        kitty = rules.declare_before_kitty and bool(rules.kitty_size) and not state.discards
        keys = [(state.trump, a - rules.first_direction_action) for a in legal]
        value, books, key = self._contract_choice(state, keys, kitty)
        action = rules.first_direction_action + key[1]
        return action, (f"{rules.action_names[action]}: about {books:.1f} books expected "
                        f"{self._contract_words(rules, key)}, worth {value:+.1f}" if why else "")

    def _declare_by_lead(self, state: HandState, legal: list[int], why: bool):
        """Notrump, or name trump by leading: lead the top card of the best suit."""
        rules = state.rules
        info = _info(rules)
        hand = state.hands[state.seat]
        held = {rules.card_suit[c] for c in hand if rules.card_suit[c] >= 0}
        keys = [(t, state.direction) for t in sorted(held)]
        if rules.no_trump_action in legal:
            keys.append((NO_TRUMP, state.direction))
        keys = [k for k in keys if k in rules.tables]
        value, books, key = self._contract_choice(state, keys, False)
        if key[0] == NO_TRUMP:
            return rules.no_trump_action, (f"notrump: about {books:.1f} books expected in notrump, "
                                           f"worth {value:+.1f}" if why else "")
        ti = info.tables[key]
        cards = [c for c in legal if c < rules.n_cards and ti.suit_of[c] == key[0]]
        card = min(cards, key=lambda c: ti.rank[c])
        return card, (f"lead {rules.cards[card]}: makes {_suit_word(rules, key[0])} trump, about "
                      f"{books:.1f} books expected, worth {value:+.1f}" if why else "")

    # ------------------------------------------------------------------ discards
    def _discard_table(self, state: HandState) -> _TableInfo:
        """The contract the discards are for: the one declared, or the one planned."""
        rules = state.rules
        info = _info(rules)
        if state.table is not None:
            return info.tables[(state.trump, state.direction)]
        strain = rules.strains[rules.bids[state.bid].strain]
        keys = info.strain_keys[rules.bids[state.bid].strain]
        if state.trump != NO_TRUMP or strain.trump == "none":
            keys = [k for k in keys if k[0] == state.trump] or keys
        if state.direction >= 0:
            keys = [k for k in keys if k[1] == state.direction] or keys
        # The declaration comes after the discards: plan each candidate contract's
        # discards, and keep the contract whose remaining hand is worth most.
        info.ensure_util(state)
        seat = state.seat
        hand = state.hands[seat]
        lay = state.discard_target - len(state.discards)
        npart = len(info.partners[seat])
        best = None
        for key in keys:
            ti = info.tables[key]
            away = set(_discard_order(ti, hand, hand)[:lay])
            kept = [c for c in hand if c not in away]
            own = info.estimate_all(kept)[info.table_index[key]]
            books = self._declarer_books(info, own, npart, 0.0, False) + info.declarer_book
            v = info.expected(0, state.bid, 1 if key[0] == NO_TRUMP else 0, books)
            if best is None or (v, books) > best[:2]:
                best = (v, books, key)
        return info.tables[best[2]]

    def _discard(self, state: HandState, legal: list[int], why: bool):
        rules = state.rules
        seat = state.seat
        hand = state.hands[seat]
        plan = self._plan
        if (plan is None or plan[0] is not state.dealt or plan[1] != seat
                or len(state.discards) - plan[2] >= len(plan[4])):
            # Plan all the discards at once: the order of the whole hand, worst first.
            ti = self._discard_table(state)
            order = _discard_order(ti, hand, legal)
            plan = self._plan = (state.dealt, seat, len(state.discards), ti, order)
        ti, order = plan[3], plan[4]
        card = order[len(state.discards) - plan[2]]
        if card not in legal:  # the hand is not the one planned for: plan again
            self._plan = None
            order = _discard_order(ti, hand, legal)
            card = order[0]
        if not why:
            return card, ""
        s = ti.suit_of[card]
        if s == NO_SUIT:
            reason = "it cannot win a trick in this contract"
        elif s == ti.trump:
            reason = "only trumps and winners are left; the smallest trump"
        elif _is_top(ti, hand, card):
            reason = "a winner, but the rest are worth more"
        else:
            reason = f"a small {_suit_word(rules, s)}, from the weakest suit to keep"
        return card, f"discard {rules.cards[card]}: {reason} (planning {self._contract_words(rules, ti.key)})"

    # ------------------------------------------------------------------ play
    def _play(self, state: HandState, legal: list[int], why: bool):
        table = state.table
        cache = self._table
        if cache is None or cache[0] is not table:
            rules = state.rules
            info = _info(rules)
            ti = info.tables.get((state.trump, state.direction))
            if ti is None or ti.table is not table:
                ti = _TableInfo((state.trump, state.direction), table)
            cache = self._table = (table, rules, info, ti)
        _, rules, info, ti = cache
        trick = state.trick
        led = state.led
        if trick and led != NO_SUIT:
            suit_of = ti.suit_of
            wk = ti.wk_led[led]
            get = wk.__getitem__
            # The common case first: following suit with no card that can win.  (Where
            # reneges are refused, a legal list that follows is all of the suit led.)
            if info.refuse and not ti.free:
                same = legal if suit_of[legal[0]] == led else None
            else:
                same = [c for c in legal if suit_of[c] == led]
                if ti.free and len(same) != len(legal):
                    same = None  # free cards of no suit too: the general case below
            if same and max(map(get, same)) < max(map(get, trick)):
                card = min(same, key=get)
                return card, (f"play {rules.cards[card]}: cannot win the trick; lowest card of the suit"
                              if why else "")
            # The last to play, against an opponent's card, needs no inference: win as
            # cheaply as possible.
            n = rules.players
            if len(trick) == n - 1:
                best_i, best_key = -1, -1
                for i, c in enumerate(trick):
                    k = wk[c]
                    if k > best_key:
                        best_key, best_i = k, i
                if (state.leader + best_i) % n not in info.partners[state.seat]:
                    winners = [c for c in (same or legal) if wk[c] > best_key]
                    if winners:
                        card = min(winners, key=get)
                        return card, (f"play {rules.cards[card]}: cheapest card that beats the "
                                      f"{rules.cards[trick[best_i]]} on the table" if why else "")
        seat = state.seat
        track = self._track.sync(state, rules.players)
        # The cards this seat cannot place: not played, not in the trick, not its own,
        # not laid away by it, not out of play.  Its own are those it held when play
        # began (the rest of them are played since).
        own = track.own.get(seat)
        if own is None:
            own = track.own[seat] = _mask(state.hands[seat]) | _mask(
                c for t in state.tricks for i, c in enumerate(t[1]) if (t[0] + i) % rules.players == seat)
            for i, c in enumerate(trick):
                if (state.leader + i) % rules.players == seat:
                    own |= _BIT[c]
            track.own[seat] = own
        in_trick = 0
        for c in trick:
            in_trick |= _BIT[c]
        known = track.played | own | in_trick
        if state.out:
            known |= track.mask_of("out", state.out)
        if seat == state.declarer and state.discards:
            known |= track.mask_of("discards", state.discards)
        unseen = info.full_mask & ~known
        if trick and led != NO_SUIT:
            held = own & ~(track.played | in_trick)  # the seat's hand, as a mask
            return _follow(state, rules, info, ti, track.void, unseen, held, seat, legal, why)
        return _lead(state, rules, info, ti, track.void, unseen, seat, legal, why)


def _is_top(ti: _TableInfo, hand, card: int) -> bool:
    """True when ``card`` and every card above it in its suit are in ``hand``."""
    return not ti.above[card] & ~_mask(hand)


def _discard_order(ti: _TableInfo, hand, legal) -> list[int]:
    """The legal cards of ``hand`` in the order to lay them away, the most useless first.

    Cards that cannot win; then the small cards of short side suits (a void lets trumps
    ruff; in notrump the long suits are kept instead); then side winners; trumps last.
    """
    suit_of = ti.suit_of
    rank = ti.rank
    trump = ti.trump
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(suit_of[c], []).append(c)
    allowed = set(legal)
    keyed = []
    for s, cards in by_suit.items():
        if s == NO_SUIT:
            keyed += [((0,), c) for c in cards if c in allowed]
            continue
        cards.sort(key=rank.__getitem__)
        top = 0  # sure winners: the unbroken top of the suit
        while top < len(cards) and rank[cards[top]] == top:
            top += 1
        losers = len(cards) - top
        for i, c in enumerate(cards):
            if c not in allowed:
                continue
            if s == trump:
                key = (3, -rank[c])
            elif i < top:
                key = (2, -rank[c])
            elif trump == NO_TRUMP:
                key = (1, len(cards) + 2 * top, -rank[c])
            else:
                key = (1, losers + 2 * top, -rank[c])
            keyed.append((key, c))
    keyed.sort()
    return [c for _, c in keyed] or list(legal)


def _out_trumps(ti: _TableInfo, unseen: int) -> int:
    """Trumps the seat cannot place (0 in notrump)."""
    if ti.trump == NO_TRUMP:
        return 0
    return (ti.suit_mask[ti.trump] & unseen).bit_count()


def _safe(ti: _TableInfo, void, unseen: int, card: int, led: int, later) -> bool:
    """Will ``card`` hold the trick against the opponents still to play?"""
    if not later:
        return True
    if ti.above[card] & unseen:
        return False  # a higher card of its suit is out
    trump = ti.trump
    if trump == NO_TRUMP or ti.suit_of[card] == trump:
        return True
    tbit = 1 << trump
    lbit = 1 << led
    for o in later:
        if void[o] & lbit and not void[o] & tbit:
            return not _out_trumps(ti, unseen)  # shown out of the suit led: may ruff
    return True


def _throw(ti: _TableInfo, unseen: int, held: int, cand) -> int:
    """A card to give up: no-suit cards, then the small cards of weak side suits.

    Per suit only its lowest card is a candidate; side suits whose lowest card is not
    a winner go first, shortest first (a void can ruff later); trumps go last.
    """
    suit_of = ti.suit_of
    rank = ti.rank
    trump = ti.trump
    lowest = {}
    for c in cand:
        s = suit_of[c]
        if s == NO_SUIT:
            return c
        low = lowest.get(s)
        if low is None or rank[c] > rank[low]:
            lowest[s] = c
    if len(lowest) == 1:
        return next(iter(lowest.values()))
    above = ti.above
    best, best_key = cand[0], None
    for s, c in lowest.items():
        if s == trump:
            key = (3, 0, -rank[c])
        elif not above[c] & unseen:
            key = (2, 0, -rank[c])
        else:
            key = (1, (ti.suit_mask[s] & held).bit_count(), -rank[c])
        if best_key is None or key < best_key:
            best, best_key = c, key
    return best


def _follow(state, rules, info, ti, void, unseen, held, seat, legal, why):
    """Play to a trick already led."""
    suit_of = ti.suit_of
    trump = ti.trump
    cards = rules.cards
    trick = state.trick
    led = state.led
    partners = info.partners[seat]
    win_key = ti.wk_led[led]
    best_i, best_key = -1, -1
    for i, c in enumerate(trick):
        k = win_key[c]
        if k > best_key:
            best_key, best_i = k, i
    # Follow suit when able, even where a renege would stand.
    same = [c for c in legal if suit_of[c] == led]
    following = bool(same)
    if following:
        cand = same
        if ti.free and len(same) != len(legal):
            cand = same + [c for c in legal if suit_of[c] == NO_SUIT]
    else:
        cand = legal
    winners = [c for c in cand if win_key[c] > best_key]
    n = rules.players
    partner_winning = (state.leader + best_i) % n in partners
    later = info.later[seat][len(trick)]

    def lowest():
        if following:
            if len(same) != len(cand):  # a free card of no suit is cheaper still
                return next(c for c in cand if suit_of[c] == NO_SUIT)
            return min(same, key=win_key.__getitem__)
        return _throw(ti, unseen, held, cand)

    if partner_winning:
        pcard = trick[best_i]
        if _safe(ti, void, unseen, pcard, led, later):
            card = lowest()
            if not why:
                return card, ""
            if not later:
                return card, f"play {cards[card]}: partner's {cards[pcard]} wins the trick already"
            return card, f"play {cards[card]}: partner's {cards[pcard]} is winning; no need to overtake"
        safe = [c for c in winners if _safe(ti, void, unseen, c, led, later)]
        if safe:
            card = min(safe, key=win_key.__getitem__)
            return card, (f"play {cards[card]}: partner's {cards[pcard]} could be beaten; this "
                          "cannot" if why else "")
        card = lowest()
        return card, (f"play {cards[card]}: leave the trick to partner's {cards[pcard]}" if why else "")
    if winners:
        beaten = cards[trick[best_i]]
        if not later:
            card = min(winners, key=win_key.__getitem__)
            return card, (f"play {cards[card]}: cheapest card that beats the {beaten} on the table"
                          if why else "")
        safe = [c for c in winners if _safe(ti, void, unseen, c, led, later)]
        if safe:
            card = min(safe, key=win_key.__getitem__)
            return card, (f"play {cards[card]}: cheapest sure winner over the {beaten}" if why else "")
        if not following and trump != NO_TRUMP:
            card = min(winners, key=win_key.__getitem__)
            return card, (f"play {cards[card]}: ruff the {beaten} with the cheapest trump that wins"
                          if why else "")
        if len(trick) >= 2 or not partners:
            card = max(winners, key=win_key.__getitem__)
            return card, (f"play {cards[card]}: highest card, to beat the {beaten} before the last "
                          "player" if why else "")
        card = lowest()
        return card, (f"play {cards[card]}: second hand low; partner plays later" if why else "")
    card = lowest()
    if not why:
        return card, ""
    if following and suit_of[card] == led:
        return card, f"play {cards[card]}: cannot win the trick; lowest card of the suit"
    return card, f"play {cards[card]}: cannot win the trick; throw the least useful card"


def _lead(state, rules, info, ti, void, unseen, seat, legal, why):
    """Lead to a new trick (or play the first suited card after cards of no suit)."""
    suit_of = ti.suit_of
    rank = ti.rank
    trump = ti.trump
    cards = rules.cards
    above = ti.above
    # One pass over the hand: each suit's top card, bottom card and length.
    top, low, count = {}, {}, {}
    for c in legal:
        s = suit_of[c]
        if s == NO_SUIT:
            continue
        t = top.get(s)
        if t is None:
            top[s] = low[s] = c
            count[s] = 1
        else:
            count[s] += 1
            if rank[c] < rank[t]:
                top[s] = c
            elif rank[c] > rank[low[s]]:
                low[s] = c
    if not top:
        c = legal[0]
        return c, (f"lead {cards[c]}: nothing else left" if why else "")
    opponents = info.opponents[seat]
    partners = info.partners[seat]
    out_trumps = _out_trumps(ti, unseen)
    tbit = 1 << trump if trump != NO_TRUMP else 0
    opp_trumps = False
    if out_trumps:
        for o in opponents:
            if not void[o] & tbit:
                opp_trumps = True
                break
    if trump in top and opp_trumps and (state.declarer == seat or state.declarer in partners):
        # Draw trumps: with the best one left, or more of them than are still out.
        t = top[trump]
        if not above[t] & unseen:
            return t, (f"lead {cards[t]}: the best trump left, drawing the opponents' trumps"
                       if why else "")
        if count[trump] > out_trumps:
            c = low[trump]
            return c, (f"lead {cards[c]}: long in trumps ({count[trump]} against {out_trumps} out), "
                       "drawing them" if why else "")
    # Cash a sure winner no opponent can ruff, from the longest such suit.
    cash = None
    for s, c in top.items():
        if s != trump and not above[c] & unseen:
            if opp_trumps:
                bit = 1 << s
                if any(void[o] & bit and not void[o] & tbit for o in opponents):
                    continue
            if cash is None or count[s] > count[suit_of[cash]]:
                cash = c
    if cash is not None:
        return cash, (f"lead {cards[cash]}: a sure winner" if why else "")
    # Give partner a ruff: a suit partner is out of while it may still hold trumps.
    if out_trumps:
        for p in partners:
            vp = void[p]
            if vp and not vp & tbit:
                for s, c in low.items():
                    if s != trump and vp & (1 << s):
                        return c, (f"lead {cards[c]}: partner is out of {_suit_word(rules, s)} "
                                   "and can ruff" if why else "")
    # Otherwise the longest side suit: the top of a sequence of honours, else a small card.
    best = None
    for s in top:
        if s != trump and (best is None or count[s] > count[best]
                           or (count[s] == count[best] and rank[top[s]] < rank[top[best]])):
            best = s
    if best is not None:
        t = top[best]
        r = rank[t]
        desc = ti.desc[best]
        if count[best] >= 2 and r <= 2 and r + 1 < len(desc) and not unseen & _BIT[desc[r + 1]]:
            return t, (f"lead {cards[t]}: top of a sequence in the longest suit" if why else "")
        c = low[best]
        return c, (f"lead {cards[c]}: a small card from the longest suit" if why else "")
    t = top[trump]
    c = t if not above[t] & unseen else low[trump]
    return c, (f"lead {cards[c]}: only trumps left" if why else "")


# ---------------------------------------------------------------------------
# The sampler.
# ---------------------------------------------------------------------------

class SamplerBot:
    """Determinised Monte Carlo for the discards and the play.

    For a decision it deals the cards it cannot see ``samples`` times, each deal
    consistent with what the seat knows — its hand, the cards played, the suits each
    seat has shown out of, the kitty when it was shown (those cards are with the
    declarer or among its discards), its own discards, cards out of play — and, for
    every distinct legal action, plays the deal out to the end of the hand with
    heuristic bots (``playout="heuristic"``), or asks the double-dummy solver for the
    books that follow (``playout="solver"``, which needs ``runtime.solver``).  The
    action with the best mean result for its side wins: the hand's score difference,
    with books as the tie-break.  The same deals are used for every action.

    The auction and the declaration are left to the heuristic bot (their value
    depends on a whole hand's play, which is the heuristic's estimate already).
    Deterministic for a given generator.
    """

    name = "sampler"

    def __init__(self, rng: random.Random, samples: int = 20, playout: str = "heuristic",
                 max_candidates: int = 6, auction_tries: int = 6):
        if playout not in ("heuristic", "solver"):
            raise ValueError(f"playout must be 'heuristic' or 'solver', not {playout!r}")
        self.rng = rng
        self.samples = samples
        self.playout = playout
        self.max_candidates = max_candidates
        self.auction_tries = auction_tries
        self.heuristic = HeuristicBot(rng)
        self._player = HeuristicBot(rng)  # plays every seat in the playouts
        self._judge = HeuristicBot(rng)  # replays the auction of a sampled deal
        self._solver = None
        if playout == "solver":
            try:
                from . import solver  # noqa: PLC0415 - optional, and still being written
            except ImportError as exc:
                raise RuntimeError("the sampler's 'solver' playout needs runtime.solver "
                                   "(solve(state), solve_actions(state)), which is not available: "
                                   f"{exc}") from exc
            if not (hasattr(solver, "solve") and hasattr(solver, "solve_actions")):
                raise RuntimeError("runtime.solver must provide solve(state) and solve_actions(state)")
            self._solver = solver

    def choose(self, state: HandState) -> int:
        """The action with the best average outcome over sampled deals."""
        return self._decide(state, False)[0]

    def explain(self, state: HandState) -> tuple[int, str]:
        """The action and a one-line reason (the sampled mean of each candidate)."""
        return self._decide(state, True)

    def _decide(self, state: HandState, why: bool):
        phase = state.phase
        if phase not in (PLAY, DISCARD) or (phase == PLAY and state.table is None):
            action, reason = self.heuristic._decide(state, why)
            return action, (reason + " (heuristic)" if why else "")
        legal = state.legal_actions()
        candidates = self._candidates(state, legal)
        if len(candidates) == 1:
            return candidates[0], (f"{state.rules.action_names[candidates[0]]}: the only sensible choice"
                                   if why else "")
        seat = state.seat
        rules = state.rules
        totals = [0.0] * len(candidates)
        for _ in range(self.samples):
            world = self._sample(state, seat)
            if self._solver is not None and phase == PLAY:
                results = self._solve_all(world, candidates, seat)
                for i, r in enumerate(results):
                    totals[i] += r
                continue
            for i, a in enumerate(candidates):
                totals[i] += self._playout(world, a, seat)
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        action = candidates[best]
        if not why:
            return action, ""
        names = rules.action_names
        others = ", ".join(f"{names[a]} {totals[i] / self.samples:+.2f}"
                           for i, a in enumerate(candidates) if i != best)
        verb = "discard" if phase == DISCARD else "play"
        return action, (f"{verb} {names[action]}: best mean result over {self.samples} sampled deals "
                        f"({totals[best] / self.samples:+.2f}; {others})")

    def _sample(self, state: HandState, seat: int) -> HandState:
        """A deal consistent with the play, and as far as it can be with the calls.

        The calls are soft evidence: a deal is redrawn (up to ``auction_tries`` times)
        until the heuristic, holding the hands the deal gives each player, would have
        made the calls they made; otherwise the deal that explains the most calls is used.
        """
        best, best_misses = None, None
        for _ in range(max(1, self.auction_tries)):
            world = sample_deal(state, seat, self.rng)
            misses = self._auction_misses(state, world, seat) if self.auction_tries > 1 else 0
            if best is None or misses < best_misses:
                best, best_misses = world, misses
            if misses == 0:
                break
        return best

    def _auction_misses(self, state: HandState, world: HandState, seat: int) -> int:
        """How many of the other players' calls the heuristic would not make with ``world``'s hands.

        Each player's hand at the auction is its hand in ``world`` with the cards it has
        played (the declarer's kitty exchange is not undone: unknown to the others).
        """
        rules = state.rules
        n = rules.players
        if not state.calls:
            return 0
        hands = [list(h) for h in world.hands]
        for leader, cards, _ in state.tricks:
            for i, c in enumerate(cards):
                hands[(leader + i) % n].append(c)
        for i, c in enumerate(state.trick):
            hands[(state.leader + i) % n].append(c)
        if state.kitty_seen and state.kitty:
            # A kitty everyone saw was nobody's at the auction.
            kitty = set(state.kitty)
            hands = [[c for c in h if c not in kitty] for h in hands]
        replay = HandState(rules, state.dealer, hands, list(state.kitty) if state.kitty_seen else [])
        replay.kitty_seen = state.kitty_seen and rules.kitty_show == "auction"
        judge = self._judge
        misses = 0
        last = len(state.calls) - 1
        for i, (who, action) in enumerate(state.calls):
            if who != seat and replay.seat == who:
                if judge.choose(replay) != action:
                    misses += 1
            if i < last:
                replay.apply_action(action)
        return misses

    def _candidates(self, state: HandState, legal: list[int]) -> list[int]:
        """Distinct legal actions: of cards adjacent in power in one suit, one stands for all."""
        if len(legal) == 1:
            return legal
        if state.phase == DISCARD:
            # Only the heuristic's first few choices: discards are many and mostly alike.
            ti = self.heuristic._discard_table(state)
            return _discard_order(ti, state.hands[state.seat], legal)[:self.max_candidates]
        info = _info(state.rules)
        ti = info.tables[(state.trump, state.direction)]
        seat = state.seat
        # A card is equivalent to the next lower one held when every card between is
        # gone (played or in this hand): keep the lowest of each run.
        gone = bytearray(len(state.rules.cards))
        for _, cards, _ in state.tricks:
            for c in cards:
                gone[c] = 1
        for c in state.trick:
            gone[c] = 1
        for c in state.hands[seat]:
            gone[c] = 2
        keep = []
        for c in legal:
            s = ti.suit_of[c]
            if s == NO_SUIT:
                keep.append(c)
                continue
            desc = ti.desc[s]
            r = ti.rank[c]
            j = r + 1
            while j < len(desc) and gone[desc[j]] == 1:
                j += 1
            if j < len(desc) and gone[desc[j]] == 2 and desc[j] in legal:
                continue  # the next lower card held plays the same
            keep.append(c)
        return keep

    def _utility(self, state: HandState, seat: int) -> float:
        rules = state.rules
        side = rules.side_of[seat]
        score = state.score
        others = [s for s in range(rules.sides) if s != side]
        diff = score[side] - sum(score[o] for o in others) / len(others)
        return diff + 0.01 * state.books[side]

    def _playout(self, world: HandState, action: int, seat: int) -> float:
        s = world.clone()
        s.apply_action(action)
        player = self._player
        if self._solver is not None:
            # Discards under the solver: the heuristic finishes them, the solver the play.
            while not s.is_terminal() and s.phase != PLAY:
                s.apply_action(player.choose(s))
            if not s.is_terminal() and s.table is not None:
                return self._score_tricks(s, self._solver.solve(s), seat)
        while not s.is_terminal():
            s.apply_action(player.choose(s))
        return self._utility(s, seat)

    def _solve_all(self, world: HandState, candidates: list[int], seat: int) -> list[float]:
        """Each candidate's utility in ``world`` with double-dummy play from here on."""
        values = self._solver.solve_actions(world)
        return [self._score_tricks(world, values[a], seat) for a in candidates]

    def _score_tricks(self, state: HandState, remaining: int, seat: int) -> float:
        """Utility when the declaring side takes ``remaining`` of the books not yet won.

        ``remaining`` counts as the solver does: the books still to be won by play
        (with the discards' book where it goes to the first trick, still unplayed).
        """
        rules = state.rules
        books = state.books_so_far()
        decl_side = rules.side_of[state.declarer]
        left = rules.hand_size - len(state.tricks)  # the trick in progress included
        if rules.discards_book == "first-trick" and state.discards and not state.tricks:
            left += 1  # the discards' book goes with the first trick, still to be won
        remaining = max(0, min(remaining, left))
        rest = left - remaining
        books[decl_side] += remaining
        others = [s for s in range(rules.sides) if s != decl_side]
        for i, o in enumerate(others):  # the defenders' split is not solved: share it
            books[o] += rest // len(others) + (1 if i < rest % len(others) else 0)
        score = state.clone().score_books(books)
        side = rules.side_of[seat]
        rivals = [s for s in range(rules.sides) if s != side]
        return score[side] - sum(score[o] for o in rivals) / len(rivals) + 0.01 * books[side]


# ---------------------------------------------------------------------------
# Dealing the unseen cards.
# ---------------------------------------------------------------------------

def _public_voids(state: HandState) -> list[int]:
    """Suits (as bit masks, under the contract) each seat has shown out of, this trick included."""
    n = state.rules.players
    if state.table is None:
        return [0] * n
    track = _Track().sync(state, n)
    void = list(track.void)
    suit_of = state.table.suit_of
    free = state.table.free_no_suit
    led = NO_SUIT
    for i, c in enumerate(state.trick):
        s = suit_of[c]
        if led == NO_SUIT:
            led = s
        elif s != led and not (free and s == NO_SUIT):
            void[(state.leader + i) % n] |= 1 << led
    return void


def _deal_greedy(pool, opts, cap, slots, rng):
    """Place the cards, the most constrained first, each in a random slot with room."""
    order = list(pool)
    rng.shuffle(order)
    order.sort(key=lambda c: len(opts[c]))
    left = dict(cap)
    dealt = {o: [] for o in slots}
    free = len(slots)
    for k, c in enumerate(order):
        if len(opts[c]) == free:
            # The rest may go anywhere: deal them out (already shuffled) to the room left.
            rest = order[k:]
            for o in slots:
                dealt[o] += rest[:left[o]]
                rest = rest[left[o]:]
            return dealt
        choices = [o for o in opts[c] if left[o] > 0]
        if not choices:
            return None
        pick = rng.choices(choices, [left[o] for o in choices])[0] if len(choices) > 1 else choices[0]
        dealt[pick].append(c)
        left[pick] -= 1
    return dealt


def _deal_checked(pool, opts, cap, slots, rng):
    """Place the cards one by one, keeping the rest placeable (Hall's condition).

    Cards fall into classes by the slots they may go to; the rest can be placed iff
    for every set of slots, the cards that may only go there fit in their room.
    """
    index = {o: i for i, o in enumerate(slots)}
    mask_of = {c: sum(1 << index[o] for o in opts[c]) for c in pool}
    counts: dict[int, int] = {}
    for c in pool:
        counts[mask_of[c]] = counts.get(mask_of[c], 0) + 1
    left = [cap[o] for o in slots]
    subsets = range(1, 1 << len(slots))

    def feasible() -> bool:
        for t in subsets:
            need = sum(n for m, n in counts.items() if m & ~t == 0)
            room = sum(left[i] for i in range(len(slots)) if t >> i & 1)
            if need > room:
                return False
        return True

    if not feasible():
        return None
    order = list(pool)
    rng.shuffle(order)
    dealt = {o: [] for o in slots}
    for c in order:
        m = mask_of[c]
        counts[m] -= 1
        choices = [i for i in range(len(slots)) if m >> i & 1 and left[i] > 0]
        rng.shuffle(choices)
        for i in choices:
            left[i] -= 1
            if feasible():
                dealt[slots[i]].append(c)
                break
            left[i] += 1
        else:
            return None
    return dealt


def sample_deal(state: HandState, seat: int, rng: random.Random, tries: int = 4) -> HandState:
    """A copy of ``state`` with every card ``seat`` cannot see dealt anew at random.

    The deal keeps what ``seat`` knows: its own hand, the cards played, the cards out
    of play, each seat's number of cards, the suits each seat showed out of, the
    kitty when it was shown (its cards stay with the declarer or among its discards,
    or in the kitty while it is not taken), and its own discards when it declared.
    Only the information of ``state.observation(seat)`` is read (other hands only for
    their sizes, which everyone sees).  If the voids cannot all be honoured (a renege
    that stood), they are dropped.
    """
    rules = state.rules
    n = rules.players
    declarer = state.declarer
    known = bytearray(rules.n_cards)
    for c in state.hands[seat]:
        known[c] = 1
    for _, cards, _ in state.tricks:
        for c in cards:
            known[c] = 1
    for c in state.trick:
        known[c] = 1
    for c in state.out:
        known[c] = 1
    kitty = list(state.kitty)
    kitty_taken = bool(kitty) and declarer >= 0 and (state.phase in (DISCARD, PLAY) or bool(state.discards))
    kitty_known = bool(kitty) and (state.kitty_seen or (seat == declarer and kitty_taken))
    others = [o for o in range(n) if o != seat]
    sizes = {o: len(state.hands[o]) for o in others}
    capacity = sum(sizes.values())
    pool = [c for c in range(rules.n_cards) if not known[c]]
    if seat == declarer:
        # Its own discards are known to be out of play, except those drawn by players
        # who swapped extras away: as many as the others' hands are short of.
        mine = {c for c in state.discards if not known[c]}
        pool = [c for c in pool if c not in mine]
        if kitty and not kitty_taken and kitty_known:
            pool = [c for c in pool if c not in kitty]  # a shown kitty not yet taken stays put
        short = capacity - len(pool)
        if short > 0 and mine:
            pool += rng.sample(sorted(mine), min(short, len(mine)))
    # Slots: the other seats, and -1 for unseen cards in no hand (another declarer's
    # discards, or the kitty before it is taken).
    hidden = len(pool) - capacity
    slots = others + ([-1] if hidden > 0 else [])
    cap = dict(sizes)
    if hidden > 0:
        cap[-1] = hidden
    only = {}  # card -> the slots it may go to, where the seat knows more
    if kitty_known and seat != declarer:
        for c in kitty:
            if not known[c]:
                if kitty_taken:
                    only[c] = [o for o in (declarer, -1) if o in cap]
                elif -1 in cap:
                    only[c] = [-1]
    void = _public_voids(state)
    suit_of = state.table.suit_of if state.table is not None else None
    opts = {}
    for c in pool:
        allowed = only.get(c, slots)
        if suit_of is not None and suit_of[c] != NO_SUIT:
            bit = 1 << suit_of[c]
            allowed = [o for o in allowed if o == -1 or not void[o] & bit]
        opts[c] = allowed
    dealt = None
    for _ in range(tries):
        dealt = _deal_greedy(pool, opts, cap, slots, rng)
        if dealt is not None:
            break
    else:
        # The quick deal keeps failing in a tight spot: deal card by card, checking
        # that the rest can still be placed.  Should even that fail (a renege that
        # stood shows a false void), forget the voids.
        dealt = _deal_checked(pool, opts, cap, slots, rng)
        if dealt is None:
            dealt = _deal_checked(pool, {c: only.get(c, slots) for c in pool}, cap, slots, rng)
    world = state.clone()
    for o in others:
        world.hands[o] = sorted(dealt.get(o, []))
    unseen = dealt.get(-1, [])
    if seat != declarer:
        if kitty_taken or not kitty:
            if state.discards:
                # Another seat's discards are the unseen cards in no hand.  (Should
                # swaps have drawn them all, only the pile's existence matters: keep it.)
                world.discards = unseen or list(state.discards)
            world.kitty = kitty if kitty_known else []
        else:
            world.kitty = kitty if kitty_known else unseen
    world.reneges = [s for s in state.reneges if s == seat]
    # The deal as this seat imagines it (the engine seeds its own chance events from it).
    world.dealt = tuple(tuple(h) for h in world.hands)
    world._legal = None
    return world


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "sampler": SamplerBot}


def make_bot(name: str, rng: random.Random):
    """A bot by name (a key of ``BOTS``); KeyError for an unknown name."""
    return BOTS[name](rng)
