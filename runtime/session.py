"""A saved, resumable game with people and bots at the table, independent of any front end.

A :class:`Session` owns a whole game (hands dealt from a seed until the variant's
game end), knows which seats are people and which bots, and after *every* action
writes itself to disk so that nothing is lost if the process dies.  A save is two
files:

- ``FILE`` (``.jsonl``) is a game record as records.md defines it, at every
  moment, from the first action on: one ``bidwhist-hand/1`` line per hand
  finished, then, while the game goes on, the hand in play as its last line,
  marked ``"in_progress": true`` (records.md: a hand that stops partway says so;
  a game record may end with one).  ``bidwhist replay FILE`` therefore scores the
  game as it stands at any moment, even before the first hand is over (hand 0 as
  dealt, then its calls and cards as they come); once the game is over the last
  line is the last hand finished.  records.md's replay refuses unknown fields, so
  the record carries nothing of the session.
- ``FILE.session.json`` (the *sidecar*) holds what the record cannot: the seed
  that deals the hands still to come, the seats people sit in, the kind of bot in
  the others and the variant as named (``variant`` and ``with``, as in the
  record).  It is written when the session is created and when ``--resume``
  changes the seats or the bots, never during play.

Both are written atomically (a temporary file in the same folder, flushed and
fsynced, then ``os.replace``), so a reader sees the old file or the new one, never
half of either.  After every action only ``FILE`` is written, so there is no moment
when the two disagree.  A new session writes the sidecar first, then ``FILE``: a
crash in between leaves no ``FILE``, and the same ``--save FILE`` starts again.

Earlier layouts still load, and the next save writes the layout above:

- The first kept the hand in progress as ``FILE``'s unfinished last line, without
  the mark (read as the hand in progress, as a marked line is).
- The second kept it in the sidecar, as ``in_progress``: ``{"index": i, "record":
  {...}}`` (``i`` counting from 0, ``record`` the partial hand record, marked or
  not), with ``FILE`` holding the hands finished only (empty before the first one
  was).  There ``FILE`` was written before the sidecar at the end of a hand, so a
  sidecar hand whose index is lower than the number of hands finished in ``FILE``
  is stale (the hand is ``FILE``'s line, finished) and ignored; a higher one cannot
  come from a crash and is refused.  Where ``FILE`` also ends with the same hand
  unfinished (a crash while moving the hand from one file to the other, in either
  direction), the longer of the two goes on from the shorter and is taken; two that
  do not are refused.  The move writes ``FILE`` first, then the sidecar without
  ``in_progress``.

Loading rebuilds the exact state by replaying the record and then the hand in
progress: every hand's deal and dealer are checked against the seed's, every
entry is applied through the engine, and the rebuilt hand must write back the
very line that was read.  Everything random that is still to
come is drawn from generators seeded by *where* it happens, not from one long
stream: hand ``i`` is dealt from ``(seed, i)``, and a bot's choice at step ``k``
of hand ``i`` in seat ``s`` from ``(seed, i, s, k)``, so a resumed game goes on
exactly as the uninterrupted one would have.
"""

from __future__ import annotations

import json
import os
import random
import socket
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Callable

from .bots import BOTS, make_bot
from .errors import IllegalAction
from .files import (MAX_LOCK_BYTES, MAX_RECORD_BYTES, MAX_RECORD_NESTING, MAX_SIDECAR_BYTES, FileRefused, read_bounded,
                    shell_word)
from .game import GameTally, GameView, deal, first_dealer
from .hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, OVER, PLAY, HandState
from .notation import parse_call, parse_card, parse_direction, parse_suit
from .records import (HAND_FORMAT, RecordError, check_deal, hand_record, json_decode_message, json_trouble,
                      nested_deeper, parse_swaps, read_record_file, shown)
from .ruleset import Ruleset

SESSION_FORMAT = "bidwhist-session/1"
SIDECAR_SUFFIX = ".session.json"
# The most hands a saved game may be cut at: the bound of `simulate --max-hands` (play
# writes 1000); a session file asking for more (or for none) is damaged.
MAX_SAVED_HANDS = 10**6

# The resolver the caller passes to load a session: (variant, with) -> Ruleset, LookupError if unknown.
Resolver = Callable[[str, list], Ruleset]


class SessionError(Exception):
    """A session that cannot be loaded (no sidecar, a record that does not fit it), said in words."""


class SessionDamaged(SessionError):
    """A session file that is not what play writes (damaged on disk): the save itself is left as it is."""


class SessionSeatRefused(SessionError):
    """A seat given to resume with (``--seat``) that is not at the saved game's table."""


class SessionUnreadable(SessionError):
    """A save's game record that cannot be read at all (not a regular file, too large, not UTF-8):
    no record, as ``replay`` has it (records.md: status 2, one line saying where)."""


class SessionIllegal(SessionError):
    """A saved hand that breaks the rules or does not fit its session: bad content, not a wrong argument.

    The message names the file and the entry (``FILE: hand[2].play[5]: ...``).
    """


def damaged(side: Path, path: Path, why: str) -> str:
    """The message for a damaged session file: what is wrong, that the save is kept, and what to do."""
    # One line (the brief's rule for bad input: one clear message), what is wrong first.
    return (f"{why}. The session file {side} is damaged, so the game cannot go on from it. {path} is "
            "untouched and keeps every finished hand (`bidwhist replay " + str(path) + "` scores them). "
            "To go on, put back a copy of the session file; to keep the hands and play anew, move both "
            "files aside and start a new game.")


@dataclass
class Settings:
    """What a session needs besides the record: the sidecar's content but the hand in progress."""

    variant: str
    with_rules: list[str]
    seed: int
    seats: list[int]  # the seats people play; bots play the others
    bots: str  # a name of runtime.bots' registry
    max_hands: int = 1000  # a safety stop for a game whose end formulas never fire

    def as_json(self) -> dict:
        """The sidecar object (``with`` spelled as in records)."""
        data = asdict(self)
        data["with"] = data.pop("with_rules")
        return {"format": SESSION_FORMAT, **data}

    @staticmethod
    def from_json(data, where: str) -> "Settings":
        """Settings from a sidecar object; SessionError naming the field that is wrong.

        Each field is what a session writes or the file is damaged: ``seats`` each seat
        once (none: the bots play every seat); ``seed`` a 64-bit signed integer, as
        ``--seed``; ``max_hands`` from 1 to :data:`MAX_SAVED_HANDS`, as ``--max-hands``.
        """
        if not isinstance(data, dict) or data.get("format") != SESSION_FORMAT:
            raise SessionError(f"{where}: not a {SESSION_FORMAT} file")
        missing = [key for key in ("variant", "seed", "seats", "bots") if key not in data]
        if missing:
            raise SessionError(f"{where}: the field {missing[0]!r} is missing")

        def whole(value) -> bool:
            return isinstance(value, int) and not isinstance(value, bool)

        max_hands = data.get("max_hands", 1000)

        problems = {
            "variant": None if isinstance(data["variant"], str) else "a variant's name or path",
            "with": None if isinstance(data.get("with", []), list)
            and all(isinstance(w, str) for w in data.get("with", [])) else "a list of house-rule names or paths",
            "seed": None if whole(data["seed"]) and -(2**63) <= data["seed"] < 2**63
            else "a 64-bit signed integer",
            "seats": None if isinstance(data["seats"], list)
            and all(whole(x) for x in data["seats"]) and len(set(data["seats"])) == len(data["seats"])
            else "a list of the seats people play, each once",
            "bots": None if isinstance(data["bots"], str) else "a bot's name",
            "max_hands": None if whole(max_hands) and 1 <= max_hands <= MAX_SAVED_HANDS
            else f"a whole number from 1 to {MAX_SAVED_HANDS:,}",
        }
        for key, expected in problems.items():
            if expected:
                # escaped: nothing read is sent to the terminal raw
                raise SessionError(f"{where}: {key}: expected {expected}, found {shown(data.get(key), escaped=True)}")
        return Settings(variant=data["variant"], with_rules=list(data.get("with", [])), seed=data["seed"],
                        seats=list(data["seats"]), bots=data["bots"], max_hands=max_hands)


def sidecar_path(path: str | os.PathLike) -> Path:
    """Where the sidecar of the record at ``path`` lives: ``FILE.session.json``."""
    path = Path(path)
    return path.with_name(path.name + SIDECAR_SUFFIX)


def deal_rng(seed: int, index: int) -> random.Random:
    """The generator that deals hand ``index`` of a session seeded with ``seed``."""
    return random.Random(f"bidwhist-session:{seed}:deal:{index}")


def bot_rng(seed: int, index: int, seat: int, step: int, purpose: str = "bot") -> random.Random:
    """The generator of one decision: seeded by where it happens, so a resumed game repeats it."""
    return random.Random(f"bidwhist-session:{seed}:{purpose}:{index}:{seat}:{step}")


def atomic_write(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new, never a mix."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and exc.errno is not None:
            # Said of the file asked for (a save whose session file is a folder), not of the
            # temporary one beside it, which the caller never named.
            raise OSError(exc.errno, exc.strerror, str(path)) from exc
        raise
    try:  # the rename itself survives a power cut only once the folder is synced
        dir_fd = os.open(path.parent, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


class Session:
    """A game in progress with its save file: apply actions, let bots move, save, resume.

    ``hands`` are the finished hands, ``hand`` the one in play (after the game
    ends, the last one played), ``actions`` the action ids of ``hand`` so far.
    """

    def __init__(self, rules: Ruleset, settings: Settings, path: str | os.PathLike):
        self.rules = rules
        self.settings = settings
        self.path = Path(path)
        self.tally = GameTally(rules)
        self.hands: list[HandState] = []
        self.actions: list[int] = []
        self.settings_changed = False  # seats or bots replaced on loading, not yet in the sidecar
        self.sidecar_has_hand = False  # the sidecar (of the second layout) still holds a hand in progress
        self.on_saved: Callable[[], None] | None = None  # called after each save (play: keep the lock)
        self.first_dealer = first_dealer(rules, random.Random(f"bidwhist-session:{settings.seed}:dealer"))
        self.hand = self._deal(0, self.first_dealer)

    # ------------------------------------------------------------------ creating and loading
    @classmethod
    def new(cls, rules: Ruleset, settings: Settings, path: str | os.PathLike) -> "Session":
        """A fresh game, saved at once so that it can be resumed and replayed from the start: the
        sidecar (the settings), then ``FILE`` (hand 0 as dealt, marked in progress).

        In this order a crash in between leaves no ``FILE``, so the same ``--save FILE``
        can simply start again.
        """
        check_settings(rules, settings)
        session = cls(rules, settings, path)
        session.save_settings()
        session._write_record()
        return session

    @classmethod
    def load(cls, path: str | os.PathLike, resolve: Resolver, seats: list[int] | None = None,
             bots: str | None = None) -> "Session":
        """Rebuild a saved session exactly; SessionError (or records.NotARecord) says why it cannot be.

        ``seats`` and ``bots`` replace the saved ones (who plays where does not change
        the game so far); ``settings_changed`` tells whether they did, and
        :meth:`save_settings` keeps the change.
        """
        path = Path(path)
        side = sidecar_path(path)
        for suffix, what in ((SIDECAR_SUFFIX, "the session file"), (LOCK_SUFFIX, "the lock")):
            # One of the files beside a save given for the save itself: name the save to give.
            # (A name that is the suffix alone, `.lock`, or `..lock`, leaves no save name to strip to.)
            stripped = path.name[:-len(suffix)] if path.name.endswith(suffix) else ""
            save = path.with_name(stripped) if stripped not in ("", ".", "..") else None
            if save is not None and not os.path.lexists(side) and os.path.lexists(save):
                raise SessionError(f"{path} is {what} of the save {save}: resume with "
                                   f"bidwhist play --resume {shell_word(save)}")
        if not os.path.lexists(side) and not os.path.lexists(path):
            raise SessionError(f"{path}: no such file: give the FILE a play saved to (the path it showed at the "
                               "start, or its --save FILE)")
        if not os.path.lexists(side):
            raise SessionError(f"{side}: missing; a game record can be resumed only with the session file "
                               "written beside it")
        if not os.path.lexists(path):  # new() writes the session file first: it stopped in between
            raise SessionError(f"{path}: no such file: {side} is there, but the game it begins was never "
                               f"saved, so there is nothing to resume (`play --save {shell_word(path)}` starts it "
                               "again)")
        # Read nothing of either file before both are known readable: a damaged session file
        # must leave the save exactly as it is.
        try:
            side_text = read_bounded(side, MAX_SIDECAR_BYTES, "session file")
        except FileRefused as exc:
            raise SessionDamaged(damaged(side, path, str(exc))) from None
        if side_text.startswith("\ufeff"):  # a byte order mark an editor wrote: no part of the JSON, as in a record
            side_text = side_text[1:]
        try:
            side_data = json.loads(side_text)
        except json.JSONDecodeError as exc:
            raise SessionDamaged(damaged(side, path, f"{side}:{exc.lineno}:{exc.colno}: invalid JSON: "
                                                     f"{json_decode_message(exc)}")) from None
        except (ValueError, RecursionError) as exc:  # a number too long to convert, nesting too deep
            why = json_trouble(exc)
            raise SessionDamaged(damaged(side, path, f"{side}: invalid JSON: {why}")) from None
        # Nested as deep as json reads (near the interpreter's recursion limit), a field quoted in the
        # message that refuses it could not be written out ("internal error: RecursionError", status
        # 70): the limit of a record's JSON (play's session file needs five levels).
        if nested_deeper(side_data, MAX_RECORD_NESTING):
            why = json_trouble(RecursionError())
            raise SessionDamaged(damaged(side, path, f"{side}: invalid JSON: {why}"))
        try:  # a field play never writes so: the file is damaged, the save is kept as it is
            settings = Settings.from_json(side_data, str(side))
            pending = in_progress_from_json(side_data, str(side))
        except SessionError as exc:
            raise SessionDamaged(damaged(side, path, str(exc))) from None
        try:
            text = read_bounded(path, MAX_RECORD_BYTES, "game record")
        except FileRefused as exc:
            raise SessionUnreadable(str(exc)) from None
        # No line (a save of the second layout before its first hand was finished): an empty record,
        # which read_record_file would call no record.
        records = read_record_file(text, str(path)).records if text.strip() else []
        try:
            rules = resolve(settings.variant, list(settings.with_rules))
        except LookupError as exc:  # the variant the session file names: its content, not the command's
            raise SessionIllegal(f"{side}: {exc.args[0] if exc.args else exc}") from None
        saved = (list(settings.seats), settings.bots)
        try:  # what the file holds and the command line does not replace: a damaged file if wrong
            check_settings(rules, replace(settings, seats=[] if seats else settings.seats,
                                          bots=bots or settings.bots))
        except SessionError as exc:
            raise SessionDamaged(damaged(side, path, f"{side}: {exc}")) from None
        if seats:
            settings.seats = sorted(set(seats))
        if bots:
            settings.bots = bots
        try:
            check_settings(rules, settings)
        except SessionError as exc:  # the saved values passed above: a seat given to resume with
            raise SessionSeatRefused(str(exc)) from None
        session = cls(rules, settings, path)
        session.settings_changed = saved != (settings.seats, settings.bots)
        try:
            partial = session._rebuild(records)
        except RecordError as exc:
            raise SessionIllegal(f"{path}: {exc.at}: {exc.message}") from None
        session.sidecar_has_hand = pending is not None
        try:
            session._resume_hand(pending, partial, path)
        except RecordError as exc:
            raise SessionIllegal(f"{side}: {exc.at}: {exc.message}") from None
        return session

    def _rebuild(self, records: list[dict]) -> list[int] | None:
        """Replay the saved lines; each must be the hand the seed deals and write back unchanged.

        Every line is a finished hand but the last, which may be the hand in progress
        (marked ``in_progress: true``, or unmarked in a save of the first layout): it
        becomes :attr:`hand`, and its actions are returned (None when every line is finished).
        """
        for i, record in enumerate(records):
            where = f"hand[{i}]"
            if isinstance(record, dict) and "in_progress" in record:
                if record["in_progress"] is not True:
                    raise RecordError(where + ".in_progress", "a hand in play is marked true, or not marked")
                record = {key: value for key, value in record.items() if key != "in_progress"}
                marked = True
            else:
                marked = False
            state, actions = self._check_hand(record, where)
            if marked and state.is_terminal():
                raise RecordError(where + ".in_progress", "this hand is finished: it is not in progress")
            if not state.is_terminal():
                if i != len(records) - 1:
                    raise RecordError(where, "a hand in progress must be the last line")
                self.hand = state
                self.actions = actions
                return actions
            self.hand = state
            self.actions = actions
            self._finish_hand()
        return None

    def _resume_hand(self, pending: tuple[int, dict] | None, partial: list[int] | None, path: Path) -> None:
        """Take up the hand in progress of a sidecar of the second layout, ``pending`` = (index,
        record), after the record's hands.

        An index below the hands finished in ``FILE`` is stale (a crash between writing
        ``FILE`` and the sidecar at the end of a hand): ignored.  Above, it is refused.
        ``partial``: the actions of ``FILE``'s unfinished last line; of the two, the one
        that goes on from the other is taken (see the module docstring).
        """
        if pending is None:
            return
        index, record = pending
        finished = len(self.hands)
        if index < finished:
            return  # stale: that hand is finished and in FILE
        if index > finished:
            raise RecordError("in_progress.index", f"hand {index + 1} is in progress, but {path} holds "
                              f"{finished} finished hand{'' if finished == 1 else 's'} (hand {finished + 1} "
                              "comes next): the record and the session file do not belong together")
        if partial is not None:  # FILE ends with this hand too: caught moving it between the files
            line_hand, line_actions = self.hand, self.actions
            self.hand = self._deal(finished, self.hand.dealer)
            self.actions = []
        # The flag the sidecar writes (absent in saves written before it did): the hand is in progress.
        if record.get("in_progress", True) is not True:
            raise RecordError("in_progress.record.in_progress", "the hand in play must be marked in progress "
                                                                "(true) or not marked")
        record = {key: value for key, value in record.items() if key != "in_progress"}
        state, actions = self._check_hand(record, "in_progress.record")
        if state.is_terminal():
            raise RecordError("in_progress.record", "this hand is finished: it belongs in the record")
        if partial is not None and actions[:len(partial)] != partial:
            if partial[:len(actions)] == actions:  # FILE's line is the newer: it goes on from this one
                self.hand, self.actions = line_hand, line_actions
                return
            raise RecordError("in_progress.record", f"does not go on from the unfinished last line of {path}, "
                                                    "nor that line from it")
        self.hand = state
        self.actions = actions

    def _check_hand(self, record: dict, where: str) -> tuple[HandState, list[int]]:
        """The hand ``record`` rebuilt, once it is known to be the hand the seed deals next
        (:attr:`hand`, not yet played) and to write back unchanged; RecordError at ``where``."""
        settings = self.settings
        prefix = where + "."
        if self.is_over():
            raise RecordError(where, "the game was decided before this hand")
        if not isinstance(record, dict):
            raise RecordError(where, f"expected a {HAND_FORMAT} record (a JSON object)")
        for key, want in (("variant", settings.variant), ("with", settings.with_rules)):
            if record.get(key, [] if key == "with" else None) != want:
                raise RecordError(prefix + key, f"{key} differs from the session file's ({shown(want, escaped=True)})")
        if record.get("dealer") != self.hand.dealer:
            why = "the first dealer this session's seed draws" if not self.hands else "the rotation"
            raise RecordError(prefix + "dealer", f"expected dealer {self.hand.dealer} ({why})")
        hands, kitty = check_deal(self.rules, record, prefix)
        if [sorted(h) for h in hands] != [sorted(h) for h in self.hand.dealt] or kitty != self.hand.kitty:
            raise RecordError(prefix + "hands", "not the deal of this session's seed")
        state, actions = rebuild_hand(self.rules, record, prefix)
        if self.record_of(state, actions) != record:
            raise RecordError(where, "the line does not replay to itself (edited by hand?)")
        return state, actions

    # ------------------------------------------------------------------ the game
    def _deal(self, index: int, dealer: int) -> HandState:
        hands, kitty = deal(self.rules, deal_rng(self.settings.seed, index))
        state = HandState(self.rules, dealer, hands, kitty)
        state.game = GameView(self.tally)  # the bots may know the game's score
        return state

    def _finish_hand(self) -> None:
        """Score the finished hand into the game and deal the next one unless the game is over."""
        hand = self.hand
        self.hands.append(hand)
        self.tally.add_hand(hand)
        if not self.is_over():
            self.hand = self._deal(len(self.hands), self.tally.next_dealer(hand))
            self.actions = []

    def is_over(self) -> bool:
        """True once a side has won the game (or the safety limit of hands is reached)."""
        return self.tally.winner is not None or len(self.hands) >= self.settings.max_hands

    @property
    def winner(self) -> int | None:
        """The winning side once the game is decided."""
        return self.tally.winner

    @property
    def hand_index(self) -> int:
        """The index of the hand in play (of the last hand once the game is over)."""
        return len(self.hands) - 1 if self.is_over() else len(self.hands)

    def current_player(self) -> int:
        """The seat to act, or -1 when the game is over."""
        return -1 if self.is_over() else self.hand.current_player()

    def is_human(self, seat: int) -> bool:
        """True when a person plays ``seat``."""
        return seat in self.settings.seats

    def legal_actions(self) -> list[int]:
        """The legal actions of the seat to act."""
        return [] if self.is_over() else self.hand.legal_actions()

    def apply(self, action: int) -> None:
        """Apply an action of the seat to act and save; IllegalAction (nothing changed) if refused."""
        if self.is_over():
            raise IllegalAction(None, "game-over", "the game is over")
        self.hand.apply_action(action)
        self.actions.append(action)
        if self.hand.is_terminal():
            self._finish_hand()
        self.save()

    def bot_choice(self) -> int:
        """What the bot in the seat to act plays here: the same every time this point is reached."""
        seat = self.current_player()
        rng = bot_rng(self.settings.seed, self.hand_index, seat, len(self.actions))
        return make_bot(self.settings.bots, rng).choose(self.hand)

    def hint(self) -> tuple[int, str] | None:
        """(action, reason) the heuristic bot gives for the seat to act, or None without one."""
        if "heuristic" not in BOTS or self.is_over():
            return None
        seat = self.current_player()
        bot = make_bot("heuristic", bot_rng(self.settings.seed, self.hand_index, seat, len(self.actions), "hint"))
        explain = getattr(bot, "explain", None)
        if explain is None:
            return bot.choose(self.hand), ""
        action, reason = explain(self.hand)
        return action, reason

    # ------------------------------------------------------------------ views
    def observation(self, seat: int, open_hands: bool = False) -> dict:
        """What ``seat`` may know now: the hand's observation plus the game around it.

        Beyond :meth:`HandState.observation`: ``calls`` (who made each call),
        ``declared`` (trump and direction are settled), ``books`` so far, the kitty
        its taker took (shown to the taker), the game's ``totals``, ``hand_number``, ``game_over``,
        ``winner``; with ``open_hands`` every seat's cards as ``all_hands`` and the kitty.
        """
        hand = self.hand
        rules = self.rules
        obs = hand.observation(seat)
        obs["calls"] = [[s, rules.action_names[a]] for s, a in hand.calls]
        obs["declared"] = hand.table is not None
        if hand.declarer >= 0 and "books" not in obs:
            obs["books"] = hand.books_so_far()
        if seat == hand.kitty_taker() and kitty_taken(hand):
            obs["kitty_taken"] = [rules.cards[c] for c in hand.kitty]
        obs["totals"] = list(self.tally.totals)
        obs["hand_number"] = self.hand_index + 1
        obs["game_over"] = self.is_over()
        obs["winner"] = self.tally.winner
        if open_hands:  # teaching and checking bots: everything on the table face up
            obs["all_hands"] = [[rules.cards[c] for c in h] for h in hand.hands]
            obs["kitty"] = [rules.cards[c] for c in hand.kitty]
        return obs

    # ------------------------------------------------------------------ saving
    def record_of(self, state: HandState, actions: list[int]) -> dict:
        """The record line of a hand, with a declaration made halfway (trump named, direction not yet).

        ``hand_record`` writes ``declare`` once it is complete; a session saved between
        the two choices must not forget the first one.
        """
        settings = self.settings
        record = hand_record(state, settings.variant, settings.with_rules)
        if state.phase in (DECLARE_TRUMP, DECLARE_DIRECTION, DISCARD) and "declare" not in record:
            partial = declared_so_far(self.rules, actions)
            if partial:
                record["declare"] = partial
        return record

    def records(self) -> list[dict]:
        """The hands finished, in order."""
        return [self.record_of(h, []) for h in self.hands]

    def in_progress(self) -> dict | None:
        """The hand in play as ``FILE``'s last line holds it, marked ``in_progress: true``; None once
        the game is over."""
        if self.is_over():
            return None
        # records.md: a hand that stops partway says so, so the line replays as any other writer's would.
        return {**self.record_of(self.hand, self.actions), "in_progress": True}

    def lines(self) -> list[dict]:
        """The game record, as ``FILE`` holds it: every hand finished, then the hand in play, if any."""
        pending = self.in_progress()
        return self.records() + ([pending] if pending is not None else [])

    def save(self) -> None:
        """Save after an action: ``FILE`` (the whole game so far).

        A sidecar of the second layout, which still holds a hand in progress, is
        rewritten without it once ``FILE`` has the hand (see the module docstring).
        A sidecar gone since (deleted, or its folder removed and made again by this
        write) is written again: without it ``FILE`` cannot be resumed.
        """
        self._write_record()
        if self.sidecar_has_hand or not sidecar_path(self.path).is_file():
            self._write_settings()
        if self.on_saved is not None:
            self.on_saved()

    def _write_record(self) -> None:
        text = "".join(json.dumps(r, separators=(", ", ": ")) + "\n" for r in self.lines())
        atomic_write(self.path, text)

    def save_settings(self) -> None:
        """Write the sidecar atomically: the settings.

        A sidecar of the second layout still holds the hand in progress, and this write drops it:
        ``FILE`` is given the hand first, so no moment leaves the hand in neither file.
        """
        if self.sidecar_has_hand:
            self._write_record()
        self._write_settings()

    def _write_settings(self) -> None:
        atomic_write(sidecar_path(self.path), json.dumps(self.settings.as_json(), indent=2) + "\n")
        self.settings_changed = False
        self.sidecar_has_hand = False


def in_progress_from_json(data: dict, where: str) -> tuple[int, dict] | None:
    """The hand in progress of a sidecar of the second layout as (index, record); None when it has
    none (the game is over, or the save keeps the hand in progress in ``FILE``)."""
    value = data.get("in_progress")
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"index", "record"}:
        raise SessionError(f"{where}: in_progress: expected an object with index and record")
    index, record = value["index"], value["record"]
    if not isinstance(index, int) or isinstance(index, bool) or index < 0:
        raise SessionError(f"{where}: in_progress.index: expected a hand's index (a whole number from 0)")
    if not isinstance(record, dict):
        raise SessionError(f"{where}: in_progress.record: expected a {HAND_FORMAT} record (a JSON object)")
    return index, record


def check_settings(rules: Ruleset, settings: Settings) -> None:
    """SessionError for seats outside the table or a bot kind nobody registered."""
    bad = [s for s in settings.seats if not 0 <= s < rules.players]
    if bad:
        raise SessionError(f"seat {bad[0]} is not at this table (seats 0 to {rules.players - 1})")
    if settings.bots not in BOTS:
        # escaped: the name may come from a session file, and nothing read goes to the terminal raw
        raise SessionError(f"unknown bot {shown(settings.bots, escaped=True)} (known: {', '.join(sorted(BOTS))})")


def kitty_taken(hand: HandState) -> bool:
    """True once the kitty's taker (the declarer unless the rules name another seat) has picked it up."""
    return hand.kitty_taken()  # the engine knows when the kitty is picked up


def declared_so_far(rules: Ruleset, actions: list[int]) -> dict:
    """The declaration made by ``actions`` so far: ``trump`` and/or ``direction``."""
    declare = {}
    for action in actions:
        if rules.first_trump_action <= action < rules.no_trump_action:
            declare["trump"] = rules.suits[action - rules.first_trump_action]
        elif action == rules.no_trump_action:
            declare["trump"] = None
        elif rules.first_direction_action <= action < rules.take_action:
            declare["direction"] = rules.orders[action - rules.first_direction_action]
    return declare


def rebuild_hand(rules: Ruleset, record: dict, prefix: str = "") -> tuple[HandState, list[int]]:
    """A hand (finished or not) rebuilt from its record line, with the action ids that made it.

    Unlike ``records.replay_hand`` a hand may stop anywhere: the entries are fed to
    the engine in the order its phases ask for them, until they run out.
    """
    if record.get("format") != HAND_FORMAT:
        raise RecordError(prefix + "format", f"expected '{HAND_FORMAT}'")
    if record.get("claim") is not None:
        raise RecordError(prefix + "claim", "a played session has no claims")
    hands, kitty = check_deal(rules, record, prefix)
    calls = record.get("auction", [])
    plays = record.get("play", [])
    discards = record.get("discard", [])
    declare = record.get("declare") or {}
    # At the field that is wrong (it was always `auction`, also for a declare that is no object).
    for key, value, kind in (("auction", calls, list), ("declare", declare, dict), ("discard", discards, list),
                             ("play", plays, list)):
        if not isinstance(value, kind):
            raise RecordError(prefix + key, "auction, discard and play must be lists, declare an object")
    at = [""]  # the record entry of the action being applied, for an IllegalAction's message
    d = p = 0

    def named(action: int | None, where: str, text) -> int:
        at[0] = where
        if action is None:
            raise RecordError(prefix + where, f"{shown(text, escaped=True)} names nothing in this variant")
        return action

    def entries(state: HandState):
        """The record's entries as actions, in the order the engine's phases ask for them."""
        nonlocal d, p
        for i, text in enumerate(calls):
            if state.phase != AUCTION:
                raise RecordError(prefix + f"auction[{i}]", "the auction was already over")
            action = parse_call(rules, text)
            if action is not None:
                action = state.call_meaning(action)  # records.md: the matching bid means take
            yield named(action, f"auction[{i}]", text)
        declared = set()
        while state.phase not in (AUCTION, OVER):
            if state.phase == DECLARE_TRUMP and "trump" in declare and "trump" not in declared:
                value = declare["trump"]
                suit = None if value is None else parse_suit(rules, value)
                action = rules.no_trump_action if value is None else (
                    None if suit is None else rules.first_trump_action + suit)
                declared.add("trump")
                yield named(action, "declare", value)
            elif state.phase == DECLARE_DIRECTION and "direction" in declare and "direction" not in declared:
                direction = parse_direction(rules, declare["direction"])
                declared.add("direction")
                yield named(None if direction is None else rules.first_direction_action + direction, "declare",
                            declare["direction"])
            elif state.phase == DISCARD and d < len(discards):
                d += 1
                card = parse_card(rules, discards[d - 1])
                if card in state.laid_out() and card not in state.hands[state.current_player()]:
                    continue  # set apart by the rules (it leaves play): records list it with the discards
                if "swaps" in record and state.swaps_given is None:  # what was drawn, once the discard is done
                    state.swaps_given = parse_swaps(rules, record["swaps"], prefix)
                yield named(card, "discard", discards[d - 1])
            elif state.phase == PLAY and state.table is None and declare.get("trump", 0) is None \
                    and "trump" not in declared:
                declared.add("trump")  # the first lead could have named trump; the declarer said notrump
                yield named(rules.no_trump_action, "declare", None)
            elif state.phase == PLAY and p < len(plays):
                p += 1
                yield named(parse_card(rules, plays[p - 1]), f"play[{p - 1}]", plays[p - 1])
            else:
                break

    try:  # the engine's one replayer, fed the record's entries as its phases ask for them
        state = HandState.from_actions(rules, record["dealer"], hands, kitty, entries)
    except IllegalAction as exc:
        raise RecordError(prefix + at[0], exc.message) from None
    actions = [action for _, action in state.history]
    if d < len(discards):
        raise RecordError(prefix + "discard", f"{shown(discards[d], escaped=True)} comes where no discard is due")
    if p < len(plays):
        raise RecordError(prefix + f"play[{p}]", f"{shown(plays[p], escaped=True)} comes where no card is due")
    return state, actions



# --------------------------------------------------------------------------- the lock on a save
LOCK_SUFFIX = ".lock"


def lock_path(path: str | os.PathLike) -> Path:
    """Where the lock of the save at ``path`` lives: ``FILE.lock``, beside it."""
    path = Path(path)
    return path.with_name(path.name + LOCK_SUFFIX)


class SaveLocked(SessionError):
    """The save is in use by another ``play`` (or its lock cannot be taken): the message says by whom."""


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists on this machine (one we may not signal exists too)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True
    return True


class SaveLock:
    """One ``play`` at a time on a save: ``FILE.lock``, made with O_CREAT|O_EXCL, holding
    ``{"pid", "host", "since"}`` of its holder, removed when that ``play`` ends.

    Two processes playing one save would each overwrite the other's moves.  The lock is
    created atomically, so of two at once only one gets it.  A process that is killed
    (SIGKILL, a power cut) leaves its lock behind; such a lock is *stale* when it names
    this host and a process that no longer runs, and is then taken over without asking.
    A lock of another host (a save on a shared folder), or one that cannot be read,
    cannot be judged from here: ``take_over=True`` (``play --take-over``) takes it
    anyway, for the user who knows that the other ``play`` is gone.
    """

    def __init__(self, save: str | os.PathLike):
        self.path = lock_path(save)
        self.held = False
        self.since = ""  # when this process took it
        self.took_over: dict | None = None  # the stale holder replaced, if any

    def holder(self) -> dict | None:
        """The lock's holder as written, or None when the lock cannot be read as one."""
        try:
            data = json.loads(read_bounded(self.path, MAX_LOCK_BYTES, "lock file"))
        except (FileRefused, ValueError, RecursionError):
            return None
        if not (isinstance(data, dict) and isinstance(data.get("pid"), int) and isinstance(data.get("host"), str)
                and isinstance(data.get("since"), str)):
            return None
        # Quoted in the refusal: a host or time that is not one short printable line (an
        # escape sequence, a page of text) is not what play writes; the lock is unreadable.
        if not all(0 < len(data[key]) <= 255 and data[key].isprintable() for key in ("host", "since")):
            return None
        return data

    @staticmethod
    def stale(holder: dict | None) -> bool:
        """Whether ``holder``'s process is known to be gone: on this host, and not running."""
        return holder is not None and holder["host"] == socket.gethostname() and not _alive(holder["pid"])

    def acquire(self, take_over: bool = False) -> "SaveLock":
        """Take the lock; SaveLocked naming the holder when another ``play`` has it."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(3):  # a stale lock removed, another process may create one first
            try:
                fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                if os.path.isdir(self.path) and not os.path.islink(self.path):
                    # No play makes it, and none can remove it: --take-over would fail on it too.
                    raise SaveLocked(f"{self.path}: a folder where the lock of the save goes (no play makes "
                                     "one); move it away, then play on") from None
                holder = self.holder()
                if not (take_over or self.stale(holder)):
                    raise SaveLocked(self.refusal(holder)) from None
                self.took_over = holder or {}
                try:
                    os.unlink(self.path)
                except FileNotFoundError:
                    pass
                continue
            except OSError as exc:
                raise SaveLocked(f"{self.path}: cannot create the lock of the save: {exc.strerror or exc}") from None
            self.since = time.strftime("%Y-%m-%d %H:%M:%S %z")
            self._write(fd)
            self.held = True
            return self
        raise SaveLocked(f"{self.path}: the lock of the save keeps being taken by another process")

    def _write(self, fd: int) -> None:
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": self.since}
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(me) + "\n")

    def restore(self) -> None:
        """Make the lock again where this process holds it and it is gone (its folder removed
        during play, then made again by the save): a second play must still be refused.
        Nothing is done where another process has made one since, or it cannot be made."""
        if not self.held or os.path.lexists(self.path):
            return
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except OSError:
            return
        self._write(fd)

    def refusal(self, holder: dict | None) -> str:
        """Why the lock is refused, by whom, and how to take it over."""
        save = self.path.name[:-len(LOCK_SUFFIX)]
        if holder is None:
            who = f"its lock {self.path} cannot be read (a play killed as it started?)"
        else:
            here = holder["host"] == socket.gethostname()
            who = (f"it is in use by another play: process {holder['pid']} on "
                   f"{'this host' if here else 'host'} {holder['host']}, since {holder['since']}")
        return (f"{save}: {who}.  Two plays on one save would lose moves.  If that play is gone "
                f"(a lock of this host whose process has ended is taken over by itself), take the save "
                f"over with --take-over.")

    def release(self) -> None:
        """Remove the lock if this process still holds it (not one that took it over since)."""
        if not self.held:
            return
        self.held = False
        holder = self.holder()
        if holder is not None and (holder["pid"], holder["host"]) != (os.getpid(), socket.gethostname()):
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
