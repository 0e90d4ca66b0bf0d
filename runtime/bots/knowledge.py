"""What the bots precompute per ruleset, once per process: tables, hand estimates, score tables.

* :class:`TableInfo`: one play table rearranged for the bots — per effective suit its
  cards by power, each card's strength in a trick, and bit masks of suits and of the
  cards above each card;
* the trick estimate of a hand: each suit holding valued by its top cards and its
  length (tabulated once per process), plus ruffs, for every contract at once
  (:meth:`RulesInfo.estimate_all`);
* :class:`RulesInfo`: the above for every table of a ruleset, the contracts each strain
  offers, and the variant's scoring tabulated per bid and book count, with the
  expected score of a contract for an estimated number of books;
* :func:`rules_info`: the shared instance per ruleset; ``BIT`` and :func:`card_mask`:
  card bit masks.
"""

from __future__ import annotations

import math
import sys
from itertools import accumulate
from operator import getitem, sub

from ..contract import declarations
from ..hand import HandState
from ..kitty import kitty_rules
from ..ruleset import NO_SUIT, NO_TRUMP, TOP_SUIT, Ruleset
from ..tricks import strength_keys, trick_rules

# Kinds of suit for the trick estimate.
_SIDE, _NT, _TRUMP = 0, 1, 2
# Chance that a card with this many higher cards outstanding wins a trick (when it
# has enough small cards with it to wait for them to fall).
_P_MISSING = (1.0, 0.5, 0.22, 0.06)
# In a trump contract, side-suit winners of later rounds get ruffed: the weight of a
# top card by the round in which it is cashed.
_SIDE_ROUND = (1.0, 0.9, 0.6, 0.3, 0.12, 0.05)
# Trumps: the longest other holding is about this share of the trumps out (in play);
# each trump beyond it is worth _TRUMP_LONG, and the trumps' top cards (honours promoted
# as the higher trumps fall) _TRUMP_TOP times a side suit's.  Fitted by
# ``python bench/fit_bidding.py --hands 6000`` (the base game, forced suit contracts, books
# regressed on the estimate's parts): books = 5.44 + 0.394 side tricks + 0.533 trump
# top tricks + 0.668 a trump (-0.09 a trump beyond four, ruffs -0.01): a trump is worth
# 1.7 side tricks, its top tricks 1.35.  The old credit (1.0 a trump beyond the split,
# nothing when the top trumps counted already covered the split) gave five trumps with
# two low honours 1.8 tricks; trump length 3..7 took 8.3, 9.0, 9.4, 10.3, 10.9 books.
_TRUMP_OTHERS = 0.35
_TRUMP_LONG = 1.26  # 1.7 side tricks a trump over the 1.35 trumps a trump adds beyond the split
_TRUMP_TOP = 1.35
# Ruffs: trumps beyond this many ruff short side suits, worth this much a ruff.
_RUFF_KEEP = 2
_RUFF = 0.8
# The declaring side's books against its declarer's own hand estimate, fitted by
# ``python bench/fit_bidding.py --hands 4000`` (the base game: the declarer's best contract
# of a kind, the heuristic's discards and play): books = 7.545 + 0.457 own (suit, sd
# 1.84), 6.654 + 0.479 own (notrump, sd 2.22).  Kept here in a form that carries over
# to other deals: books = a side's even share of the tricks + SLOPE * (own - a hand's
# even share) + CHOICE (what choosing the contract is worth) + the kitty's worth + the
# discards' book, the last two read from the engine per variant.  Index: 0 suit, 1 notrump.
# An estimated trick is worth under half a book: the estimate counts tricks a partner
# would have taken anyway, and it is noisy (regression to the mean).
# Not yet used by the bidding (RulesInfo.declaring_books / defending_books): put in
# place of the old estimate alone, every hand looks worth declaring (an average hand's
# best suit takes 9.3 books) and, with no model of being overcalled, the auction
# escalates: contracts made fell to 36% (4000 hands, seed 1).  Only the spread below is used.
_FIT_SLOPE = (0.457, 0.479)
_FIT_CHOICE = (0.916, 0.091)
# Spread (the sigma of a normal curve, in books) of the declaring side's books around the
# fitted line, by kind (the residual spread of the same fit).
_FIT_SD = (1.84, 2.22)
# The defenders' side: its books against one defender's own estimate (the mean over the
# contracts the opponents' strain may become), fitted by the same script on self-play:
# declaring side's books = 12.847 - 1.324 own (suit), 10.280 - 0.690 own (notrump);
# as a side's even share + SLOPE * (own - even share) + OFFSET, by kind.
_FIT_DEFENCE_SLOPE = (1.324, 0.690)
_FIT_DEFENCE_OFFSET = (-1.875, -1.21)
# A kitty's worth to the declarer before it is seen, per card, as a share of what an
# average card held is worth (the tricks over the cards dealt to hands): double dummy
# measured about one book for the base game's six cards (issue 14), 1/6 a card against 1/4
# for a card held.  Where fewer players share the tricks a kitty card is worth more
# (two players: 2.0 books for six; valued at the base game's 1.0, the bot lost to the
# baseline there, -0.12 points a hand).
_KITTY_BOOK_SHARE = 2 / 3
# Bids worth this little less than the best are as good: the highest of them is bid.
PREEMPT_TOLERANCE = 0.15


def _p_missing(missing: float) -> float:
    """``_P_MISSING`` read at a (fractional) number of higher cards in play, linearly."""
    if missing <= 0:
        return 1.0
    k = int(missing)
    if k + 1 >= len(_P_MISSING):
        return _P_MISSING[-1] * max(0.0, len(_P_MISSING) - missing)
    f = missing - k
    return _P_MISSING[k] * (1 - f) + _P_MISSING[k + 1] * f


def suit_parts(size: int, mask: int, kind: int, inplay: float = 1.0) -> tuple[float, float]:
    """(top tricks, length tricks) of one holding; see :func:`_suit_value`.

    ``inplay``: the share of the cards I do not hold that some player holds (below 1
    where cards are set aside undealt): a higher card out is then in play only that
    often, and the others' longest holding shrinks alike.
    """
    held = [r for r in range(size) if mask >> r & 1]
    length = len(held)
    top = 0.0
    counted = 0
    for i, r in enumerate(held):
        missing = (r - i) * inplay
        if missing >= len(_P_MISSING) or (missing and length <= i + missing):
            continue  # too many higher cards out, or too short to wait for them
        p = _p_missing(missing)
        if kind == _SIDE:
            p *= _SIDE_ROUND[i] if i < len(_SIDE_ROUND) else 0.0
        top += p
        counted += 1
    long_tricks = 0.0
    if kind != _SIDE and length >= 3:
        out = (size - length) * inplay
        if kind == _TRUMP:
            # Trumps beyond the opponents' expected longest holding each take a trick
            # (a partner's trumps help draw theirs); the top trumps are counted apart.
            long_cards = length - out * _TRUMP_OTHERS
            if long_cards > 0:
                long_tricks = _TRUMP_LONG * long_cards
        else:
            long_cards = length - max(out * 0.45, counted)
            if long_cards > 0:
                long_tricks = (0.7 if counted else 0.35) * long_cards
    return top, long_tricks


def _suit_value(size: int, mask: int, kind: int, inplay: float = 1.0) -> float:
    """Expected tricks from one holding: bit ``r`` of ``mask`` set = I hold the card ranked ``r``.

    Rank 0 is the top card of the suit (under the contract's powers) and ``size`` the
    number of cards the suit has.  Top cards count by how many higher cards are
    outstanding; long suits add tricks once the others' cards are exhausted (in no
    trump and in the trump suit).  Trumps weigh as fitted (``_TRUMP_TOP``,
    ``_TRUMP_LONG``), at most a trick a trump held.
    """
    top, long_tricks = suit_parts(size, mask, kind, inplay)
    if kind == _TRUMP:
        return min(float(mask.bit_count()), _TRUMP_TOP * top + long_tricks)
    return top + long_tricks


# Holdings are valued by their top cards exactly and the rest by their number: the
# exact ranks of small cards hardly change the estimate, and the memo of holding
# values stays small (a few hundred entries per kind of suit instead of thousands).
_EXACT_TOP = 6


# A holding's shortness by its length (a void 2, a singleton 1, else 0): what a ruff counts.
# A slot holds at most 32 cards (its mask is 16 or 32 bits wide).
_SHORTNESS = tuple(2 - n if n < 2 else 0 for n in range(33))
# A bound on the hand shapes whose ruffs RulesInfo keeps (710 arise in 20,000 hands of the base game).
_RUFFS_MAX = 20000


def _canonical(mask: int) -> int:
    """The holding with its small cards moved up to just below the exact top ranks."""
    top = mask & ((1 << _EXACT_TOP) - 1)
    small = (mask >> _EXACT_TOP).bit_count()
    return top | (((1 << small) - 1) << _EXACT_TOP)


_VALUES: dict[tuple[int, float], list[float]] = {}


def _value_table(tag: int, inplay: float = 1.0) -> list[float]:
    """``_suit_value`` of every holding of a suit (``tag`` = size << 2 | kind)."""
    table = _VALUES.get((tag, inplay))
    if table is None:
        size, kind = tag >> 2, tag & 3
        by_canon = {}
        table = []
        for m in range(1 << size):
            c = _canonical(m)
            v = by_canon.get(c)
            if v is None:
                v = by_canon[c] = _suit_value(size, c, kind, inplay)
            table.append(v)
        _VALUES[tag, inplay] = table
    return table


class TableInfo:
    """One play table, rearranged for the bots: per effective suit, cards by power."""

    __slots__ = ("table", "key", "trump", "suit_of", "power", "suits", "sidx", "bit", "rank",
                 "desc", "size", "kinds", "win_key", "trump_idx", "wk_led", "free", "above",
                 "suit_mask")

    def __init__(self, key, table):
        self.table = table
        self.key = key
        self.trump = table.trump
        # Top cards (TOP_SUIT) follow no suit, as cards of no suit: the bots' suit logic
        # sees them so; only their strength (win_key) tells that they win every trick.
        self.suit_of = tuple(NO_SUIT if s == TOP_SUIT else s for s in table.suit_of)
        self.power = table.power
        suits = sorted({s for s in table.suit_of if s >= 0})
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
        self.win_key = strength_keys(table)  # tricks.py: the one order of cards in a trick
        # Per suit led: each card's strength in the trick (-1 for a card that cannot win).
        self.wk_led = {led: [k if s == led or s == table.trump or s == TOP_SUIT else -1
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


class RulesInfo:
    """What the bots precompute for a ruleset: tables, the ladder by strain, score tables."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        n = rules.players
        self.tables = {key: TableInfo(key, t) for key, t in rules.tables.items()}
        self.table_list = list(self.tables.values())
        self.table_keys = [ti.key for ti in self.table_list]
        self.nones = [None] * len(self.table_list)
        self.partners = [[o for o in range(n) if o != s and rules.side_of[o] == rules.side_of[s]]
                         for s in range(n)]
        self.opponents = [[o for o in range(n) if rules.side_of[o] != rules.side_of[s]] for s in range(n)]
        self.full_mask = (1 << rules.n_cards) - 1
        self.refuse = trick_rules(rules).refuses_renege
        # later[seat][k]: the opponents who play after ``seat`` when k cards are on the table.
        self.later = [[[(s + i) % n for i in range(1, n - k) if (s + i) % n not in self.partners[s]]
                       for k in range(n)] for s in range(n)]
        while len(BIT) < rules.n_cards:  # a deck larger than any shipped one
            BIT.append(1 << len(BIT))
        self.tricks = rules.hand_size  # tricks in a hand: each plays hand_size cards
        # The share of the cards a hand does not hold that are in play (held by someone
        # or in the kitty): below 1 where the deal sets cards aside (two players: 18 of
        # 42), so the higher cards and long holdings out are fewer than the deck says.
        unseen = rules.n_cards - rules.hand_size
        self.inplay = (unseen - rules.undealt) / unseen if unseen > 0 else 1.0
        kitty = kitty_rules(rules)
        book_of_discards = 1 if kitty.has_discards_book else 0
        self.total_books = self.tricks + book_of_discards
        # What the kitty is worth to the declarer before it is seen: more cards to pick
        # from, short suits to void, and (where it says so) the discards' book.
        self.kitty_bonus = _KITTY_BOOK_SHARE * rules.kitty_size * self.tricks / (n * rules.hand_size)
        if rules.kitty_size and kitty.book_to_declarer:
            self.declarer_book = 1.0
        elif rules.kitty_size and kitty.book_to_first_trick:
            self.declarer_book = 0.6  # the declarer leads to it
        else:
            self.declarer_book = 0.0
        # The contracts each strain lets the declarer choose from, notrump and suit apart.
        self.strain_keys = []
        for decl in declarations(rules):  # the engine says which contracts each strain may become
            self.strain_keys.append(decl.contract_keys(rules))
        index = {ti.key: i for i, ti in enumerate(self.table_list)}
        self.table_index = index
        # Per strain: the table indices of its suit contracts and of its notrump ones.
        self.strain_tables = [([index[k] for k in keys if k[0] != NO_TRUMP],
                               [index[k] for k in keys if k[0] == NO_TRUMP])
                              for keys in self.strain_keys]
        # Per strain: the kind its contracts are valued as (0 where it has suit contracts,
        # 1 where it is played only without trumps, scored as notrump).
        self.strain_kind = [0 if suits else 1 for suits, _ in self.strain_tables]
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
        # The ladder's highest level (a game's defence of a bid near the top reads it).
        self.top_level = max((b.level for b in rules.bids), default=0)
        # A hand's and a side's even share of the tricks: the fitted lines are about them.
        self.even_hand = self.tricks / n
        self.even_side = [self.tricks * (1 + len(p)) / n for p in self.partners]
        self.util = None  # score tables, built from the first state that needs them
        self._eu = {}
        self._keys: dict[int, list[int]] = {}
        self._rows = {}
        self._made = {}
        self._worth = {}
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
        self.slot_values = [_value_table(tag, self.inplay) for tag in self.slot_tag] if width == 16 else None
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
        self.ruffs: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}  # slot lengths -> estimate_all's ruffs

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
                        vals[j] = self.slot_memo[j][masks[j]] = _suit_value(tag >> 2, masks[j], tag & 3, self.inplay)
        # Each table's total, in C: running sums over its slots laid end to end.
        acc = [0.0]
        acc += accumulate(map(vals.__getitem__, self.flat_ids))
        get = acc.__getitem__
        out = list(map(sub, map(get, self.table_ends), map(get, self.table_starts)))
        # Ruffs: short side suits with trumps to spare (beyond three to draw with).  They
        # depend on the slots' lengths alone (a hand's shape, far fewer than its hands):
        # worked out once per shape, as (table, tricks added) pairs, and memoised.
        lens = tuple(map(int.bit_count, masks))
        ruffs = self.ruffs.get(lens)
        if ruffs is None:
            ruffs = self._ruffs(lens)
        for i, add in ruffs:
            out[i] += add
        return out

    def _ruffs(self, lens: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
        """The ruffs :meth:`estimate_all` adds for slots of lengths ``lens``: (table, tricks) pairs."""
        out = []
        for i, t, sides in self.table_ruff:
            spare = lens[t] - _RUFF_KEEP
            if spare > 0:
                n = sum(_SHORTNESS[lens[j]] for j in sides)  # each slot's shortness: 2 - length, at least 0
                out.append((i, _RUFF * (n if n < spare else spare)))
        if len(self.ruffs) >= _RUFFS_MAX:
            self.ruffs.clear()
        got = self.ruffs[lens] = tuple(out)
        return got

    def declaring_books(self, own: float, npart: int, nt: int, kitty: bool, with_kitty: float | None = None) -> float:
        """Expected books of a side that declares, from its declarer's own estimate ``own``
        (the fitted line: see ``_FIT_SLOPE``), before any partner's call is read.

        ``kitty``: the declarer takes the kitty still to come (its worth and the
        discards' book count); ``with_kitty``: the estimate of the hand with a kitty it
        has seen instead, which then replaces ``own`` and the kitty's worth.
        """
        even = self.tricks * (1 + npart) / self.rules.players
        if kitty and with_kitty is not None:
            own, extra = with_kitty, 0.0
        else:
            extra = self.kitty_bonus if kitty else 0.0
        books = even + _FIT_SLOPE[nt] * (own - self.even_hand) + _FIT_CHOICE[nt] + extra
        return books + (self.declarer_book if kitty else 0.0)

    def defending_books(self, own: float, npart: int, nt: int) -> float:
        """Expected books of a defending side (``npart`` partners) from one defender's own
        estimate, by the line fitted on self-play (``_FIT_DEFENCE_SLOPE``)."""
        even = self.tricks * (1 + npart) / self.rules.players
        return even + _FIT_DEFENCE_SLOPE[nt] * (own - self.even_hand) + _FIT_DEFENCE_OFFSET[nt]

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

    def best_of(self, nt: int, books: float, strain: int, allowed: frozenset[int],
                tolerance: float = PREEMPT_TOLERANCE) -> tuple[int, float]:
        """(bid, expected utility) of the best bid of ``strain`` among the ladder indexes
        ``allowed`` (the legal bids: not always a run up the ladder — a forced dealer
        may have to bid the lowest), or (-1, 0.0) if there is none.

        Among bids within ``tolerance`` of the best, the highest is chosen: it keeps
        others from overcalling at no cost (where overtricks score, a hand sure of its
        books loses nothing by bidding them).  A caller nobody can overcall passes 0.
        """
        key = (nt, int(books * 10 + 0.5), strain, allowed, tolerance)
        found = self._best.get(key)
        if found is None:
            row = self.eu_row(0, nt, books)
            bids = [b for b in self.strain_bids[strain] if b in allowed]
            if bids:
                best = max(row[b] for b in bids)
                b = max(b for b in bids if row[b] >= best - tolerance)
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
            row = self._rows[key] = self._eu_row_of(table, nt, key[2])
        return row

    # The memos' misses are worked out in methods of their own (here and below): a
    # comprehension in the method asked would make the names it reads cells there, set
    # up on every call, hits included.
    def _eu_row_of(self, table: int, nt: int, tenths: int) -> list[float]:
        w = self.weights(tenths / 10, nt)
        return [sum(x * u[nt][k] for k, x in w) for u in self.util[table]]

    def made_row(self, nt: int, books: float) -> list[float]:
        """The chance of making every bid of the ladder with ``books`` expected books: the
        weight of the book counts that pass the variant's own test of "made" (``util[2]``)."""
        key = (nt, int(books * 10 + 0.5))
        row = self._made.get(key)
        if row is None:
            row = self._made[key] = self._made_row_of(nt, key[1])
        return row

    def _made_row_of(self, nt: int, tenths: int) -> list[float]:
        w = self.weights(tenths / 10, nt)
        return [sum(x for k, x in w if made[nt][k]) for made in self.util[2]]

    def worth_set(self, nt: int, books: float) -> frozenset[int]:
        """The bids of the whole ladder that :func:`.outbid.worth_bidding` keeps with
        ``books`` expected books (read from :meth:`eu_row` and :meth:`made_row`), memoised:
        of any bids, those worth bidding are ``bids & worth_set(...)``."""
        key = (nt, int(books * 10 + 0.5))
        got = self._worth.get(key)
        if got is None:
            from .outbid import worth_bidding  # outbid imports this module

            got = self._worth[key] = worth_bidding(self.eu_row(0, nt, books), self.made_row(nt, books),
                                                   range(len(self.rules.bids)))
        return got

    def weights(self, mean: float, nt: int = 0):
        """Discrete distribution of the declaring side's books around ``mean`` (``nt``: 1 for notrump)."""
        key = int(round(mean * 10)) * 2 + nt
        w = self._weights.get(key)
        if w is None:
            m = (key >> 1) / 10
            total = self.total_books
            # A hand expected to take (nearly) everything is sure of most of it: the
            # spread narrows as the estimate passes the books there are.
            sd = _FIT_SD[nt] * min(1.0, max(0.35, (total + 1 - m) / 3))
            raw = [(k, math.exp(-((k - m) ** 2) / (2 * sd ** 2))) for k in range(total + 1)]
            s = sum(x for _, x in raw)
            w = [(k, x / s) for k, x in raw if x / s > 1e-3]
            self._weights[key] = w
        return w

    def expected(self, table: int, bid: int, nt: int, books: float) -> float:
        """Expected utility (score difference) of a contract with ``books`` expected books.

        ``table`` 0: for the declaring side; 1: for a defending side.
        """
        key = (((table << 8) | bid) << 1 | nt) << 12 | int(books * 10 + 0.5)  # as expected_keys makes it
        v = self._eu.get(key)
        if v is None:
            v = self._eu[key] = self._expected_of(table, bid, nt, int(books * 10 + 0.5))
        return v

    def expected_keys(self, table: int) -> tuple[dict[int, float], list[int]]:
        """(:meth:`expected`'s memo, per bid of the ladder the key it files ``table``'s value
        of the bid under, its strain's kind counted (notrump where the strain has no suit
        contract), less the books' tenths): a caller valuing many bids reads the memo
        directly, and asks :meth:`expected` on a miss."""
        keys = self._keys.get(table)
        if keys is None:
            kinds = self.strain_kind
            keys = self._keys[table] = [(((table << 8) | b) << 1 | kinds[self.bid_strain[b]]) << 12
                                        for b in range(self.n_bids)]
        return self._eu, keys

    def _expected_of(self, table: int, bid: int, nt: int, tenths: int) -> float:
        row = self.util[table][bid][nt]
        return sum(w * row[k] for k, w in self.weights(tenths / 10, nt))

    # --- trick estimates -------------------------------------------------------
    def estimate(self, ti: TableInfo, hand) -> float:
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
            total += _suit_value(size[i], _canonical(masks[i]), kinds[i], self.inplay)
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


_INFO: dict[int, RulesInfo] = {}


def rules_info(rules: Ruleset) -> RulesInfo:
    """The shared precomputation for ``rules`` (keyed by identity: rulesets are frozen)."""
    info = _INFO.get(id(rules))
    if info is None or info.rules is not rules:
        info = _INFO[id(rules)] = RulesInfo(rules)
    return info


BIT = [1 << c for c in range(256)]  # card id -> its bit in a card mask


def card_mask(cards) -> int:
    """The bit mask of a collection of card ids."""
    return sum(map(BIT.__getitem__, cards))
