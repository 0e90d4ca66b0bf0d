"""The simulation driver: play many hands or games with bots, in chunks, and sum up.

Two modes:

* **hands** — independent hands, the dealer rotating from a seeded first dealer.
  Hand ``i`` draws its deal and its bots' choices from its own generator
  (:func:`hand_rng`), so any hand can be replayed alone (:func:`play_hand`).
* **games** — whole games (rubbers where the variant plays them) to the variant's
  end.  Hand ``h`` of game ``g`` is dealt from a generator seeded by
  ``(seed, g, h)`` and each seat's bot draws from one seeded by ``(seed, g, h,
  seat)``, so two variants played with the same seed get the *same deals*, hand by
  hand, and identical situations get identical choices (:func:`play_game`).  That
  pairing is what makes ``compare`` precise.  (Deals agree only where the decks do.)

Work is split into chunks of consecutive units (hands or games).  A chunk is
computed by a top-level, picklable function — :func:`run_chunk`, or
:func:`run_compare_chunk` for two variants at once — so it can run in this
process, in a local process pool or on a Dask cluster
(:func:`runtime.backends.run_chunks`).  Every unit is seeded from the one master
seed and its index, chunks return integer sums (:class:`runtime.stats.Moments`)
that add up exactly in any order, and records come back per chunk and are written
by chunk index: the result does not depend on the number of workers, the backend
or the order in which chunks finish.

What is measured of each unit, and the figures with their 95% intervals, are
:mod:`runtime.metrics`; where chunks run is :mod:`runtime.backends`; the words a
person reads of a run are the command line's (``bidcompiler/cli/report.py``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Sequence

from . import draws, metrics, stats
from .backends import BackendError, run_chunks  # noqa: F401  (re-exported: the driver's callers use them)
from .bots import BOTS, make_bot
from .game import GameTally, GameView, deal, first_dealer, next_dealer
from .hand import HandState
from .ruleset import Ruleset

# Units per chunk.  Fixed per mode (never derived from the number of workers), so a
# run is split the same way whatever runs it; small enough to spread over workers
# and show progress, large enough that shipping the ruleset to a worker is noise.
GAMES_PER_CHUNK = 50
HANDS_PER_CHUNK = 500
# A game that has not ended after this many hands stops there and counts as unfinished.
MAX_HANDS = 1000
# A hands-mode run at least this long shuffles compiled, and with random bots plays its tricks
# compiled, where the ``fast`` extra is installed (runtime/playout_fast.py: the same hands).
# numba's import and the kernel's loading cost ~0.5 s CPU a process, repaid at ~13 µs a hand
# only past ~40,000 hands.
COMPILED_FROM = 100_000


# --------------------------------------------------------------------------- playing
def hand_rng(seed: int, index: int) -> random.Random:
    """The generator of hand ``index`` of a hands-mode run seeded with ``seed``."""
    return random.Random(f"bidwhist:{seed}:{index}")


def deal_rng(seed: int, game: int, hand: int) -> random.Random:
    """The generator that deals hand ``hand`` of game ``game`` of a games-mode run."""
    return random.Random(f"bidwhist:{seed}:game:{game}:hand:{hand}")


def bot_rng(seed: int, game: int, hand: int, seat: int) -> random.Random:
    """The generator of ``seat``'s bot in hand ``hand`` of game ``game``."""
    return random.Random(f"bidwhist:{seed}:game:{game}:hand:{hand}:seat:{seat}")


def seat_bots(rules: Ruleset, bots: str | Sequence[str]) -> tuple[str, ...]:
    """The bot kind of each seat: one kind for every seat, or one per side (in side order)."""
    if isinstance(bots, str):
        bots = (bots,)
    bots = tuple(bots)
    if len(bots) == 1:
        return bots * rules.players
    if len(bots) == rules.sides:
        return tuple(bots[rules.side_of[s]] for s in range(rules.players))
    raise ValueError(f"give one bot kind, or one per side ({rules.sides} sides), not {len(bots)}")


# (id of the rules, seed) -> (the rules, the first dealer of a hands-mode run): the same for every
# hand of a run, and a string-seeded generator costs several microseconds to build.
_FIRST_DEALERS: dict[tuple[int, int], tuple[Ruleset, int]] = {}


def _hands_first_dealer(rules: Ruleset, seed: int) -> int:
    """The first dealer of a hands-mode run seeded with ``seed`` (drawn once, then remembered)."""
    key = (id(rules), seed)
    known = _FIRST_DEALERS.get(key)
    if known is not None and known[0] is rules:  # the very rules (an id may be reused once they are gone)
        return known[1]
    if len(_FIRST_DEALERS) >= 64:
        _FIRST_DEALERS.clear()
    dealer = first_dealer(rules, random.Random(f"bidwhist:{seed}:dealer"))
    _FIRST_DEALERS[key] = (rules, dealer)
    return dealer


def play_hand(rules: Ruleset, seed: int, index: int, bot: str | Sequence[str] = "random") -> HandState:
    """Deal and play hand ``index`` of a hands-mode run: the dealer rotates from a seeded first dealer.

    ``bot`` is one bot kind for every seat, or one per side.  The deal and every
    bot draw from the hand's one generator, so a single kind plays exactly as it
    always has for a given seed.
    """
    return hands_player(rules, seed, bot)(index)


def hands_player(rules: Ruleset, seed: int, bot: str | Sequence[str] = "random"):
    """``play(index)``: :func:`play_hand` of ``rules``, ``seed`` and ``bot`` for any hand ``index``.

    What every hand of a run shares (the first dealer, the bot of each seat, whether
    one bot plays the whole hand at once) is worked out here once, not per hand.
    """
    first = _hands_first_dealer(rules, seed)
    kinds = seat_bots(rules, bot)
    kind = kinds[0]
    # A bot that plays a whole hand at once (random: the engine's fused loop), at every seat.
    if len(set(kinds)) == 1 and hasattr(BOTS[kind], "play_to_end"):
        # Its generator lives no longer than the hand (nothing keeps it), so one generator is
        # re-seeded for every hand: ``seed(text)`` leaves it exactly as ``Random(text)`` starts
        # (hand_rng), without allocating a new twister state (2.5 KB) for every hand.
        rng = random.Random.__new__(random.Random)  # seeded below before every use
        reseed = draws.text_seeder(rng)  # rng.seed, one Python layer fewer
        prefix = f"bidwhist:{seed}:"
        bot_class = BOTS[kind]  # what make_bot(kind, rng) calls, looked up in the registry once
        # Hand i's dealer, next_dealer(rules, first, i), repeats every `players` hands: looked up.
        players = rules.players
        dealers = tuple(next_dealer(rules, first, i) for i in range(players))

        def play_whole(index: int) -> HandState:
            reseed(prefix + str(index))  # hand_rng(seed, index)
            hands, kitty = deal(rules, rng)
            state = HandState(rules, dealers[index % players], hands, kitty)
            bot_class(rng).play_to_end(state)  # make_bot(kind, rng): a bot of its own each hand
            return state
        return play_whole

    def play(index: int) -> HandState:
        rng = hand_rng(seed, index)
        hands, kitty = deal(rules, rng)
        state = HandState(rules, next_dealer(rules, first, index), hands, kitty)
        by_kind = {k: make_bot(k, rng) for k in dict.fromkeys(kinds)}  # one bot a kind, drawing from the hand
        seated = [by_kind[k] for k in kinds]
        while not state.is_terminal():
            state.apply_action(seated[state.current_player()].choose(state))
        return state
    return play


@dataclass
class GamePlay:
    """A played game (or rubber): its hands in order, the tally, and who dealt first."""

    index: int
    first_dealer: int
    hands: list[HandState]
    tally: GameTally

    @property
    def winner(self) -> int | None:
        """The winning side, or None when the game stopped unfinished at the hand limit."""
        return self.tally.winner


def play_game(rules: Ruleset, seed: int, game: int, bots: str | Sequence[str] = "random",
              max_hands: int = MAX_HANDS) -> GamePlay:
    """Play game ``game`` of a games-mode run to the variant's end (or ``max_hands`` hands).

    The first dealer comes from ``(seed, game)``, hand ``h`` is dealt from
    :func:`deal_rng` and each seat's bot is made afresh for each hand from
    :func:`bot_rng`, so the same seed plays the same deals under any variant with
    the same deck, whatever happened in earlier hands.  (A kind that never draws,
    ``draws = False``, gets no generator, and one of it plays all its seats of a hand.)
    """
    kinds = seat_bots(rules, bots)
    draws = [getattr(BOTS[k], "draws", True) for k in kinds]
    dealer = first = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{game}:dealer"))
    tally = GameTally(rules)
    hands: list[HandState] = []
    while tally.winner is None and len(hands) < max_hands:
        h = len(hands)
        cards, kitty = deal(rules, deal_rng(seed, game, h))
        state = HandState(rules, dealer, cards, kitty)
        state.game = GameView(tally)  # the bots may know the game's score
        # A kind that never draws (the heuristic) gets no generator (seeding one costs more
        # than the rest of its set-up, and it would draw nothing from it), and one of it
        # plays every seat of its kind, as in play_hand: what it keeps between calls is
        # kept per seat or is what every seat has seen, so its calls are the same.
        shared: dict[str, object] = {}
        players = []
        for s in range(rules.players):
            if draws[s]:
                players.append(make_bot(kinds[s], bot_rng(seed, game, h, s)))
                continue
            bot = shared.get(kinds[s])
            if bot is None:
                bot = shared[kinds[s]] = make_bot(kinds[s], None)
            players.append(bot)
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose(state))
        hands.append(state)
        tally.add_hand(state)
        dealer = tally.next_dealer(state)
    return GamePlay(game, first, hands, tally)


# --------------------------------------------------------------------------- chunks
@dataclass(frozen=True)
class RunSpec:
    """What a run plays: the mode, how many units, the seed, the bots and the chunking.

    ``records`` is ``(variant, with_rules)`` when chunks should return each hand as a
    ``bidwhist-hand/1`` record line naming that variant, else None.
    """

    mode: str  # "hands" or "games"
    count: int
    seed: int
    bots: tuple[str, ...] = ("random",)
    max_hands: int = MAX_HANDS
    chunk_size: int = 0  # 0: the mode's default
    records: tuple[str, tuple[str, ...]] | None = None

    def __post_init__(self):
        if self.mode not in ("hands", "games"):
            raise ValueError(f"mode must be 'hands' or 'games', not {self.mode!r}")
        if self.count < 1:
            raise ValueError("a run plays at least one hand or game")

    @property
    def size(self) -> int:
        """Units per chunk."""
        return self.chunk_size or (GAMES_PER_CHUNK if self.mode == "games" else HANDS_PER_CHUNK)

    @property
    def chunks(self) -> int:
        """How many chunks the run has."""
        return -(-self.count // self.size)

    def units(self, index: int) -> range:
        """The unit indices (hands or games) of chunk ``index``."""
        return range(index * self.size, min(self.count, (index + 1) * self.size))


@dataclass
class ChunkResult:
    """What one chunk returns: integer sums, histograms and (if asked) record lines.

    ``moments[key]`` are :class:`runtime.stats.Moments` sums of per-unit vectors:
    ``(y, n)`` for a simulation, ``(y_a, n_a, y_b, n_b)`` for a comparison.
    ``records`` (simulations only) holds each unit's record lines, in unit order.
    """

    index: int
    units: int
    hands: tuple[int, ...]
    moments: dict[str, stats.Moments]
    histograms: dict[str, Counter]
    records: list[list[str]] | None = None


def _play_unit(rules: Ruleset, spec: RunSpec, unit: int) -> tuple[list[HandState], GamePlay | None]:
    if spec.mode == "hands":
        return [play_hand(rules, spec.seed, unit, spec.bots)], None
    play = play_game(rules, spec.seed, unit, spec.bots, spec.max_hands)
    return play.hands, play


def _observe_unit(rules: Ruleset, spec: RunSpec, unit: int, contracts: Sequence[str],
                  histograms: dict, prefix: str = "", strains: metrics.Strains | None = None):
    """Play one unit; its observation (key -> [y, n]) and its hands (``strains``: metrics.strain_ladder)."""
    states, play = _play_unit(rules, spec, unit)
    obs: dict[str, list[int]] = {}
    metrics.hands_observation(obs, states, contracts, strains)
    points = histograms.setdefault(prefix + "declarer-points", Counter())
    for state in states:
        if state.declarer >= 0:
            points[state.score[rules.side_of[state.declarer]]] += 1
    if play is not None:
        metrics.game_observation(obs, play)
        histograms.setdefault(prefix + "length", Counter())[len(states)] += 1
    return obs, states


# A bound on the hand outcomes kept per ruleset (scores x contracts x books splits: a few thousand
# in any variant; the bound only guards odd rules).
_OUTCOME_MEMO_CAP = 50_000


def _new_outcome_memo(rules: Ruleset) -> dict:
    return {}


def run_chunk(rules: Ruleset, spec: RunSpec, index: int) -> ChunkResult:
    """Play chunk ``index`` of a simulation of ``rules`` (a top-level function: it crosses process pools)."""
    contracts = metrics.ladder(rules)
    strains = metrics.strain_ladder(rules)
    moments: dict[str, stats.Moments] = {}
    histograms: dict[str, Counter] = {}
    records = [] if spec.records is not None else None
    hands = 0
    units = spec.units(index)
    if spec.mode == "hands":  # one hand a unit: count the hands by outcome, one observation per outcome
        if spec.count >= COMPILED_FROM:
            draws.prefer_compiled()  # unless BIDWHIST_FAST_PLAYOUT=0; the same hands either way
        # Hands are counted by their facts (metrics.hand_key, cheap to take), and each distinct
        # one's outcome (which asks the rules: the sweep, the declared kind) worked out once after.
        keys: dict = {}  # key -> hands; a plain dict's get counts cheaper than a Counter's += (0.5 µs a hand)
        seen = keys.get
        hand_key = metrics.hand_key
        play = hands_player(rules, spec.seed, spec.bots)
        for unit in units:
            state = play(unit)
            key = hand_key(state)
            keys[key] = seen(key, 0) + 1
            if records is not None:
                variant, with_rules = spec.records
                records.append([_record_line(state, variant, with_rules)])
        outcomes: Counter = Counter()
        # A key's outcome depends on the rules alone (strains is theirs): remembered across chunks.
        known = rules.derived("hand_outcomes", _new_outcome_memo)
        for key, count in keys.items():  # in first-seen order, so the outcomes are too
            out = known.get(key)
            if out is None:
                out = metrics.outcome_of(rules, key, strains)
                if len(known) < _OUTCOME_MEMO_CAP:
                    known[key] = out
            outcomes[out] += count
        # Each outcome's figures, too, depend on the rules alone (contracts and strains are theirs):
        # built once per ruleset, not once per chunk (~0.5 µs a hand).
        metrics.add_hand_outcomes(moments, histograms.setdefault("declarer-points", Counter()), outcomes,
                                  rules, contracts, strains, rules.derived("hand_outcome_rows", _new_outcome_memo))
        return ChunkResult(index, len(units), (len(units),), moments, histograms, records)
    for unit in units:
        obs, states = _observe_unit(rules, spec, unit, contracts, histograms, strains=strains)
        hands += len(states)
        for key, (y, n) in obs.items():  # metrics.add_moments and Moments.add written out: ~25 a hand
            m = moments.get(key)
            if m is None:
                m = moments[key] = stats.Moments(2)
            sums = m.sums
            sums[0] += y
            sums[1] += n
            sums[2] += y * y
            sums[3] += y * n
            sums[4] += n * n
        if records is not None:
            variant, with_rules = spec.records
            records.append([_record_line(s, variant, with_rules) for s in states])
    return ChunkResult(index, len(units), (hands,), moments, histograms, records)


def run_compare_chunk(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, index: int) -> ChunkResult:
    """Play chunk ``index`` under two variants with the same seeds; paired sums per unit."""
    contracts = list(dict.fromkeys(metrics.ladder(rules_a) + metrics.ladder(rules_b)))
    strains_a, strains_b = metrics.strain_ladder(rules_a), metrics.strain_ladder(rules_b)
    moments: dict[str, stats.Moments] = {}
    histograms: dict[str, Counter] = {}
    hands_a = hands_b = 0
    units = spec.units(index)
    for unit in units:
        obs_a, states_a = _observe_unit(rules_a, spec, unit, contracts, histograms, "a:", strains_a)
        obs_b, states_b = _observe_unit(rules_b, spec, unit, contracts, histograms, "b:", strains_b)
        hands_a += len(states_a)
        hands_b += len(states_b)
        for key in obs_a.keys() | obs_b.keys():
            ya, na = obs_a.get(key, (0, 0))
            yb, nb = obs_b.get(key, (0, 0))
            metrics.add_moments(moments, key, (ya, na, yb, nb))
    return ChunkResult(index, len(units), (hands_a, hands_b), moments, histograms)


def _record_line(state: HandState, variant: str, with_rules) -> str:
    # Imported here, not with the module: a run that writes no records (most of them) does not
    # pay runtime.records' import (~5 ms CPU of every start-up: its parsers and patterns).
    from .records import hand_record  # noqa: PLC0415

    return json.dumps(hand_record(state, variant, list(with_rules)))


@dataclass
class Totals:
    """The chunks of a run added up."""

    units: int = 0
    hands: tuple[int, ...] = ()
    moments: dict[str, stats.Moments] = field(default_factory=dict)
    histograms: dict[str, Counter] = field(default_factory=dict)

    def add(self, r: ChunkResult) -> None:
        """Fold one chunk's result in (chunks are added in chunk-index order, as they are delivered,
        so keys first appear in the same order as when every result was kept and added at the end)."""
        self.units += r.units
        self.hands = tuple(a + b for a, b in zip(self.hands, r.hands)) if self.hands else tuple(r.hands)
        for key, m in r.moments.items():
            if key in self.moments:
                self.moments[key].merge(m)
            else:
                self.moments[key] = stats.Moments(m.k, m.sums)
        for key, hist in r.histograms.items():
            self.histograms.setdefault(key, Counter()).update(hist)


def combine(results: Sequence[ChunkResult]) -> Totals:
    """Add up chunk results (given in chunk-index order; integer sums, so any order agrees)."""
    total = Totals()
    for r in results:
        total.add(r)
    return total


# --------------------------------------------------------------------------- running a simulation
def folded(fn, args: tuple, n_chunks: int, on_result=None, **options) -> Totals:
    """Run chunks and fold each result into the totals as it is due, keeping none of them.

    Memory stays flat however many chunks a run has: a result is added to the totals
    (after ``on_result``, if given, has seen it, e.g. to write its records) and let go.
    ``options`` are those of :func:`run_chunks`.
    """
    total = Totals()

    def fold(i: int, result: ChunkResult) -> None:
        if on_result is not None:
            on_result(i, result)
        total.add(result)

    run_chunks(fn, args, n_chunks, on_result=fold, keep=False, **options)
    return total


def simulate(rules: Ruleset, spec: RunSpec, **options) -> Totals:
    """Run a simulation of ``rules``, folding chunks as they come; ``options`` are those of :func:`folded`."""
    return folded(run_chunk, (rules, spec), spec.chunks, **options)


def compare(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, **options) -> Totals:
    """Play the same units under two variants; paired sums (see :func:`run_compare_chunk`)."""
    return folded(run_compare_chunk, (rules_a, rules_b, spec), spec.chunks, **options)
