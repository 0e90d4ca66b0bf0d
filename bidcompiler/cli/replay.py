"""``bidwhist replay``: score hand and game records (the records.md contract).

JSON output is exactly records.md's.  Text output is for people: hands and tricks
are numbered from 1, seats keep the numbers the records use, and every per-side
figure (books, score, totals) is shown by side, in side order, the way ``bidwhist
play`` shows it (``side 0+2 9 (declarers)   side 1+3 4``).

``--each`` scores a file of independent hand records (one per line, as ``simulate
--hands … --records`` writes them) rather than one game.
"""

from __future__ import annotations

import json
import re
import sys
from functools import partial
from typing import Iterator

import click
from rich.text import Text

from runtime.files import MAX_RECORD_BYTES, FileRefused, StandardInput, read_bounded, read_stdin_bounded
from runtime.records import (
    MISSING_FIELD,
    HandReplay,
    NotARecord,
    RecordError,
    RecordFile,
    iter_records,
    read_record_file,
    record_line_numbers,
    record_starts,
    replay_file,
    replay_file_kept,
    replay_one,
)
from runtime.game import GameTally
from runtime.ruleset import Ruleset

from ..errors import CompileError, printable
from ..recordnames import record_folder, record_ruleset
from . import render
from .hand_rules import books_to_make
from .common import record_file, shell_word
from .table import side_label


# --------------------------------------------------------------------------- reading
def read_record_text(file: str) -> str:
    """The text of a record file; one line on stderr and exit 2 when it cannot be read.

    Only a regular file of at most :data:`runtime.files.MAX_RECORD_BYTES` is read (a
    FIFO, a device such as ``/dev/zero`` or a huge file would hang the tool or fill
    its memory).  ``-`` (:class:`runtime.files.StandardInput`) reads the record from
    stdin, within the same limit.
    """
    try:
        if isinstance(file, StandardInput):
            return read_stdin_bounded(MAX_RECORD_BYTES, "record")
        return read_bounded(file, MAX_RECORD_BYTES, "record")
    except FileRefused as exc:
        click.echo(printable(str(exc), False), err=True)  # one line, whatever the file's name holds
        sys.exit(2)


def parse_record_text(text: str, file: str) -> RecordFile:
    """Parse a record file's text; one line on stderr and exit 2 when it is not a record."""
    try:
        return read_record_file(text, file)
    except NotARecord as exc:
        message = str(exc)
        if not text.strip() and not isinstance(file, StandardInput):
            from runtime.session import sidecar_path  # only here: it loads the bots

            if sidecar_path(file).is_file():  # a play save of the earlier layout, before its first hand was over
                message += (f" (a game saved by `bidwhist play`, no hand finished yet; "
                            f"`bidwhist play --resume {shell_word(file)}` goes on with it)")
        # One line on stderr (records.md), also where FILE's name holds a newline or an ESC.
        click.echo(printable(message, False), err=True)
        sys.exit(2)


def load_record_file(file: str) -> RecordFile:
    """Read and parse a record file; one line on stderr and exit 2 when it is not a record."""
    return parse_record_text(read_record_text(file), file)


def resolve_for_records(variant: str, with_rules: list, folder: str = ".", confined: bool = True):
    """Find a record's variant and house rules, its paths relative to ``folder``; LookupError with a
    message when it cannot (a RefusedName, with its ``at``, for a path records.md refuses).
    ``confined=False``: a save its own player resumes (see recordnames.record_ir)."""
    try:
        return record_ruleset(variant, tuple(with_rules), folder, confined)
    except CompileError as exc:
        raise LookupError("; ".join(d.one_line() for d in exc.diagnostics)) from None
    except RecursionError:
        # A file nested deeper than the compiler's own limit should say so itself; should
        # one still run out of stack, the record's entry is at fault, not the tool.
        raise LookupError("a file it names is nested too deeply to be read") from None


def records_resolver(rf: RecordFile):
    """The resolver of the records of ``rf``: their paths are relative to the folder of its file."""
    return partial(resolve_for_records, folder=record_folder(rf.source or ""))


# --------------------------------------------------------------------------- errors
_HAND_AT = re.compile(r"^hand\[(\d+)\](.*)$")
# The checks that belong to a game rather than to one hand: a hand that fails only these
# is a legal hand of its own, in a file of independent hands.
_GAME_CHECKS = ("", ".dealer", ".variant", ".with")


def independent_hands_hint(rf: RecordFile, error: dict, file: str, command: str = "replay") -> str | None:
    """When a game record fails only because its lines are independent hands, what to run instead.

    That is the case when the failure is one of the game's own checks (the rotation of the
    dealer, a game already decided, another variant) at a hand after the first, and that
    hand replays legally on its own.
    """
    match = _HAND_AT.match(error["at"])
    if not rf.is_game or match is None or int(match.group(1)) == 0 or match.group(2) not in _GAME_CHECKS:
        return None
    alone = replay_file(RecordFile([rf.records[int(match.group(1))]], False, rf.source), records_resolver(rf))
    if alone["error"] is not None:
        return None
    return ("this hand is legal on its own: if the lines are independent hands (as "
            f"`simulate --hands … --records` writes them), score each with `bidwhist {command} --each "
            f"{'-' if isinstance(file, StandardInput) else file}`")


def checked(rf: RecordFile, file: str, command: str = "replay") -> tuple[dict, list[HandReplay], GameTally | None]:
    """``replay_file_kept``'s result, the replayed hands and a game's tally (the one replay
    the output is made from), the error's message saying so when ``COMMAND --each`` is what was meant."""
    result, replays, tally = replay_file_kept(rf, records_resolver(rf))
    err = result["error"]
    if err is not None:
        hint = independent_hands_hint(rf, err, file, command)
        if hint:
            result["error"] = {**err, "message": f"{err['message']}; {hint}"}
    return result, replays, tally


def error_line(file: str, error: dict, lines: list[int] | None = None, text: str | None = None) -> str:
    """The one stderr line of an illegal record, for people: file, where, and the rule broken.

    In a game record ``hand[3].play[17]`` reads ``FILE:4: hand 4, play[17]: …``: the
    file's line (as a compiler says it), then the hand counted from 1 and the field as
    records.md names it.  A field of a lone hand record stays as is: ``FILE: play[2]: …``.
    A required field the record lacks has no text to point at: given the file's ``text``,
    the line points at the object that lacks it, ``FILE:4:1: hand 4, dealer: no dealer: …``.
    """
    match = _HAND_AT.match(error["at"])
    index = int(match.group(1)) if match else 0
    starts = record_starts(text) if text is not None and MISSING_FIELD.match(error["message"]) else []
    where = f":{starts[index][0]}:{starts[index][1]}" if index < len(starts) else None
    if match is None:
        return printable(f"{file}{where or ''}: {error['at']}: {error['message']}", False)
    rest = match.group(2).lstrip(".")
    place = f"hand {index + 1}" + (f", {rest}" if rest else "")
    line = where or (f":{lines[index]}" if lines is not None and index < len(lines) else "")
    # The message quotes the record (someone else's file): printed, it says no more than it shows.
    return printable(f"{file}{line}: {place}: {error['message']}", False)


def each_error_line(file: str, line: int, error: dict, text: str, starts: dict[int, int]) -> str:
    """``--each``'s stderr line for an illegal hand: ``FILE:LINE: at: message``; a required field
    the hand lacks points at the column of its object too, as :func:`error_line` does.
    ``starts`` (each record's line to its column) is filled on the first such error and reused."""
    where = str(line)
    if MISSING_FIELD.match(error["message"]):
        if not starts:
            starts.update(record_starts(text))
        where += f":{starts.get(line, 1)}"
    return printable(f"{file}:{where}: {error['at']}: {error['message']}", False)


# --------------------------------------------------------------------------- text
def signed(value: int) -> str:
    """A score change as a player reads it: ``+8``, ``-7``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def by_side(rules: Ruleset, values, declaring: int | None = None, sign: bool = False,
            viewer: int | None = None) -> str:
    """Per-side figures as ``bidwhist play`` shows them: ``side 0+2 9 (declarers)   side 1+3 4``
    (sides as ``viewer`` sees them, ``us (0+2)``, where one is given)."""
    parts = []
    for side, value in enumerate(values):
        text = f"{side_label(rules, side, viewer)} {signed(value) if sign else value}"
        if side == declaring:  # a side of one player (individual play) is one declarer
            text += " (declarers)" if rules.side_of.count(side) > 1 else " (declarer)"
        parts.append(text)
    return "   ".join(parts)


def contract_text(rules: Ruleset, contract: dict) -> str:
    """``4 notrump by seat 0 (side 0+2), no trump, uptown`` (a bare-number bid: ``4 by seat 0 ...``);
    a player alone is just ``seat 1``.

    A hand in progress stopped before the declaration (or, where the first lead names trump,
    before that lead) has no ``trump`` in its contract (:attr:`HandState.decided_contract`):
    it reads "trump not yet named", not "no trump"; and one stopped before the declarer names
    the direction (a notrump bid, where the declarer chooses it) "direction not yet named",
    as the JSON leaves ``direction`` out.
    """
    if "trump" not in contract:
        trump_words = "trump not yet named"
    elif contract["trump"] is None:
        trump_words = "no trump"
    else:
        trump_words = f"{rules.suit_names[rules.suits.index(contract['trump'])]} trump"
    side = side_label(rules, contract["side"], None)
    by = f"seat {contract['declarer']}" + ("" if side == f"seat {contract['declarer']}" else f" ({side})")
    text = f"{rules.bid_text(contract['bid'], contract['strain'])} by {by}, {trump_words}"
    return text + (f", {contract['direction']}" if contract.get("direction") else ", direction not yet named")


def _row(out: render.Lines, label: str, value: str) -> None:
    out.add(f"  {label:<10}{value}")


def print_deal(out: render.Lines, state) -> None:
    """Dealer, auction, contract, kitty and discards: everything before the first card."""
    rules = state.rules
    names = rules.action_names
    cards = rules.cards
    _row(out, "dealer", f"seat {state.dealer}")
    calls = ", ".join(f"seat {seat}: {names[action]}" for seat, action in state.calls)
    _row(out, "auction", calls or "no calls")
    if state.declarer < 0 and state.is_terminal():
        _row(out, "contract", "none: the hand was thrown in")
    elif state.declarer < 0:
        _row(out, "contract", "not yet: the auction is open")
    else:
        _row(out, "contract", contract_text(rules, state.decided_contract))
    if rules.kitty_size:
        kitty = " ".join(cards[c] for c in state.kitty) or "empty"
        taken = ""
        if state.declarer >= 0 and state.kitty:   # a hand in progress may stop before the kitty is taken
            taken = f", {'taken' if state.kitty_taken() else 'to be taken'} by seat {state.kitty_taker()}"
        _row(out, "kitty", kitty + taken)
    if state.discards:
        _row(out, "discards", " ".join(cards[c] for c in state.discards) + f" (seat {state.kitty_taker()})")
    if state.out:
        _row(out, "out", " ".join(cards[c] for c in state.out) + " (out of play)")
    for seat, gave, drew in state.swaps:
        _row(out, "swap", f"seat {seat} gave {cards[gave]} and drew {cards[drew]} from the discards")


def print_hand(console, replay: HandReplay, title: str | None = None) -> None:
    """One replayed hand for people: the deal and auction, every trick from 1, books and score.

    The hand's lines go to ``console`` in one print (:class:`render.Lines`): printing
    each line, and drawing the tricks with rich's Table, cost ten times the replay.
    """
    out = render.Lines()
    hand_lines(out, replay, title)
    console.print(out)


def hand_lines(out: render.Lines, replay: HandReplay, title: str | None = None) -> None:
    """The lines :func:`print_hand` prints, added to ``out``."""
    state = replay.state
    rules = state.rules
    if title:
        out.add(title, "bold")
    print_deal(out, state)
    if state.declarer < 0:
        if replay.in_progress:
            _row(out, "status", "in progress: not scored")  # as a hand in progress past the auction
        else:  # the same facts as the JSON: no contract, and every side's score unchanged
            _row(out, "score", by_side(rules, state.score, sign=True))
        return
    if state.tricks or (replay.in_progress and state.trick):
        table = render.PlainTable([("  trick", "right"), ("leader", "left"), ("cards", "left"),
                                   ("winner", "left")])
        for i, (leader, trick, winner) in enumerate(state.tricks, 1):
            table.add_row(str(i), f"seat {leader}", " ".join(rules.cards[c] for c in trick), f"seat {winner}")
        if replay.in_progress and state.trick:
            table.add_row(str(len(state.tricks) + 1), f"seat {state.leader}",
                          " ".join(rules.cards[c] for c in state.trick), "(unfinished)")
        out.add_renderable(table)
    side = rules.side_of[state.declarer]
    if replay.in_progress:
        for line in replay.renege_lines():  # as the JSON lists them; nothing has moved yet
            _row(out, "renege", line)
        _row(out, "books", by_side(rules, state.books_so_far(), side) + " so far")
        _row(out, "status", "in progress: not scored")
        return
    for line in replay.renege_lines():
        _row(out, "renege", line)
    # A claim of 0 on a hand played to its last trick claims nothing: there is no "rest".
    claim = ", the rest by claim" if replay.claimed and len(state.tricks) < rules.hand_size else ""
    after = " (after the renege penalty)" if replay.penalty_moved_books else ""
    _row(out, "books", by_side(rules, state.books, side) + claim + after)
    _row(out, "score", by_side(rules, state.score, sign=True))
    if state.made is not None:
        # The books the contract needed (as the engine scores it), against those the declarers took.
        need = books_to_make(state)
        needed = f": {need} books needed, {state.books[side]} taken" if need is not None and state.books else ""
        _row(out, "result", ("made" if state.made else "set") + needed)


def print_replay(rf: RecordFile, result: dict, replays: list[HandReplay], tally: GameTally | None) -> None:
    """A legal hand or game record for people, trick by trick, with books and scores:
    ``replays`` and ``tally`` are what the check replayed (:func:`checked`).

    A game record says each game's result as it ends (and, in a rubber, the standing
    in games), then the last game's totals and who won the match.
    """
    console = render.stdout()
    if not rf.is_game or tally is None:
        print_hand(console, replays[0])
        return
    rules = replays[0].state.rules
    games = result["games"]
    ends = {g["first_hand"] + g["hands"] - 1: (n, g) for n, g in enumerate(games, 1) if g["winner"] is not None}
    won = [0] * len(result["totals"])
    for i, replay in enumerate(replays):
        print_hand(console, replay, f"hand {i + 1}")
        if i in ends:
            n, game = ends[i]
            won[game["winner"]] += 1
            console.print(Text(game_result_line(rules, n, game, tally.plays_rubber), style="bold"))
            if tally.plays_rubber:
                console.print(Text(f"rubber    {standing_text(rules, won)}"))
    console.print(Text("totals    ", style="bold").append(by_side(rules, result["totals"]), style=None))
    console.print(match_line(rules, result, tally.plays_rubber))


def game_result_line(rules: Ruleset, number: int, game: dict, rubber: bool, viewer: int | None = None) -> str:
    """``game 1 won by side 0+2, 11 to 4 (hands 1-5)``: one game's result as it ends (sides
    named as ``viewer`` sees them at the terminal, ``us (0+2)``; as a record has them by default).

    With two sides the winner's total comes first, also where it is the lower one (a side
    that reaches the target with the other, or whose opponent loses by a rule, wins with
    fewer points): "won by side 0+2, 11 to 12" reads truly where the larger first would not.
    """
    totals = game["totals"]
    scores = f"{totals[game['winner']]} to {totals[1 - game['winner']]}" if len(totals) == 2 \
        else by_side(rules, totals, viewer=viewer)
    hands = f"hands {game['first_hand'] + 1}-{game['first_hand'] + game['hands']}" if game["hands"] > 1 \
        else f"hand {game['first_hand'] + 1}"
    title = f"game {number}" if rubber else "game"
    return f"{title} won by {side_label(rules, game['winner'], viewer)}, {scores} ({hands})"


def standing_text(rules: Ruleset, won: list[int], viewer: int | None = None) -> str:
    """The rubber's standing in games: ``side 0+2 1 game   side 1+3 0 games`` (sides as ``viewer`` sees them)."""
    return "   ".join(f"{side_label(rules, s, viewer)} {n} game{'' if n == 1 else 's'}" for s, n in enumerate(won))


def match_line(rules: Ruleset, result: dict, rubber: bool) -> Text:
    """The last line of a game record: who won the match, or that it goes on."""
    winner = result["winner"]
    games = result["games"]
    if winner is None:
        if not rubber:
            return Text("game in progress")
        done = sum(1 for g in games if g["winner"] is not None)
        going = games and games[-1]["winner"] is None
        if going:
            return Text(f"rubber in progress: game {len(games)} under way, {done} won so far")
        return Text(f"rubber in progress: {done} game{'' if done == 1 else 's'} won, game {done + 1} still to play")
    if not rubber:
        return Text(f"{side_label(rules, winner, None)} wins the game", style="bold")
    won = sum(1 for g in games if g["winner"] == winner)
    return Text(f"{side_label(rules, winner, None)} wins the rubber, {won} games to {len(games) - won}", style="bold")


# --------------------------------------------------------------------------- --each
def each_record(text: str, file: str) -> Iterator[tuple[int, dict]]:
    """The records of ``file`` one at a time, with their first line, once all are known to be
    records; one line on stderr and exit 2 (before any output) when one is not.

    The file is read twice, a record at a time: first to check every line, then to
    replay.  Nothing is kept between records, so memory stays that of one record
    however long the file is (up to :data:`runtime.files.MAX_RECORD_BYTES`).
    """
    try:
        for _ in iter_records(text, file)[1]:
            pass
    except NotARecord as exc:
        click.echo(printable(str(exc), False), err=True)
        sys.exit(2)
    return iter_records(text, file)[1]


def replay_each(file: str, as_json: bool) -> int:
    """Score every line of ``file`` as an independent hand record; the exit status.

    Streams: each hand is replayed and printed before the next is read, and only the
    counts the summary needs are kept (the JSON is written piece by piece, the same
    bytes ``json.dumps`` of the whole would give).
    """
    text = read_record_text(file)
    resolve = partial(resolve_for_records, folder=record_folder(file))
    illegal: list[int] = []
    records = each_record(text, file)  # every line checked before anything is printed
    if as_json:
        click.echo('{"hands": [', nl=False)
        for number, (line, record) in enumerate(records):
            r = replay_file(RecordFile([record], False, file), resolve)
            if r["error"] is not None:
                illegal.append(line)
            click.echo((", " if number else "") + json.dumps({"line": line, **r}), nl=False)
        click.echo(f'], "illegal": {json.dumps(illegal)}}}')
        return 1 if illegal else 0
    console = render.stdout()
    made = set_ = thrown = progress = count = 0
    starts: dict[int, int] = {}
    for number, (line, record) in enumerate(records, 1):
        count = number
        title = f"hand {number}" + (f" (line {line})" if line != number else "")
        try:  # replayed once, checked and printed from the same replay
            replay = replay_one(record, resolve)
        except RecordError as exc:
            error = exc.as_json()
            illegal.append(line)
            click.echo(each_error_line(file, line, error, text, starts), err=True)
            console.print(Text(f"{title}: illegal at {error['at']}, not scored", style="bold"))
            continue
        print_hand(console, replay, title)
        state = replay.state
        if replay.in_progress:
            progress += 1
        elif state.declarer < 0:
            thrown += 1
        elif state.made:
            made += 1
        else:
            set_ += 1
    summary = f"{count} hand{'s' if count != 1 else ''}: {made} made, {set_} set, {thrown} thrown in"
    if progress:
        summary += f", {progress} in progress"
    if illegal:
        summary += f"; {len(illegal)} illegal, not scored (line{'s' if len(illegal) > 1 else ''} " \
                   f"{', '.join(map(str, illegal))})"
    console.print(Text(summary, style="bold"))
    return 1 if illegal else 0


# --------------------------------------------------------------------------- the command
@click.command()
@click.argument("file", type=click.Path(), callback=record_file)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON (docs/records.md).")
@click.option("--each", is_flag=True,
              help="Score each line as an independent hand record (a file written by "
                   "`simulate --hands … --records`), not as one game.")
def replay(file, as_json, each):
    """Replay a hand record or a game record (.jsonl) and score it.

    The text shows each hand's dealer, auction, contract, kitty and discards, then its
    tricks (numbered from 1), books and score by side.  With --each, every line of
    FILE is a hand of its own: each is scored and numbered from 1, then a summary;
    --json then prints {"hands": [...], "illegal": [...]}, each hand as a one-hand
    replay prints it plus its "line", and "illegal" the lines of the illegal hands.

    FILE - reads the record from stdin (piped in; its paths are relative to
    the working directory, and confined to it, as a file's are to its folder).

    Exit status 0 for a legal record, 1 for an illegal one (reported at its first
    illegal entry, never scored; with --each, when any hand is illegal), 2 for a file
    that is not a record.
    """
    if each:
        sys.exit(replay_each(file, as_json))
    text = read_record_text(file)
    rf = parse_record_text(text, file)
    result, replays, tally = checked(rf, file)
    if as_json:
        click.echo(json.dumps(result))
    elif result["error"] is None:
        print_replay(rf, result, replays, tally)  # from the check's own replay: nothing is read again
    if result["error"] is not None:
        if not as_json:
            click.echo(error_line(file, result["error"], record_line_numbers(text) if rf.is_game else None, text),
                       err=True)
        sys.exit(1)
