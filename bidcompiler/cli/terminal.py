"""The terminal program of ``bidwhist play``: draw the table, prompt, read, apply, narrate.

:class:`Terminal` runs a game held in a :class:`runtime.session.Session` at a
terminal: the table drawn with rich (:mod:`bidcompiler.cli.table`), the prompts,
forgiving input, the commands at the prompt (``hint``, ``rules``, ``score``,
``history``, ...), and the bots' moves shown at a readable pace.  It needs no
click: the ``play`` command (:mod:`bidcompiler.cli.play`) parses the options,
starts or resumes the session and hands it here.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from runtime.auction import auction_rules
from runtime.cards import digits_note
from runtime.contract import any_bare
from runtime.errors import IllegalAction
from runtime.hand import AUCTION, DECLARE_DIRECTION, DECLARE_TRUMP, DISCARD, PLAY
from runtime.notation import (ascii_lower, named_strains, parse_call, parse_card, parse_direction, parse_suit,
                              strain_index)
from runtime.records import HandReplay, shown
from runtime.ruleset import Ruleset
from runtime.session import Session, bot_rng

from ..recordnames import is_path_name, record_folder
from ..errors import printable
from . import STOP_SIGNALS
from .common import shell_word
from . import table as tableview
from .replay import game_result_line, standing_text
from .hand_rules import books_to_make, game_end_words, hand_rules, hand_score_lines, rulebook_sections

BOT_DELAY = 0.8  # seconds a bot "thinks" before its move is shown, unless --fast
COMMANDS_HELP = """\
Type your move, or one of:
  a card        AS  as  10h  A♠  ♥10  bj   (when discarding, several at once: 2c 3c 4d, or 1 2 3)
  a call        {calls}
  trump         {trumps}
  direction     {directions}
  a number      the number of a choice in the list above the prompt (#3 also works)
  hint          what the heuristic bot would do here, and why
  rules         the rules of the hand in play (rules all: the whole rulebook)
  score         the score of the game, hand by hand
  history       the calls and tricks so far (and the earlier hands)
  last          the last trick: who played what, and who won it
  auction       the calls of this hand and the contract
  table         draw the table again
  help          this text
  quit          save and stop (resume later with bidwhist play --resume FILE)"""
NOTRUMP_WORDS = {"notrump", "no trump", "no-trump", "nt", "no", "none", "nt."}
# A number of the list as typed: ASCII digits only (str.isdigit() also takes '²' and '٣',
# which int() refuses or reads as another number) and few of them (int() refuses more
# than 4,300 digits; no list is that long).
LIST_NUMBER = re.compile(r"[0-9]{1,9}")
# The longest line read from a pipe as one move; a longer one is refused whole, read and
# let go in pieces of this size (a terminal's own line is shorter still).
MAX_TYPED = 4096


def _why_not_a_call(rules: Ruleset, word: str) -> str:
    """What is wrong with a typed bid the engine does not know (``9 nt``, ``4 uptwn``),
    ending in "; ", or nothing when there is no more to say than "not a call"."""
    words = word.split()
    if not words or not LIST_NUMBER.fullmatch(words[0]):
        return ""
    levels = sorted({bid.level for bid in rules.bids})
    if int(words[0]) not in levels:
        return f"bids go from {levels[0]} to {levels[-1]}; "
    if len(words) > 1 and strain_index(rules, " ".join(words[1:])) is None:
        strains = named_strains(rules)
        # What a bid here names after its number: one of its strains, or nothing (a bare number).
        names = f"only one of {', '.join(strains)}" if strains else "nothing after its number"
        suits = [w for w in words[1:] if _suit_named(rules, w) is not None]
        if suits:  # `4 hearts`, `4 uptown hearts`: a player who bids the suit they mean to name
            suit = rules.suit_names[_suit_named(rules, suits[0])].lower()
            typed = suit if suits[0] in (suit, suit.rstrip("s")) else f"{shown(suits[0])} is {suit}"
            return f"a bid here names no suit ({typed}), {names}; "
        if not strains:
            return f"a bid here names {names}; "
        return f"{shown(' '.join(words[1:]))} is not a strain here ({', '.join(strains)}); "
    return ""


# A level typed with a decimal point or comma: `1.5`, `4.0 nt`, `3,5`.
FRACTION = re.compile(r"([0-9]+[.,][0-9]*|[.,][0-9]+)(\s.*|[^0-9.,].*)?")


def _not_a_whole_number(rules: Ruleset, word: str, legal: list[int]) -> str:
    """Why ``word`` (as typed) is no bid when its level is not a whole number, naming the
    levels open now, ending in "; "; nothing for any other word.

    Read as a level and a strain (``1 .5``), it was told "bids go from 3 to 7" or "'.5' is
    not a strain", neither of which is what is wrong."""
    if not FRACTION.fullmatch(word.strip()):
        return ""
    first = rules.first_bid_action
    levels = sorted({rules.bids[a - first].level for a in legal if first <= a < first + len(rules.bids)})
    if not levels:
        return "a bid's level is a whole number, and no bid is open now; "
    now = str(levels[0]) if len(levels) == 1 else f"{levels[0]} to {levels[-1]}"
    return f"a bid's level is a whole number ({now} now); "


def _suit_named(rules: Ruleset, word: str) -> int | None:
    """The suit ``word`` is as a player types it (a letter, a symbol, ``hearts``, ``heart``), or None."""
    found = parse_suit(rules, word)
    if found is not None:
        return found
    word = ascii_lower(word)
    return next((i for i, name in enumerate(rules.suit_names) if word in (name.lower(), name.lower().rstrip("s"))),
                None)


# A level typed with its strain, glued or not: `4nt`, `4 low`, `4NT`.
LEVEL_AND_STRAIN = re.compile(r"([0-9]{1,6})\s*([^\s0-9].*)")


def spelled_call(rules: Ruleset, text: str) -> str:
    """A bid as a player types it, spelled as calls are read (runtime.notation.parse_call).

    The level may be glued to its strain (``4nt``, ``5low``), a strain's name may have a
    blank or hyphen inside (``4 no trump``, as the declaration reads it), and a strain word may be
    shortened to a start that only one strain's name or alias has (``4 u``, ``4 notr``).
    A suit letter is never read as such a start (``4h`` is not ``4 high``: the player
    may mean hearts), so it is refused and the refusal says why; nor is the start of a
    suit's name (``4sp`` is not ``4 special`` where that is a strain's alias: it may be
    spades).  A bare strain's name is shortened too where the ladder has other strains
    (``4 upt`` for a bare ``uptown``, which ``4 uptown`` names as ``4`` does); a ladder of
    one bare strain is bid by its number alone, and its name (a placeholder) is no word to
    guess.  Records are read strictly; this forgiveness is the terminal's.
    """
    found = LEVEL_AND_STRAIN.fullmatch(" ".join(ascii_lower(text).split()))
    if found is None:
        return text
    level, strain = found.groups()
    compact = re.sub(r"[\s-]+", "", strain)  # `no trump`, `no-trump`: a strain's name with a blank inside
    if strain_index(rules, strain) is None and strain_index(rules, compact) is not None:
        strain = compact
    suit_start = any(name.lower().startswith(strain) for name in rules.suit_names)
    if strain_index(rules, strain) is None and _suit_named(rules, strain) is None and not suit_start:
        named = len(rules.strains) > 1  # every strain's name tells the bids apart
        starts = {i for i, s in enumerate(rules.strains) if named or not s.bare
                  for name in (s.name, *s.aliases) if name.startswith(strain)}
        if len(starts) == 1:
            strain = rules.strains[starts.pop()].name
    return f"{level} {strain}"

def typed_card(rules: Ruleset, text: str) -> int | None:
    """The card a player typed, as records spell cards (``AS``, ``10h``, ``A♠``) or as players
    also write them: the suit first (``♥10``, ``sA``) or a blank inside (``10 h``).

    Records are read strictly (records.md "Cards"); this forgiveness is the terminal's.
    """
    card = parse_card(rules, text)
    if card is not None:
        return card
    joined = "".join(text.split())
    card = parse_card(rules, joined)
    if card is None and len(joined) > 1 and parse_suit(rules, joined[0]) is not None:
        card = parse_card(rules, joined[1:] + joined[0])  # suit first: a suit is no rank, so ♥10 is 10♥
    return card


# What ends the game at any prompt (saved, to resume later).
QUIT_WORDS = ("quit", "exit", "q", ":q")


class Quit(Exception):
    """The player asked to stop (``quit`` or end of input)."""


class Stopped(SystemExit):
    """Play was ended by SIGTERM or SIGHUP (a closed terminal): status 128 + the signal's number.

    A SystemExit, so that wherever it arrives the process ends with that status and the
    clean-ups run; :meth:`Terminal.run` catches it to save once more and say where.
    """

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum


class LineTooLong(Exception):
    """A line read from a pipe longer than :data:`MAX_TYPED`: not a move."""


# --------------------------------------------------------------------------- helpers
def for_you(message: str, seat: int) -> str:
    """An engine message about ``seat`` said to the player: ``seat 2 must follow hearts (holds 7H)``
    becomes ``you must follow hearts: 7H``."""
    m = re.fullmatch(rf"seat {seat} must follow (.+) \(holds (.+)\)", message)
    if m:
        return f"you must follow {m[1]}: {m[2]}"
    m = re.match(rf"seat {seat}\b:? ?(\w+)(.*)", message, re.DOTALL)
    if not m:
        return message
    verb = {"does": "do", "holds": "hold", "is": "are", "has": "have", "plays": "play",
            "discards": "discard"}.get(m[1], m[1])
    return f"you {verb}{m[2]}"


@contextmanager
def interrupts_deferred():
    """Hold Ctrl-C back while a move is applied and saved, so that it is saved whole; raise it after.

    SIGTERM and SIGHUP too, where play handles them (:class:`Stopped`): they are acted on
    once the move is saved, as Ctrl-C is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []

    def catch(signum, frame):
        caught.append(signum)

    held = {signal.SIGINT: signal.signal(signal.SIGINT, catch)}
    for number in STOP_SIGNALS:
        if callable(signal.getsignal(number)):
            held[number] = signal.signal(number, catch)
    try:
        yield
    finally:
        for number, previous in held.items():
            signal.signal(number, previous)
    if caught:
        first = caught[0]
        handler = held[first]
        if first == signal.SIGINT:
            raise KeyboardInterrupt
        if callable(handler):
            handler(first, None)  # play's: raises Stopped


def signal_of(exc: BaseException) -> int:
    """The signal that ended play: a :class:`Stopped`'s, else Ctrl-C's (KeyboardInterrupt)."""
    return exc.signum if isinstance(exc, Stopped) else signal.SIGINT


def tell_stopped(err: Console, path, signum: int) -> None:
    """Say on ``err`` that a signal (Ctrl-C or :class:`Stopped`) ended play and where the game is saved.

    On stderr: stdout may be a pipe's, and after SIGHUP the terminal is gone (then
    nothing can be told, and the save is all that matters)."""
    try:
        stopped = "Interrupted" if signum == signal.SIGINT else f"Stopped by {signal.Signals(signum).name}"
        err.print(f"\n{stopped}; the game is saved in {printable(str(path), False)}", soft_wrap=True, markup=False)
        err.print(f"Resume with: bidwhist play --resume {shell_word(path)}", soft_wrap=True, markup=False)
    except OSError:
        pass


@contextmanager
def less_shows_colours():
    """While it lasts, ``LESS`` holds ``-R`` (added after the user's own options).

    The pager (``$PAGER``, else ``less``) is given the text with its colours; ``less``
    without ``-R`` shows each of them as the text ``ESC[1;36m``.  The environment is
    restored afterwards."""
    before = os.environ.get("LESS")
    # Added last, whatever the user's options hold: a later option wins in less, a second -R
    # changes nothing, and telling -R apart from an R inside another option's value
    # (-Dd+r, a colour) or from -+R would mean parsing less's whole option syntax.  The `$`
    # ends a string option the user's LESS may end with (-Ps%f), which would take -R as
    # part of its value; after any other option it is ignored.
    os.environ["LESS"] = f"{before}$ -R" if before else "-R"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("LESS", None)
        else:
            os.environ["LESS"] = before


# --------------------------------------------------------------------------- the terminal game
class Terminal:
    """The game at a terminal: draw, prompt, read, apply, narrate — until the game ends or the player stops."""

    def __init__(self, session: Session, console: Console, *, fast: bool, open_hands: bool,
                 rulebook=None, err: Console | None = None):
        self.session = session
        self.rules = session.rules
        self.console = console
        self.err = err or console
        self.fast = fast
        self.open_hands = open_hands
        self.rulebook = rulebook  # () -> Markdown text of the rules, or None
        self._rulebook_text: str | None = None
        # Another seat's discards, not shown card by card: (seat, cards so far), told once it is done.
        self.laid_away: tuple[int, list[int]] | None = None
        self.humans = tuple(session.settings.seats)
        self.hot_seat = len(self.humans) > 1
        self.last_human: int | None = None
        self.bot_failed = False
        self.last_bot: tuple[int, int] | None = None

    # ---------------------------------------------------------------- the viewpoint
    @property
    def viewer(self) -> int | None:
        """Whose eyes narrate: the one person, or nobody in particular at a shared keyboard."""
        return self.humans[0] if len(self.humans) == 1 else None

    def who(self, seat: int, viewer: int | None = None) -> str:
        """How ``seat`` is named to ``viewer`` (the player at the terminal by default): "you", or the seat's label."""
        viewer = self.viewer if viewer is None else viewer
        return "you" if seat == viewer else tableview.seat_label(self.rules, seat, viewer)

    # ---------------------------------------------------------------- main loop
    def run(self) -> int:
        """Play until the game is over or the player stops; the exit status."""
        session = self.session
        try:
            if session.is_over():
                self.console.print("This game is already over.")
            while not session.is_over():
                seat = session.current_player()
                if session.is_human(seat):
                    self.human_turn(seat)
                else:
                    self.bot_turn(seat)
            saved = self.save_quietly()
            self.game_over()
            return 0 if saved else 1
        except (Quit, EOFError):
            saved = self.save_quietly()
            self.console.print()
            if saved is not None:
                self.say_saved(f"Saved. Resume with: bidwhist play --resume {shell_word(session.path)}")
            return 0 if saved else 1
        except (KeyboardInterrupt, Stopped) as exc:
            # Told on stderr: stdout may be a pipe's, and after SIGHUP the terminal is gone
            # (then nothing can be told, and the save is all that matters).
            saved = self.save_quietly()
            signum = signal_of(exc)
            if saved is not None:
                tell_stopped(self.err, session.path, signum)
            return 128 + signum

    def say_saved(self, text: str) -> None:
        """A line naming the save file: never wrapped (it is to be copied), never read as markup."""
        self.console.print(text, soft_wrap=True, markup=False)

    def save_quietly(self) -> bool | None:
        """Save once more on the way out (the file is already current after every action).

        True when saved; when FILE cannot be written (its folder gone or full), the game
        goes to a new file in the temporary folder, with its session file, and
        ``session.path`` names it: False.  None when even that failed (said: the game
        is lost).  Before, "Saved" was said over a failed save, and the moves since the
        last good one were lost.
        """
        session = self.session
        try:
            session.save()
            return True
        except OSError as exc:
            self.err.print(f"could not save {printable(str(session.path), False)}: {exc.strerror or exc}", markup=False)
        failed = session.path
        try:
            fd, rescue = tempfile.mkstemp(prefix=f"{Path(failed).stem}-", suffix=".jsonl")
            os.close(fd)
            session.path = Path(rescue)
            # Files named relative to FILE's folder are named relative to the copy's (with `..` if
            # need be: it still resumes, as a save naming a file outside its folder does).
            # FILE's folder as the save names files from it: links followed (a `..` from a link's
            # folder would climb out of the wrong one).
            folder = Path(record_folder(failed))

            def whole(name: str) -> str:
                """``name`` (relative to FILE's folder) as the copy names it, from its own folder."""
                file = folder / name
                # A shipped name (no `/`, no extension: records.md) stays one, even beside a file of that name.
                if not is_path_name(name) or not os.path.isfile(file):
                    return name
                return os.path.relpath(os.path.abspath(file), os.path.dirname(rescue))

            session.settings.variant = whole(session.settings.variant)
            session.settings.with_rules = [whole(name) for name in session.settings.with_rules]
            session.save_settings()
            session.save()
        except OSError as exc:
            self.err.print(f"the game could not be saved anywhere ({exc.strerror or exc}); "
                           "the moves since the last save are lost", style="bold red", markup=False)
            return None
        self.err.print(f"the game is saved in {printable(rescue, False)} instead "
                       f"({printable(str(failed), False)} could not be written)",
                       style="yellow", markup=False)
        return False

    def apply(self, action: int) -> None:
        """Apply an action through the session and tell what happened; IllegalAction if refused."""
        session = self.session
        hand = session.hand
        seat = session.current_player()
        tricks_before = len(hand.tricks)
        reneges_before = len(hand.renege_plays)
        line = self.describe(seat, action)
        discarding = hand.phase == DISCARD
        try:
            with interrupts_deferred():
                session.apply(action)
        except OSError as exc:  # the move stands; the next action saves again
            self.err.print(f"could not save {printable(str(session.path), False)}: {exc.strerror or exc} "
                           "(the game goes on; the next move tries again)", style="yellow", markup=False)
        if line is not None:
            self.console.print(line)
        if discarding:
            self.tell_laid_away(seat, action)
            if hand.phase != DISCARD:
                self.tell_swaps(hand)
        if len(hand.renege_plays) > reneges_before:  # a renege the rules let stand: say so now
            _, who, suit = hand.renege_plays[-1]
            self.console.print(Text.assemble("  ", (f"{self.who(who)} did not follow {self.rules.suit_names[suit]}",
                                                    "bold"), ": the renege stands, and is penalised at the end"))
        if len(hand.tricks) > tricks_before:
            leader, cards, winner = hand.tricks[-1]
            self.console.print(Text.assemble("  ", (f"trick {len(hand.tricks)}", "bold"),
                                             f" won by {self.who(winner)}"))
        if hand.is_terminal():
            self.hand_over(hand)
            if not self.fast and not self.session.is_over():
                time.sleep(2 * BOT_DELAY)  # time to read the result before the next deal

    # ---------------------------------------------------------------- bots
    def bot_turn(self, seat: int) -> None:
        """Let the bot at ``seat`` act, shown at a readable pace (no pause between one bot's discards)."""
        phase = self.session.hand.phase
        # A readable pace: a pause before each call and card, but not between one bot's discards.
        if not self.fast and not (phase == DISCARD and self.last_bot == (seat, phase)):
            time.sleep(BOT_DELAY)
        self.last_bot = (seat, phase)
        try:
            action = self.session.bot_choice()
        except Exception as exc:  # a bot's bug must not end the game: play on with the random bot
            if not self.bot_failed:
                self.err.print(f"the {self.session.settings.bots} bot failed ({type(exc).__name__}: {exc}); "
                               "playing a random legal move for it", style="yellow", markup=False)
                self.bot_failed = True
            s = self.session
            action = bot_rng(s.settings.seed, s.hand_index, seat, len(s.actions), "fallback").choice(
                s.legal_actions())
        self.apply(action)

    # ---------------------------------------------------------------- people
    def human_turn(self, seat: int) -> None:
        """Show the table to the player at ``seat``; read typed lines until a move (or a command) ends the turn."""
        if self.hot_seat and seat != self.last_human:
            self.console.clear()
            self.console.print(Text.assemble((f"Seat {seat}'s turn.", "bold"),
                                             " Pass the keyboard; the others look away."))
            typed = self.read(f"Seat {seat}: press Enter to see your cards > ")
            if typed is not None and typed.strip().lower() in QUIT_WORDS:  # not the cards, to whoever typed it
                raise Quit()
        self.last_human = seat
        self.show_table(seat)
        while True:
            text = self.read(self.prompt(seat))
            if text is not None and self.handle(seat, text):
                return

    def read(self, prompt: str) -> str | None:
        """One line typed at ``prompt``; None for bytes that are not text (said, and asked again).
        EOFError (end of input) and KeyboardInterrupt go up to :meth:`run`."""
        if sys.stdin is None:  # started with stdin closed (`<&-`): the end of input, saved as at EOF
            raise EOFError
        try:
            text = input(prompt) if sys.stdin.isatty() else self.read_piped(prompt)
            # Bytes that were not UTF-8 arrive as surrogates where stdin escapes them: make them printable.
            return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        except UnicodeError:
            self.say_error("that was not readable text; type it again")
            return None
        except LineTooLong:
            self.say_error(f"that line is longer than {MAX_TYPED} characters: nothing was done; type it again")
            return None

    def read_piped(self, prompt: str) -> str:
        """As :func:`input` does for a pipe, but a line longer than :data:`MAX_TYPED` is
        LineTooLong, read to its end in pieces (memory stays bounded); EOFError at the end.

        The line is read as bytes and decoded alone: where stdin decodes strictly (a UTF-8
        locale other than C.UTF-8), a byte that is not UTF-8 made the text reader fail with
        the rest of what it had read ahead, and every move piped after that line was lost."""
        sys.stdout.write(prompt)
        sys.stdout.flush()
        raw = getattr(sys.stdin, "buffer", None)
        if raw is None:  # a text-only stdin (a test's StringIO): read as text
            return self._read_piped_text()
        # At most 4 bytes a character: a line of MAX_TYPED characters is read whole.
        data = raw.readline(4 * MAX_TYPED + 1)
        if not data:
            raise EOFError
        if len(data) > 4 * MAX_TYPED and not data.endswith(b"\n"):
            while data and not data.endswith(b"\n"):
                data = raw.readline(4 * MAX_TYPED)
            raise LineTooLong
        line = data.decode(sys.stdin.encoding or "utf-8", sys.stdin.errors or "strict").removesuffix("\n")
        if len(line) > MAX_TYPED:
            raise LineTooLong
        return line

    def _read_piped_text(self) -> str:
        line = sys.stdin.readline(MAX_TYPED + 1)
        if not line:
            raise EOFError
        if len(line) > MAX_TYPED and not line.endswith("\n"):
            while line and not line.endswith("\n"):
                line = sys.stdin.readline(MAX_TYPED)
            raise LineTooLong
        return line.removesuffix("\n")

    def choices(self) -> tuple[list[int], list[str]]:
        """The legal actions of the seat to move and their labels, in the order shown."""
        hand = self.session.hand
        rules = self.rules
        legal = list(hand.legal_actions())
        if hand.phase in (DISCARD, PLAY):
            cards = [a for a in legal if a < rules.n_cards]
            others = [a for a in legal if a >= rules.n_cards]
            obs = self.session.observation(hand.current_player())
            order = [c for _, group in tableview.sort_hand(rules, [rules.cards[a] for a in cards], obs)
                     for c in group]
            legal = [rules.card_id(c) for c in order] + others
        return legal, [self.label(a) for a in legal]

    def label(self, action: int) -> str:
        """How a choice reads in the list: ``4 uptown``, ``hearts``, ``downtown``, ``AS``."""
        rules = self.rules
        if rules.first_trump_action <= action < rules.no_trump_action:
            return rules.suit_names[action - rules.first_trump_action]
        if action == rules.no_trump_action:
            return "notrump"
        if rules.first_direction_action <= action < rules.take_action:
            return rules.orders[action - rules.first_direction_action]
        return rules.action_names[action]

    def show_table(self, seat: int) -> None:
        """Print what ``seat`` may see: its hand, the calls, the trick and the cards shown."""
        session = self.session
        obs = session.observation(seat, open_hands=self.open_hands)
        legal_cards = None
        if session.hand.phase in (DISCARD, PLAY) and seat == session.current_player():
            legal_cards = [self.rules.cards[a] for a in session.legal_actions() if a < self.rules.n_cards]
        _, labels = self.choices() if seat == session.current_player() else ([], [])
        title = f"bidwhist · {self.spec_name()} · hand {obs['hand_number']}"
        self.console.print(tableview.render_screen(obs, self.rules, choices=labels, you=seat, title=title,
                                                   legal=legal_cards, human_seats=self.humans,
                                                   need=books_to_make(session.hand)))

    def spec_name(self) -> str:
        """The variant as the session names it (``NAME+RULE...``; a file's stem where the variant is a path)."""
        s = self.session.settings
        base = Path(s.variant).stem if os.sep in s.variant else s.variant
        return "+".join([base, *s.with_rules])

    def prompt(self, seat: int) -> str:
        """The prompt for the move the phase asks of ``seat`` (a call, trump, a direction, discards or a card)."""
        hand = self.session.hand
        phase = hand.phase
        if phase == AUCTION:
            what = "Your call"
        elif phase == DECLARE_TRUMP:
            what = "Name trump"
        elif phase == DECLARE_DIRECTION:
            what = "Choose the direction"
        elif phase == DISCARD:
            done = len(hand.discards)
            what = f"Discard ({done + 1} of {hand.discard_target})"
            if seat != hand.declarer:  # the rules give the kitty to another seat than the declarer
                what = (f"You took the kitty for the declarer ({self.who(hand.declarer, seat)}): "
                        f"discard ({done + 1} of {hand.discard_target})")
        elif hand.table is None:
            what = "Lead (its suit is trump) or say notrump"
        else:
            what = "Your lead" if not hand.trick else "Your play"
        return f"{what} (seat {seat}) > "

    def say_error(self, text: str) -> None:
        """A refusal: a red cross and the reason, in words (rule ids are for records and JSON)."""
        self.console.print(Text.assemble(("✗", "bold red"), " ", text))

    def refusal(self, exc: IllegalAction, seat: int) -> str:
        """Why the engine refused a move, said to the player in words.

        The engine's message names seats and actions as records do (``seat 0 must
        declare one of: trump S, trump H``); the player is told in the words of the
        list they choose from (``you must choose one of: spades, hearts``).
        """
        if exc.rule == "declare" and self.session.hand.phase != PLAY:
            _, labels = self.choices()
            return f"you must choose one of: {', '.join(labels)}"
        if exc.rule == "wrong-phase":
            _, labels = self.choices()
            return f"that is not a move now: choose one of {', '.join(labels[:8])}" + (
                ", …" if len(labels) > 8 else "")
        return for_you(exc.message, seat)

    def number_is_a_bid(self, text: str) -> str:
        """Where a bare number is a bid and ``text`` is one, how to pick from the list instead
        (``1`` is a bid of 1, refused; the player may have meant the first choice)."""
        typed = text.strip()
        if self.session.hand.phase != AUCTION or not any_bare(self.rules) or not LIST_NUMBER.fullmatch(typed):
            return ""
        legal, _ = self.choices()
        return f" (#{typed} picks choice {typed} of the list)" if 1 <= int(typed) <= len(legal) else ""

    def handle(self, seat: int, text: str) -> bool:
        """Act on one line typed by the player; True once an action was taken."""
        word = text.strip().lower()
        if not word:
            self.say_error("type a move, a number from the list, or help")
            return False
        if word in ("help", "?", "h?"):
            self.console.print(self.help_text())
            return False
        if word in QUIT_WORDS:
            raise Quit()
        if word == "hint":
            self.hint()
            return False
        if word in ("rules", "rule", "rules all", "rulebook"):
            self.show_rules(whole=word in ("rules all", "rulebook"))
            return False
        if word == "score":
            self.show_score()
            return False
        if word in ("history", "hist"):
            self.show_history()
            return False
        if word in ("last", "last trick"):
            self.show_last_trick()
            return False
        if word in ("auction", "bids", "calls"):
            self.show_auction()
            return False
        if word in ("table", "look", "t"):
            self.show_table(seat)
            return False
        actions, problem = self.parse(text)
        if problem:
            self.say_error(problem)
            return False
        applied = 0
        discarding = self.session.hand.phase == DISCARD
        for action in actions:
            if self.session.current_player() != seat or self.session.is_over():
                break
            try:
                self.apply(action)
            except IllegalAction as exc:
                self.say_error(self.refusal(exc, seat) + self.number_is_a_bid(text))
                break
            applied += 1
        if not applied:
            return False
        hand = self.session.hand
        if discarding and self.session.current_player() == seat and hand.phase == DISCARD:
            # Discarding goes on: show the hand and the choices again, not the whole table.
            obs = self.session.observation(seat)
            _, labels = self.choices()
            self.console.print(Text("Your hand  ").append_text(tableview.hand_text(self.rules, obs["hand"], obs)))
            self.console.print(tableview.render_choices(labels))
            return False
        return True

    def help_text(self) -> str:
        """The commands, with examples of calls, trumps and directions taken from this variant."""
        rules = self.rules
        calls = ["pass"]
        for bid in rules.bids[len(rules.bids) // 3:]:
            strain = rules.strains[bid.strain]
            calls.append(bid.text)
            if strain.aliases:
                calls.append(f"{bid.level} {strain.aliases[0]}")
            if len(calls) >= 5:
                break
        auction = auction_rules(rules)  # the engine says which calls exist
        if auction.offers_take:
            calls.append("take")
        if auction.offers_redeal:
            calls.append("redeal")
        suits = [rules.suit_names[0].lower(), rules.suits[0].lower(), tableview.SUIT_SYMBOLS.get(rules.suits[0], ""),
                 "notrump"]
        directions = list(rules.orders)
        for index in range(len(rules.orders)):  # one alias of each order, where it has one
            directions += [a for a, i in rules.order_aliases.items() if i == index and a not in rules.orders][:1]
        return COMMANDS_HELP.format(calls="  ".join(calls), trumps="  ".join(x for x in suits if x),
                                    directions="  ".join(directions))

    # ---------------------------------------------------------------- parsing input
    def parse(self, text: str) -> tuple[list[int], str | None]:
        """The action(s) ``text`` names here, or a problem in words (nothing is applied)."""
        session = self.session
        rules = self.rules
        hand = session.hand
        phase = hand.phase
        legal, labels = self.choices()
        raw = text.strip()
        # ASCII case, as records read calls and words (runtime.notation): an alias `HÖHER` is
        # kept as `hÖher`, which Unicode's lower() (`höher`) would not match.
        word = ascii_lower(raw)
        bare_bids = phase == AUCTION and any_bare(rules)
        number = raw[1:] if raw.startswith("#") else raw
        if LIST_NUMBER.fullmatch(number) and not (bare_bids and not raw.startswith("#")):
            i = int(number)
            if 1 <= i <= len(legal):
                return [legal[i - 1]], None
            return [], f"{i} is not a number of the list (1 to {len(legal)})"
        if phase == AUCTION:
            action = parse_call(rules, "pass" if word == "p" else spelled_call(rules, raw))
            if action is None:
                # Where a bare number is a bid, `1` is read as one: say how to pick from the list.
                pick = "or #N for choice N of the list" if bare_bids else "or a number from the list"
                why = _not_a_whole_number(rules, word, legal) or _why_not_a_call(rules, spelled_call(rules, word))
                return [], (f"{shown(raw)} is not a call: {why}try pass, a bid such as "
                            f"'{labels[min(2, len(labels) - 1)]}', {pick}{digits_note(raw)}")
            return [hand.call_meaning(action)], None  # matching the high bid is how a dealer takes it
        if phase == DECLARE_TRUMP:
            action = self.parse_trump(word)
            if action is None:
                return [], f"{shown(raw)} names no trump: say a suit (hearts, h, ♥) or notrump, or a number"
            return [action], None
        if phase == DECLARE_DIRECTION:
            d = parse_direction(rules, word.removeprefix("direction").strip())
            if d is None:
                return [], (f"{shown(raw)} is not a direction: say one of {', '.join(rules.orders)}, "
                            "or a number from the list")
            return [rules.first_direction_action + d], None
        if phase == PLAY and hand.table is None and word in NOTRUMP_WORDS:
            return [rules.no_trump_action], None
        card = typed_card(rules, raw)
        if card is not None:
            return [card], None
        if phase == DISCARD:
            parts = [part.removeprefix("#") for part in re.split(r"[\s,]+", raw) if part]
            if parts and all(LIST_NUMBER.fullmatch(part) for part in parts):  # numbers of the list as it is shown now
                numbers = [int(part) for part in parts]
                bad = [i for i in numbers if not 1 <= i <= len(legal)]
                if bad:
                    return [], f"{bad[0]} is not a number of the list (1 to {len(legal)})"
                return self.within_discards([legal[i - 1] for i in numbers])
            cards = [typed_card(rules, part) for part in parts]
            if cards and all(c is not None for c in cards):
                return self.within_discards(cards)
        return [], (f"{shown(raw)} is not a card: type it like AS, as, 10h, A♠ or bj, or a number from the list "
                    f"(help){digits_note(raw)}")

    def within_discards(self, cards: list[int]) -> tuple[list[int], str | None]:
        """``cards`` to discard, or a refusal when they are more than the discards left
        (all or none: not the first few of them, the rest silently dropped), or when one is
        typed twice (`1 1 1`: was one card discarded, the rest dropped unsaid)."""
        twice = next((c for i, c in enumerate(cards) if c in cards[:i]), None)
        if twice is not None:
            return [], f"{self.rules.cards[twice]} typed twice: nothing was discarded"
        hand = self.session.hand
        left = hand.discard_target - len(hand.discards)
        if len(cards) > left:
            return [], (f"{len(cards)} cards typed, but {left} more to discard "
                        f"({hand.discard_target} in all): nothing was discarded")
        return cards, None

    def parse_trump(self, word: str) -> int | None:
        """The action naming trump (or notrump) that ``word`` types, or None if it names none."""
        rules = self.rules
        word = word.removeprefix("trump").strip()
        if word in NOTRUMP_WORDS:
            return rules.no_trump_action
        suit = _suit_named(rules, word)
        return None if suit is None else rules.first_trump_action + suit

    # ---------------------------------------------------------------- commands
    def hint(self) -> None:
        """Print the bot's move for the player and its reason; a failing hint is said, never costs the game."""
        try:
            found = self.session.hint()
        except Exception as exc:  # a hint must never cost the game
            self.say_error(f"no hint: the heuristic bot failed ({type(exc).__name__}: {exc})")
            return
        if found is None:
            self.console.print("No hint: the heuristic bot is not available in this installation.")
            return
        action, reason = found
        label = self.label(action)
        record_name = self.rules.action_names[action]  # `trump S`, as records write the action
        if reason.startswith(record_name + ":"):
            reason = label + reason[len(record_name):]  # said as the list says it: `spades: ...`
        if reason.lower().startswith(label.lower()) or reason.split(" ", 1)[0] in ("play", "discard", "lead"):
            shown = reason  # the reason already names the move
        else:
            shown = f"{label} — {reason}" if reason else label
        self.console.print(Text.assemble(("Hint: ", "bold"), shown))

    def rulebook_markdown(self) -> str:
        """The variant's rulebook (Markdown), compiled once, on first asking."""
        if self._rulebook_text is None:
            self._rulebook_text = self.rulebook()
        return self._rulebook_text

    def show_rules(self, whole: bool = False) -> None:
        """``rules``: the rules that bear on the hand in play, in a screenful; ``rules all``: the rulebook.

        The whole rulebook is some 60 lines: at a terminal it goes through rich's
        pager (``$PAGER``, else ``less``), so the table is not scrolled away.
        """
        if self.rulebook is None:
            self.console.print("The rulebook is not available here.")
            return
        try:
            text = self.rulebook_markdown()
            if whole:
                self.show_long([Markdown(text)])
                return
            grid, quoted = hand_rules(self.rules, self.session.hand, self.viewer, self.session.tally.totals,
                                      rulebook_sections(text), who=self.who)
            parts = [Text.assemble(("The rules of this hand", "bold"), ("  (rules all: the whole rulebook)", "dim")),
                     grid]
            for title, section in quoted:
                parts += [Text(title, style="bold"), Markdown(section)]
            self.show_long(parts)
        except Exception as exc:  # the rulebook is a help, not the game
            self.say_error(f"cannot print the rules: {exc}")

    def show_long(self, parts) -> None:
        """Print ``parts``; through rich's pager when they would not fit the terminal's height.

        Only at a terminal (stdin and stdout): piped or recorded, the text is printed as is.
        """
        console = self.console
        with console.capture() as captured:
            for part in parts:
                console.print(part)
        shown = captured.get()
        if console.is_terminal and sys.stdin.isatty() and shown.count("\n") >= console.height - 1:
            with less_shows_colours(), console.pager(styles=True):
                console.print(Text.from_ansi(shown), end="")
        else:
            console.print(Text.from_ansi(shown), end="")

    def show_score(self) -> None:
        """Print the game's totals as the player sees the sides, and each finished hand's score."""
        session = self.session
        rules = self.rules
        you = self.viewer
        labels = [tableview.side_label(rules, s, you) for s in range(rules.sides)]
        self.console.print("Score   " + "   ".join(f"{lab} {t}" for lab, t in
                                                             zip(labels, session.tally.totals)))
        for i, hand in enumerate(session.hands, 1):
            change = "   ".join(f"{'+' if v > 0 else ''}{v}" for v in hand.score)
            self.console.print(f"  hand {i}: {self.contract_words(hand)}   score {change}")
        if not session.hands:
            self.console.print("  no hand finished yet")
        self.labelled([("game", game_end_words(rules))])

    def contract_words(self, hand) -> str:
        """``hand``'s contract in words (or that it was thrown in), for the history."""
        if hand.declarer < 0:
            return "thrown in (no contract)"
        # What is decided only: the engine keeps "no trump" for a trump not named yet.
        c = hand.decided_contract
        decl = hand.declaration
        text = f"{self.rules.bid_text(c['bid'], c['strain'])} by {self.who(hand.declarer)}"
        if c.get("trump"):
            text += f", {self.rules.suit_names[self.rules.suits.index(c['trump'])]} trump"
        elif "trump" in c and not decl.notrump_only:  # a declared notrump the bid did not say
            text += ", no trump"
        if decl.chooses_direction and c.get("direction"):  # the declarer's choice, which the bid does not say
            text += f", {c['direction']}"
        if hand.is_terminal() and hand.made is not None:
            text += ", made" if hand.made else ", set"
        return text

    def show_history(self) -> None:
        """Print each finished hand of the game: its contract, books and score."""
        session = self.session
        for i, hand in enumerate(session.hands, 1):
            books = " / ".join(str(b) for b in hand.books)
            self.console.print(f"hand {i}: dealer {self.who(hand.dealer)}; {self.contract_words(hand)}; "
                               f"books {books}")
        if session.is_over():
            return
        hand = session.hand
        self.console.print(f"hand {session.hand_index + 1} (in play): dealer {self.who(hand.dealer)}")
        self.show_auction()
        for k, (leader, cards, winner) in enumerate(hand.tricks, 1):
            self.console.print(f"  trick {k}: {self.played_words(leader, cards)} → {self.who(winner)}")
        if hand.trick:
            self.console.print(f"  trick {len(hand.tricks) + 1} so far: {self.played_words(hand.leader, hand.trick)}")

    def show_auction(self) -> None:
        """Print the calls of the hand in play, in order, and its contract once there is one."""
        hand = self.session.hand
        calls = ", ".join(f"{self.who(s)} {self.rules.action_names[a]}" for s, a in hand.calls)
        self.console.print(f"  auction: {calls or 'no calls yet'}")
        if hand.declarer >= 0:
            self.console.print(f"  contract: {self.contract_words(hand)}")

    def show_last_trick(self) -> None:
        """Print the last trick of the hand in play: who played what, and who won it."""
        hand = self.session.hand
        if not hand.tricks:
            self.console.print("  no trick finished yet in this hand")
            return
        leader, cards, winner = hand.tricks[-1]
        self.console.print(f"  trick {len(hand.tricks)}: {self.played_words(leader, cards)} → {self.who(winner)}")

    def played_words(self, leader: int, cards) -> str:
        """The cards of a trick, each with its seat: ``you 8C, seat 1 (left) 2C``."""
        players = self.rules.players
        return ", ".join(f"{self.who((leader + j) % players)} {self.rules.cards[c]}" for j, c in enumerate(cards))

    # ---------------------------------------------------------------- narration
    def tell_laid_away(self, seat: int, card: int) -> None:
        """Gather another seat's discards and tell them in one line once it is done.

        ``seat 3 (right) lays away 6 cards`` — the cards themselves only with ``--open``.
        """
        if self.who(seat) == "you":
            return
        if self.laid_away is None or self.laid_away[0] != seat:
            self.laid_away = (seat, [])
        self.laid_away[1].append(card)
        hand = self.session.hand
        if hand.phase == DISCARD and hand.current_player() == seat:
            return  # more to come
        cards = self.laid_away[1]
        self.laid_away = None
        count = f"{len(cards)} card{'s' if len(cards) != 1 else ''}"
        text = Text.assemble(f"{self.who(seat)} lays away ", (count, "bold"))
        if self.open_hands:
            text.append(": " + " ".join(self.rules.cards[c] for c in cards))
        self.console.print(text)

    def tell_swaps(self, hand) -> None:
        """Who exchanged a card that leaves play for one of the discards (the cards only with ``--open``)."""
        for seat, gave, drew in hand.swaps:
            text = f"{self.who(seat)} exchanges {self.rules.cards[gave]} for one of the face-down discards"
            if self.open_hands or self.who(seat) == "you":
                text += f" ({self.rules.cards[drew]})"
            self.console.print(text)

    def describe(self, seat: int, action: int) -> Text | None:
        """One line for an action about to be taken, as everyone at the table sees it (None: told later)."""
        rules = self.rules
        hand = self.session.hand
        who = self.who(seat)
        you = who == "you"
        phase = hand.phase

        def line(base: str, third: str, what: str = "", after: str = "") -> Text:
            return Text.assemble(f"{who} {base if you else third}", " " if what else "", (what, "bold"), after)

        if phase == AUCTION:
            if action == rules.pass_action:
                return line("pass", "passes")
            return line("call", "calls", rules.action_names[action])
        if phase == DECLARE_TRUMP:
            if action == rules.no_trump_action:
                return line("declare", "declares", "no trump")
            return line("name", "names", self.label(action), " trump")
        if phase == DECLARE_DIRECTION:
            return line("choose", "chooses", self.label(action))
        if phase == DISCARD:
            if you:
                return line("discard", "discards", rules.cards[action])
            return None  # told once, with the count, when the seat has discarded all (tell_laid_away)
        if phase == PLAY and hand.table is None:
            if action == rules.no_trump_action:
                return line("declare", "declares", "no trump")
            suit = rules.suit_names[rules.card_suit[action]]
            return line("lead", "leads", rules.cards[action], f": {suit} are trump")
        return line("play", "plays", rules.cards[action])

    def hand_over(self, hand) -> None:
        """Print how ``hand`` ended: the contract made or set, the books and the score."""
        rules = self.rules
        you = self.viewer
        number = len(self.session.hands) if self.session.hands and self.session.hands[-1] is hand else "?"
        self.console.rule(f"hand {number} over")
        self.console.print(f"  {self.contract_words(hand)}")
        if hand.declarer >= 0:
            books = "   ".join(f"{tableview.side_label(rules, s, you)} {b}" for s, b in enumerate(hand.books))
            score = "   ".join(f"{tableview.side_label(rules, s, you)} {'+' if v > 0 else ''}{v}"
                               for s, v in enumerate(hand.score))
            # What each renege that stood moved, the sides named as the books beside it name them.
            for text in HandReplay(hand).renege_lines(lambda side: tableview.side_label(rules, side, you), self.who,
                                                      lambda i: f"in trick {i // rules.players + 1}"):
                self.console.print(f"  renege  {text}")
            # Why it scored so: the books needed against those taken, then the scoring in words.
            why = hand_score_lines(hand, lambda side: tableview.side_label(rules, side, you))
            self.console.print(f"  books   {books}")
            self.labelled(why[:1])
            self.console.print(f"  score   {score}")
            self.labelled(why[1:])
        tally = self.session.tally
        last = tally.games[-1] if tally.games else None
        ended = last is not None and last.winner is not None and last.first_hand + last.hands == len(self.session.hands)
        # A hand that ends a game shows that game's totals: in a rubber the tally's start again
        # from zero for the next game (records.md: "they start again ... with the next game's first hand").
        totals = "   ".join(f"{tableview.side_label(rules, s, you)} {t}"
                           for s, t in enumerate(last.totals if ended and last is not None else tally.totals))
        self.console.print(f"  totals  {totals}")
        if not ended:  # the game goes on: what ends it (an ended one is said by its result)
            self.labelled([("game", game_end_words(rules))])
        if tally.plays_rubber and ended and last is not None:
            # This hand ended a game of the rubber: its result, and the rubber's standing, as replay says them.
            self.console.print(Text(f"  {game_result_line(rules, len(tally.games), last.as_json(), True, you)}",
                                    style="bold"))
            self.console.print(f"  rubber  {standing_text(rules, tally.games_won, you)}")

    def labelled(self, lines: list[tuple[str, str]]) -> None:
        """Lines of the end of a hand, ``  label   text``, a long text wrapped under itself, not under the label."""
        if not lines:
            return
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=9, no_wrap=True)
        grid.add_column()
        for label, text in lines:
            grid.add_row(Text("  " + label), Text(text))
        self.console.print(grid)

    def win_verb(self, side: int) -> str:
        """``win`` after ``us``, ``them`` or ``you``; ``wins`` after a seat or a side (``seat 2 wins``)."""
        return "win" if tableview.side_label_is_plural(self.rules, side, self.viewer) else "wins"

    def game_over(self) -> None:
        """Print who won the game (or the rubber) and the final totals."""
        session = self.session
        rules = self.rules
        winner = session.winner
        if winner is None:
            self.console.print(f"The game stopped after {len(session.hands)} hands without a winner.")
        elif session.tally.plays_rubber:
            won = session.tally.games_won[winner]
            lost = sum(session.tally.games_won) - won
            self.console.print(Text(f"Rubber over: {tableview.side_label(rules, winner, self.viewer)} "
                                    f"{self.win_verb(winner)} the rubber, "
                                    f"{won} games to {lost}.", style="bold"))
        else:
            self.console.print(Text(f"Game over: {tableview.side_label(rules, winner, self.viewer)} "
                                    f"{self.win_verb(winner)}.", style="bold"))
        games = session.tally.games
        final = games[-1].totals if games and games[-1].winner is not None else session.tally.totals
        totals = "   ".join(f"{tableview.side_label(rules, s, self.viewer)} {t}" for s, t in enumerate(final))
        self.console.print(f"Final score: {totals}")
        if winner is not None:  # why it is over, in the rulebook's words
            rubber = session.tally.plays_rubber
            each = f"each game of the rubber, best of {rules.game_end.rubber}: " if rubber else ""
            self.console.print(f"({each}{game_end_words(rules)})")
        self.say_saved(f"The game record is {printable(str(session.path), False)} "
                       f"(bidwhist replay {shell_word(session.path)})")
