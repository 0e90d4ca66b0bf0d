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
process, in a local process pool or on a Dask cluster (:func:`run_chunks`).  Every
unit is seeded from the one master seed and its index, chunks return integer sums
(:class:`runtime.stats.Moments`) that add up exactly in any order, and records come
back per chunk and are written by chunk index: the result does not depend on the
number of workers, the backend or the order in which chunks finish.

Figures are ratios ``sum(y) / sum(n)`` over units (see :data:`METRIC_KINDS`): the
share of hands with a given contract, the make rate of a contract, points per hand,
hands per game, and so on; :mod:`runtime.stats` gives their 95% intervals, and the
paired differences between two variants.
"""

from __future__ import annotations

import hashlib
import json
import math
import multiprocessing
import pickle
import random
import re
import signal
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Callable, NamedTuple, Sequence

from . import stats
from .bots import make_bot
from .game import GameTally, deal, first_dealer
from .hand import HandState
from .records import hand_record
from .ruleset import Ruleset

# Units per chunk.  Fixed per mode (never derived from the number of workers), so a
# run is split the same way whatever runs it; small enough to spread over workers
# and show progress, large enough that shipping the ruleset to a worker is noise.
GAMES_PER_CHUNK = 50
HANDS_PER_CHUNK = 500
# A game that has not ended after this many hands stops there and counts as unfinished.
MAX_HANDS = 1000


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


def bots_description(bots: str | Sequence[str]) -> str:
    """The bots of a run in words, as a report's header gives them: ``heuristic``, or
    ``side 0 heuristic, side 1 random`` when each side has its own kind."""
    kinds = (bots,) if isinstance(bots, str) else tuple(bots)
    if len(set(kinds)) == 1:
        return kinds[0]
    return ", ".join(f"side {side} {kind}" for side, kind in enumerate(kinds))


def play_hand(rules: Ruleset, seed: int, index: int, bot: str | Sequence[str] = "random") -> HandState:
    """Deal and play hand ``index`` of a hands-mode run: the dealer rotates from a seeded first dealer.

    ``bot`` is one bot kind for every seat, or one per side.  The deal and every
    bot draw from the hand's one generator, so a single kind plays exactly as it
    always has for a given seed.
    """
    first = random.Random(f"bidwhist:{seed}:dealer").randrange(rules.players)
    dealer = (first + index * rules.rotation) % rules.players
    rng = hand_rng(seed, index)
    hands, kitty = deal(rules, rng)
    state = HandState(rules, dealer, hands, kitty)
    kinds = seat_bots(rules, bot)
    if len(set(kinds)) == 1:
        player = make_bot(kinds[0], rng)
        while not state.is_terminal():
            state.apply_action(player.choose(state))
        return state
    by_kind = {kind: make_bot(kind, rng) for kind in dict.fromkeys(kinds)}
    players = [by_kind[k] for k in kinds]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].choose(state))
    return state


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
    the same deck, whatever happened in earlier hands.
    """
    kinds = seat_bots(rules, bots)
    dealer = first = first_dealer(rules, random.Random(f"bidwhist:{seed}:game:{game}:dealer"))
    tally = GameTally(rules)
    hands: list[HandState] = []
    while tally.winner is None and len(hands) < max_hands:
        h = len(hands)
        cards, kitty = deal(rules, deal_rng(seed, game, h))
        state = HandState(rules, dealer, cards, kitty)
        players = [make_bot(kinds[s], bot_rng(seed, game, h, s)) for s in range(rules.players)]
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].choose(state))
        hands.append(state)
        tally.add_hand(state)
        dealer = tally.next_dealer(state)
    return GamePlay(game, first, hands, tally)


# --------------------------------------------------------------------------- what is measured
# Every figure is a ratio sum(y) / sum(n) over the run's units; its key names it.
# ``proportion`` figures count events among trials (Wilson intervals), ``mean`` ones
# average a quantity (t intervals).  Keys with a ``:`` carry a contract, side or position.
# The families are listed in the order reports show them (metric_order).
METRIC_KINDS = {
    "contract": "proportion",        # y: hands with this contract, n: hands dealt
    "made": "proportion",            # made:<contract> / made: y made, n contracts
    "set": "proportion",             # y: contracts set, n: contracts
    "sweep": "proportion",           # y: one side took every book, n: contracts
    "redeal": "proportion",          # y: hands that ended without a contract, n: hands dealt
    "declarer-points": "mean",       # y: the declaring side's score, n: contracts
    "points": "mean",                # points:<side>: y its score, n: hands dealt
    "length": "mean",                # y: hands in the game (thrown-in hands count), n: 1 per game
    "sets-per-game": "mean",         # y: contracts set in the game, n: 1 per game
    "win": "proportion",             # win:<side>: y 1 if it won the game, n: 1 per game
    "dealer-win": "proportion",      # dealer-win:<position>: see DEALER_POSITION
    "unfinished": "proportion",      # y: the game reached the hand limit undecided, n: 1 per game
}

DEALER_POSITION = ("Wins by dealer position count, for each game, the position of the winning side "
                   "relative to the seat that dealt the game's first hand (a rubber's first hand where "
                   "the variant plays rubbers): position 0 is that dealer's own side, position 1 the side "
                   "of the player on its left, and so on (with partners: the dealer's side, the other side).")


def kind_of(key: str) -> str:
    """``proportion`` or ``mean``: how a figure is estimated."""
    return METRIC_KINDS[key.split(":", 1)[0]]


def position_name(position: int) -> str:
    """Words for a side's position relative to the first dealer."""
    if position == 0:
        return "the first dealer's side"
    if position == 1:
        return "the side on the first dealer's left"
    return f"the side {position} seats left of the first dealer"


class _Words(NamedTuple):
    """How a figure family is named: in tables, in a list of nouns, and in a sentence."""

    label: str     # a table's row: "side {arg} wins"
    noun: str      # after "no clear difference in": "how often side {arg} wins"
    sentence: str  # a difference b − a, see difference_sentence: "side {arg} wins {amount} {often}"


# The words of every family but ``contract`` and ``made`` (whose words depend on
# whether a contract is named), side by side so that a new family gets all of them
# at once.  ``{arg}`` is the key's side, or for ``dealer-win`` its position in words.
_WORDS = {
    "set": _Words("contracts set", "how often declarers are set",
                  "declarers are set {amount} {often}"),
    "sweep": _Words("sweeps (one side takes every book)", "sweeps",
                    "a side takes every book {amount} {often}"),
    "redeal": _Words("hands thrown in (no contract)", "hands thrown in",
                     "hands are thrown in {amount} {often}"),
    "declarer-points": _Words("declarers' points per contract", "declarers' points per contract",
                              "declarers score {amount} {more} points per contract"),
    "points": _Words("side {arg} points per hand", "side {arg}'s points per hand",
                     "side {arg} scores {amount} {more} points per hand"),
    "length": _Words("hands per game", "game length",
                     "games are {amount} hands {longer}"),
    "sets-per-game": _Words("sets per game", "sets per game",
                            "games have {amount} {more} sets"),
    "win": _Words("side {arg} wins", "how often side {arg} wins",
                  "side {arg} wins {amount} {often}"),
    "dealer-win": _Words("{arg} wins", "how often {arg} wins",
                         "{arg} wins {amount} {often}"),
    "unfinished": _Words("games unfinished at the hand limit", "unfinished games",
                         "games reach the hand limit undecided {amount} {often}"),
}


def _words(family: str, arg: str, form: str, **fields) -> str:
    """One of the ``_WORDS`` of ``family`` (``form``: label, noun or sentence), filled in."""
    if family == "dealer-win":
        arg = position_name(int(arg or 0))
    return getattr(_WORDS[family], form).format(arg=arg, **fields)


def metric_label(key: str) -> str:
    """A short label for tables: ``4 notrump bid``, ``hands per game``."""
    family, _, arg = key.partition(":")
    if family == "contract":
        return f"{arg} bid"
    if family == "made":
        return f"{arg} made" if arg else "contracts made"
    return _words(family, arg, "label")


def metric_noun(key: str) -> str:
    """The figure in words, for "no clear difference in …"."""
    family, _, arg = key.partition(":")
    if family == "contract":
        return f"how often {arg} is bid"
    if family == "made":
        return f"how often {arg} is made" if arg else "how often contracts are made"
    return _words(family, arg, "noun")


def metric_order(keys, contracts: Sequence[str]) -> list[str]:
    """``keys`` in the order reports show them: contracts in ladder order, then the rest."""
    rank = {c: i for i, c in enumerate(contracts)}
    families = tuple(METRIC_KINDS)  # listed there in report order

    def order(key):
        family, _, arg = key.partition(":")
        if family in ("contract", "made") and arg:
            sub = (rank.get(arg, len(rank)), arg)
        elif arg:
            sub = (int(arg), "")
        else:
            sub = (-1, "")
        return (families.index(family), sub)

    return sorted(keys, key=order)


def ladder(rules: Ruleset) -> list[str]:
    """The contracts of a variant's bid ladder, lowest first (names as bid)."""
    return [b.text for b in rules.bids]


def _count(obs: dict, key: str, y: int) -> None:
    """Add one trial with value ``y`` to figure ``key`` of an observation (key -> [y, n])."""
    entry = obs.setdefault(key, [0, 0])
    entry[0] += y
    entry[1] += 1


def _hands_observation(obs: dict, states: Sequence[HandState], contracts: Sequence[str]) -> None:
    """Add the hand-level figures of one unit's hands to ``obs`` (key -> [y, n])."""
    counts = Counter()
    thrown_in = 0
    rules = states[0].rules if states else None
    for state in states:
        for side, points in enumerate(state.score):
            _count(obs, f"points:{side}", points)
        if state.declarer < 0:
            thrown_in += 1
            continue
        name = rules.bids[state.bid].text
        counts[name] += 1
        made = 1 if state.made else 0
        _count(obs, f"made:{name}", made)
        _count(obs, "made", made)
        _count(obs, "set", 1 - made)
        books = state.books
        _count(obs, "sweep", 1 if sum(books) and max(books) == sum(books) else 0)
        _count(obs, "declarer-points", state.score[rules.side_of[state.declarer]])
    hands = len(states)
    # Every contract of the ladder gets its share, bid or not: a share of zero is a figure.
    for name in contracts:
        obs[f"contract:{name}"] = [counts.get(name, 0), hands]
    obs["redeal"] = [thrown_in, hands]


def _game_observation(obs: dict, play: GamePlay) -> None:
    """Add the game-level figures of one game to ``obs``."""
    rules = play.tally.rules
    obs["length"] = [len(play.hands), 1]
    obs["sets-per-game"] = [sum(1 for s in play.hands if s.made is False), 1]
    winner = play.winner
    position = None
    if winner is not None:
        position = min((s - play.first_dealer) % rules.players
                       for s in range(rules.players) if rules.side_of[s] == winner)
    for side in range(rules.sides):
        obs[f"win:{side}"] = [1 if side == winner else 0, 1]
    # A side's position is the smallest offset of its seats from the first dealer;
    # sides sit interleaved around the table, so the positions are 0 .. sides - 1.
    for p in range(rules.sides):
        obs[f"dealer-win:{p}"] = [1 if position == p else 0, 1]
    obs["unfinished"] = [1 if winner is None else 0, 1]


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
                  histograms: dict, prefix: str = ""):
    """Play one unit; its observation (key -> [y, n]) and its hands."""
    states, play = _play_unit(rules, spec, unit)
    obs: dict[str, list[int]] = {}
    _hands_observation(obs, states, contracts)
    points = histograms.setdefault(prefix + "declarer-points", Counter())
    for state in states:
        if state.declarer >= 0:
            points[state.score[rules.side_of[state.declarer]]] += 1
    if play is not None:
        _game_observation(obs, play)
        histograms.setdefault(prefix + "length", Counter())[len(states)] += 1
    return obs, states


def _add_moments(moments: dict[str, stats.Moments], key: str, vector: tuple[int, ...]) -> None:
    """Count one unit's vector of figure ``key``, starting its sums the first time the figure is seen."""
    m = moments.get(key)
    if m is None:
        m = moments[key] = stats.Moments(len(vector))
    m.add(vector)


def run_chunk(rules: Ruleset, spec: RunSpec, index: int) -> ChunkResult:
    """Play chunk ``index`` of a simulation of ``rules`` (a top-level function: it crosses process pools)."""
    contracts = ladder(rules)
    moments: dict[str, stats.Moments] = {}
    histograms: dict[str, Counter] = {}
    records = [] if spec.records is not None else None
    hands = 0
    units = spec.units(index)
    for unit in units:
        obs, states = _observe_unit(rules, spec, unit, contracts, histograms)
        hands += len(states)
        for key, (y, n) in obs.items():
            _add_moments(moments, key, (y, n))
        if records is not None:
            variant, with_rules = spec.records
            records.append([_record_line(s, variant, with_rules) for s in states])
    return ChunkResult(index, len(units), (hands,), moments, histograms, records)


def run_compare_chunk(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, index: int) -> ChunkResult:
    """Play chunk ``index`` under two variants with the same seeds; paired sums per unit."""
    contracts = list(dict.fromkeys(ladder(rules_a) + ladder(rules_b)))
    moments: dict[str, stats.Moments] = {}
    histograms: dict[str, Counter] = {}
    hands_a = hands_b = 0
    units = spec.units(index)
    for unit in units:
        obs_a, states_a = _observe_unit(rules_a, spec, unit, contracts, histograms, "a:")
        obs_b, states_b = _observe_unit(rules_b, spec, unit, contracts, histograms, "b:")
        hands_a += len(states_a)
        hands_b += len(states_b)
        for key in obs_a.keys() | obs_b.keys():
            ya, na = obs_a.get(key, (0, 0))
            yb, nb = obs_b.get(key, (0, 0))
            _add_moments(moments, key, (ya, na, yb, nb))
    return ChunkResult(index, len(units), (hands_a, hands_b), moments, histograms)


def _record_line(state: HandState, variant: str, with_rules) -> str:
    return json.dumps(hand_record(state, variant, list(with_rules)))


@dataclass
class Totals:
    """The chunks of a run added up."""

    units: int = 0
    hands: tuple[int, ...] = ()
    moments: dict[str, stats.Moments] = field(default_factory=dict)
    histograms: dict[str, Counter] = field(default_factory=dict)


def combine(results: Sequence[ChunkResult]) -> Totals:
    """Add up chunk results (given in chunk-index order; integer sums, so any order agrees)."""
    total = Totals()
    for r in results:
        total.units += r.units
        total.hands = tuple(a + b for a, b in zip(total.hands, r.hands)) if total.hands else tuple(r.hands)
        for key, m in r.moments.items():
            if key in total.moments:
                total.moments[key].merge(m)
            else:
                total.moments[key] = stats.Moments(m.k, m.sums)
        for key, hist in r.histograms.items():
            total.histograms.setdefault(key, Counter()).update(hist)
    return total


# --------------------------------------------------------------------------- running chunks
class BackendError(Exception):
    """A backend cannot be used (an optional extra is missing, a scheduler is unreachable)."""


def _pool_context():
    # Not fork: a forked child inherits whatever threads hold locks (a progress bar's
    # refresher, a Dask client's event loop), and Python 3.14 no longer forks by
    # default anyway.  forkserver forks workers from a clean server process.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class _Shipped:
    """A Ruleset on its way to a pool's worker: one object per worker process, not per chunk.

    Each chunk's arguments are pickled anew; unpickled plainly, every chunk would get
    a fresh Ruleset, rebuild its formulas, and leave the bots' per-ruleset
    precomputation (keyed by identity) cold.  This pickles as the ruleset's bytes
    and a digest and unpickles to the worker's one copy of that ruleset.
    """

    def __init__(self, rules: Ruleset):
        self.data = pickle.dumps(rules)
        self.key = hashlib.sha256(self.data).hexdigest()

    def __reduce__(self):
        return (_arrived, (self.key, self.data))


_ARRIVED: dict[str, Ruleset] = {}  # in a worker: the rulesets received, by digest


def _arrived(key: str, data: bytes) -> Ruleset:
    rules = _ARRIVED.get(key)
    if rules is None:
        rules = _ARRIVED[key] = pickle.loads(data)
    return rules


def _worker_ignores_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's process group: the parent
    # handles it (it ends the workers, see _stop_pool, and exits); workers stay quiet
    # instead of each printing a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    # shutdown() alone lets running and already queued chunks finish first (the
    # interpreter waits for them on exit), which can take long; end the workers.
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


def run_chunks(fn: Callable, args: tuple, n_chunks: int, *, workers: int = 1, backend: str = "local",
               scheduler: str | None = None, on_result: Callable[[int, object], None] | None = None,
               on_progress: Callable[[int, object], None] | None = None,
               preload: Sequence[str] = ()) -> list:
    """Run ``fn(*args, i)`` for every chunk ``i`` and return the results by chunk index.

    ``backend="local"`` runs the chunks in this process (``workers=1``) or on a local
    process pool of ``workers`` processes; ``backend="dask"`` submits the same calls
    to the Dask scheduler at ``scheduler`` (the optional ``distributed`` extra).
    ``on_progress(i, result)`` sees results as they finish, in any order;
    ``on_result(i, result)`` sees them in chunk order (later ones wait), so it can
    write records in order.  ``preload`` names modules a pool's server process
    imports once, so that workers start warm (those needed to unpickle ``args``).
    """
    results: list = [None] * n_chunks
    done = [False] * n_chunks
    next_in_order = 0

    def deliver(i: int, result) -> None:
        nonlocal next_in_order
        results[i] = result
        done[i] = True
        if on_progress is not None:
            on_progress(i, result)
        while next_in_order < n_chunks and done[next_in_order]:
            if on_result is not None:
                on_result(next_in_order, results[next_in_order])
            next_in_order += 1

    if backend == "dask":
        _run_dask(fn, args, n_chunks, scheduler, deliver)
    elif backend != "local":
        raise ValueError(f"unknown backend {backend!r}")
    elif workers <= 1 or n_chunks <= 1:
        for i in range(n_chunks):
            deliver(i, fn(*args, i))
    else:
        context = _pool_context()
        if preload and context.get_start_method() == "forkserver":
            context.set_forkserver_preload(list(preload))
        pool = ProcessPoolExecutor(max_workers=min(workers, n_chunks), mp_context=context,
                                   initializer=_worker_ignores_interrupts)
        try:
            shipped = tuple(_Shipped(a) if isinstance(a, Ruleset) else a for a in args)
            futures = {pool.submit(fn, *shipped, i): i for i in range(n_chunks)}
            for future in as_completed(futures):
                deliver(futures[future], future.result())
        except BaseException:  # an interrupt, or a chunk that failed: stop the others now
            _stop_pool(pool)
            raise
        pool.shutdown()
    return results


def _run_dask(fn, args, n_chunks, scheduler, deliver) -> None:
    try:
        from dask.distributed import Client, as_completed as dask_completed
    except ImportError:
        raise BackendError("--backend dask needs the optional 'distributed' extra: "
                           "pip install 'bidwhist[distributed]'") from None
    if not scheduler:
        raise BackendError("--backend dask needs --scheduler ADDRESS (the address of a running Dask scheduler)")
    try:
        # An address Dask cannot even parse is refused before a Client exists: a
        # half-built Client spends 20 s trying to close itself on the way out.
        from distributed.comm import parse_address
        from distributed.comm.registry import get_backend
        get_backend(parse_address(scheduler)[0])
    except (ValueError, TypeError) as exc:
        raise BackendError(f"{scheduler} is not a Dask scheduler address: {exc}") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BackendError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        # pure=False: the calls are deterministic, but hashing a Ruleset (compiled
        # formulas) for Dask's task keys is wasted work; each chunk is its own task.
        # Rulesets go to every worker once (Dask keeps one copy per worker for all
        # its tasks), not with each task: see _Shipped for why one copy matters.
        shipped = tuple(client.scatter(a, broadcast=True, hash=False) if isinstance(a, Ruleset) else a
                        for a in args)
        futures = [client.submit(fn, *shipped, i, pure=False) for i in range(n_chunks)]
        index = {f.key: i for i, f in enumerate(futures)}
        for future in dask_completed(futures, loop=client.loop):
            deliver(index[future.key], future.result())
    finally:
        client.close()


# --------------------------------------------------------------------------- running a simulation
def simulate(rules: Ruleset, spec: RunSpec, **options) -> tuple[Totals, list[ChunkResult]]:
    """Run a simulation of ``rules``; ``options`` are those of :func:`run_chunks`."""
    results = run_chunks(run_chunk, (rules, spec), spec.chunks, **options)
    return combine(results), results


def compare(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, **options) -> Totals:
    """Play the same units under two variants; paired sums (see :func:`run_compare_chunk`)."""
    results = run_chunks(run_compare_chunk, (rules_a, rules_b, spec), spec.chunks, **options)
    return combine(results)


def _interval(units: int, m: stats.Moments, kind: str, y: int = 0, n: int = 1) -> stats.Interval:
    if kind == "proportion":
        return stats.ratio_proportion_interval(m, y, n)
    return stats.ratio_interval(units, m, y, n)


def _difference(units: int, m: stats.Moments, kind: str) -> stats.Interval:
    """The paired difference b − a of a figure (components 0, 1 for a; 2, 3 for b), as ``_interval`` estimates it."""
    if kind == "proportion":
        return stats.paired_proportion_ratio_difference(units, m)
    return stats.paired_ratio_difference(units, m)


def _stat_json(key: str, interval: stats.Interval) -> dict:
    return {"label": metric_label(key), "kind": kind_of(key), **interval.as_json()}


def _histogram_json(hist: Counter | None) -> dict:
    return {str(k): hist[k] for k in sorted(hist)} if hist else {}


def simulation_summary(rules: Ruleset, spec: RunSpec, totals: Totals, variant: dict | None = None) -> dict:
    """The figures of a simulation for programs (``simulate --json``).

    ``variant`` says what was run as the user named it (``{"variant": the full
    description, ...its parts}``, see ``bidwhist simulate``); without it the
    ruleset's own name stands.  ``bots`` is the bot kind of each seat and
    ``bots_description`` the same in words, as the text header says it.

    Besides ``statistics`` (every figure as ``{label, kind, value, low, high, n}``)
    it keeps the plain figures of earlier versions: ``contracts``, ``make_rate``,
    ``mean_score``, ``mean_declarer_score``, ``no_contract``.
    """
    m = totals.moments
    contracts = ladder(rules)
    keys = metric_order(m, contracts)
    statistics = {k: _stat_json(k, _interval(totals.units, m[k], kind_of(k))) for k in keys}
    hands = totals.hands[0]

    def count(key):
        return m[key].total(0) if key in m else 0

    rows = []
    for name in contracts:
        n = count(f"contract:{name}")
        if not n:
            continue
        made = count(f"made:{name}")
        rows.append({"contract": name, "count": n, "share": n / hands, "made": made, "make_rate": made / n,
                     "share_interval": _bare(statistics[f"contract:{name}"]),
                     "make_rate_interval": _bare(statistics[f"made:{name}"])})
    contracted = m["made"].total(1) if "made" in m else 0
    return {
        **(variant or {"variant": rules.name}),
        "mode": spec.mode,
        "seed": spec.seed,
        "bots": list(seat_bots(rules, spec.bots)),
        "bots_description": bots_description(spec.bots),
        "games": totals.units if spec.mode == "games" else None,
        "hands": hands,
        "max_hands": spec.max_hands if spec.mode == "games" else None,
        "no_contract": count("redeal"),
        "contracts": rows,
        "make_rate": (count("made") / contracted) if contracted else None,
        "mean_score": [m[f"points:{s}"].total(0) / hands for s in range(rules.sides)],
        "mean_declarer_score": (count("declarer-points") / contracted) if contracted else None,
        "statistics": statistics,
        "distributions": {
            "declarer_points": _histogram_json(totals.histograms.get("declarer-points")),
            "game_length": _histogram_json(totals.histograms.get("length")),
        },
        "definitions": {"dealer_position": DEALER_POSITION} if spec.mode == "games" else {},
    }


def _bare(stat: dict) -> dict:
    return {k: stat[k] for k in ("value", "low", "high", "n")}


# --------------------------------------------------------------------------- comparing
def _decimals(half_width: float) -> int:
    """Decimals that show one significant digit of a ``±``."""
    if not half_width or half_width <= 0 or not math.isfinite(half_width):
        return 1
    return max(0, -math.floor(math.log10(half_width)))


def _percent(value: float, half: float | None = None) -> str:
    digits = _decimals(half * 100) if half else 0
    while value and round(value * 100, digits) == 0 and digits < 6:
        digits += 1  # a figure that happened is not shown as 0%
    return f"{value * 100:.{digits}f}%"


def is_symmetric(interval: stats.Interval) -> bool:
    """Whether an interval is centred on its value closely enough for ``value ± half`` to say it.

    Means and their differences are; a difference of proportions near 0 or 1 often is
    not (its interval stops at ±100 points), and is then written as a range.
    """
    below, above = interval.value - interval.low, interval.high - interval.value
    return abs(above - below) <= 0.1 * max(above, below)


def _plusminus(d: stats.Interval, percent: bool) -> str:
    """The size of a significant difference: ``31% ± 3%``, or ``100% (21% to 100%)`` where its
    interval is lopsided; in as many decimals as it takes for the printed interval to
    stay clear of zero, as the interval does."""
    scale, unit = (100, "%") if percent else (1, "")
    size = abs(d.value) * scale
    if is_symmetric(d):
        half = (d.high - d.low) / 2 * scale
        digits = _decimals(half)
        while digits < 6 and round(size, digits) <= round(half, digits):
            digits += 1
        return f"{size:.{digits}f}{unit} ± {half:.{digits}f}{unit}"
    near, far = sorted((abs(d.low) * scale, abs(d.high) * scale))
    digits = _decimals(min(size - near, far - size) or (far - near))
    close = digits  # the bound nearest zero gets the decimals that keep it off zero
    while close < 6 and round(near, close) == 0:
        close += 1
    return f"{size:.{digits}f}{unit} ({near:.{close}f}{unit} to {far:.{digits}f}{unit})"


def difference_sentence(key: str, a: stats.Interval, b: stats.Interval, d: stats.Interval) -> str:
    """A player's sentence for a difference ``b − a`` ("4 notrump is bid 31% ± 3% less often")."""
    family, _, arg = key.partition(":")
    up = d.value > 0
    half = d.half_width or 0.0
    pct = kind_of(key) == "proportion"
    amount = _plusminus(d, pct)
    often = "more often" if up else "less often"
    more = "more" if up else "fewer"
    if family == "contract":
        now = "never" if b.value == 0 else f"in {_percent(b.value, half)} of hands"
        before = "never" if a.value == 0 else f"in {_percent(a.value, half)}"
        if b.value == 0:
            before += " of hands"
        return f"{arg} is bid {amount} {often} ({now}, instead of {before})"
    if family == "made":
        what = arg or "contracts"
        verb = "is" if arg else "are"
        return (f"{what} {verb} made {amount} {often} "
                f"({_percent(b.value, half)} of the time, instead of {_percent(a.value, half)})")
    if family not in _WORDS:
        raise KeyError(key)
    return _words(family, arg, "sentence", amount=amount, often=often, more=more,
                  longer="longer" if up else "shorter")


def same_deals(rules_a: Ruleset, rules_b: Ruleset) -> bool:
    """Whether a seed deals the same cards under both variants: the same deck, players,
    hand size and kitty.  (Otherwise a comparison still draws both from the same seeds,
    but the cards differ.)"""
    return (rules_a.deck() == rules_b.deck() and rules_a.players == rules_b.players
            and rules_a.hand_size == rules_b.hand_size and rules_a.kitty_size == rules_b.kitty_size)


def comparison_summary(rules_a: Ruleset, rules_b: Ruleset, spec: RunSpec, totals: Totals,
                       names: tuple[str | dict, str | dict]) -> dict:
    """The paired differences of a comparison (``b − a``), for programs and for words.

    ``names`` says what A and B are, as the user named them: each a name, or a
    description ``{"variant": the full description, ...its parts}``.  ``bots`` are
    the kinds as given (one for every seat, or one per side) and
    ``bots_description`` the same in words.

    Each entry of ``differences`` holds both variants' figures, the difference with
    its interval, whether it is significant (the interval excludes 0) and, if so,
    the sentence that says it; ``summary`` lists those sentences and
    ``no_clear_difference`` the figures whose intervals include 0.
    """
    contracts = list(dict.fromkeys(ladder(rules_a) + ladder(rules_b)))
    units = totals.units
    differences = []
    for key in metric_order(totals.moments, contracts):
        m = totals.moments[key]
        kind = kind_of(key)
        a = _interval(units, m, kind, 0, 1)
        b = _interval(units, m, kind, 2, 3)
        d = _difference(units, m, kind)
        significant = d.value is not None and d.significant
        differences.append({
            "metric": key, "label": metric_label(key), "kind": kind,
            "a": a.as_json(), "b": b.as_json(), "difference": d.as_json(),
            "significant": significant,
            "sentence": difference_sentence(key, a, b, d) if significant else None,
        })
    described = [name if isinstance(name, dict) else {"variant": name} for name in names]
    return {
        "a": {**described[0], "hands": totals.hands[0]},
        "b": {**described[1], "hands": totals.hands[1]},
        "mode": spec.mode,
        "seed": spec.seed,
        "bots": list(spec.bots),
        "bots_description": bots_description(spec.bots),
        "games": units if spec.mode == "games" else None,
        "hands": units if spec.mode == "hands" else None,
        "max_hands": spec.max_hands if spec.mode == "games" else None,
        "same_deals": same_deals(rules_a, rules_b),
        "differences": differences,
        "summary": [d["sentence"] for d in differences if d["significant"]],
        # Figures that never occurred under either variant (a contract nobody bid) say nothing.
        "no_clear_difference": [metric_noun(d["metric"]) for d in differences
                                if not d["significant"] and d["difference"]["value"] is not None
                                and not d["a"]["value"] == d["b"]["value"] == 0],
        "distributions": {
            side: {"declarer_points": _histogram_json(totals.histograms.get(f"{side}:declarer-points")),
                   "game_length": _histogram_json(totals.histograms.get(f"{side}:length"))}
            for side in ("a", "b")
        },
        "definitions": {"difference": "b minus a, over the same deals (same_deals: the same cards; else "
                                      "the same seeds, but the decks differ); percentages of proportions "
                                      "are percentage points",
                        **({"dealer_position": DEALER_POSITION} if spec.mode == "games" else {})},
    }


# --------------------------------------------------------------------------- record file names
_GAME_FIELD = re.compile(r"\{game(:[^{}]*)?\}")


def has_game_field(path: str) -> bool:
    """Whether a ``--records`` name holds ``{game}`` (or ``{game:04d}``): one file per game."""
    return bool(_GAME_FIELD.search(path))


def game_path(path: str, game: int) -> str:
    """The record file of game ``game`` for a name holding ``{game}`` or ``{game:FORMAT}``."""
    return _GAME_FIELD.sub(lambda m: format(game, (m.group(1) or ":")[1:]), path)
