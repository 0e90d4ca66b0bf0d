"""``bidwhist import``: hands exported by the Trickster Cards app (PTN) as hand or game records.

The reading is runtime/trickster.py's (the engine replays each hand as it is read);
the game options' meaning is the table of bidcompiler/trickster_options.py.  Here:
the file, the choice of rules, the messages, and where the records go.
"""

from __future__ import annotations

import json
import sys

import click

from ..errors import printable
from .common import FilePath, check_output, output_reason, regular_file, same_file, write_output

# The reader, the engine and the compiler are imported inside the functions that use
# them, so that `bidwhist import --help` starts at once (tests/test_startup.py).

def _some_names(phrases, most: int = 10) -> str:
    """The options named in a message: each once, quoted to 40 characters, at most ``most`` of them
    (a hostile file's thousands of options make one line, not megabytes)."""
    unique = list(dict.fromkeys(phrases))
    shown = ", ".join(repr(p[:40] + ("…" if len(p) > 40 else "")) for p in unique[:most])
    return shown + (f" and {len(unique) - most:,} more" if len(unique) > most else "")


def _line_of(sources, phrase: str | None, default: int) -> int:
    """The line of the statement of options that holds ``phrase`` (None: any), else of the
    GameOptionsJson (where a default read for a key it leaves out comes from), else ``default``."""
    for wanted in (lambda s: phrase is not None and phrase in s.phrases, lambda s: s.json):
        found = next((s.line for s in sources if wanted(s)), None)
        if found is not None:
            return found
    return default


def _fail(file: str, line: int | None, message: str) -> None:
    click.echo(f"{file}:{line}: {message}" if line else f"{file}: {message}", err=True)
    sys.exit(1)


def _game_check(records: list[dict]) -> str | None:
    """None when the finished hands are one game in order; else why they are not.

    A hand still in progress can only be the last of a game, and takes no part in the
    check (replaying a record in progress is another part's work).
    """
    from runtime.records import RecordFile, replay_file

    from .replay import resolve_for_records

    done = [r for r in records if not r.get("in_progress")]
    if any(r.get("in_progress") for r in records[:-1]):
        index = next(i for i, r in enumerate(records[:-1]) if r.get("in_progress"))
        return f"hand {index + 1} stops before its end, and more hands follow it"
    if len(done) < 2:
        return None
    result = replay_file(RecordFile(done, True), resolve_for_records)
    error = result["error"]
    if error is None:
        return None
    return f"{error['at']}: {error['message']}"


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False), callback=regular_file)
@click.option("-o", "--output", "out", type=FilePath(dir_okay=False),
              help="Write the records to FILE (default: stdout).")
@click.option("--nearest", is_flag=True,
              help="Import even when a game option has no house rule here, under the rules of the "
                   "options that do; the ignored options are named on stderr.")
@click.option("--options-from", "options_from", type=click.Choice(["words", "json"]),
              help="Where a hand's options in words (GameOptions or the Event) and its GameOptionsJson "
                   "give one setting two values, follow these (without it the import stops and names both).")
@click.option("--json", "as_json", is_flag=True,
              help="Print a JSON summary on stdout: the records, the rules of each hand, the ignored "
                   "options and whether the hands are one game (docs/json.md).")
def import_cmd(file, out, nearest, options_from, as_json):
    """Import hands exported by the Trickster Cards app (PTN) as hand records.

    FILE holds one or more hands as Trickster exports them: tags such as [Deal "N:…"]
    (the fifth group of a hand holds the jokers), [Undealt "…"] (the kitty),
    [Auction "E"] with its calls, [Contract "4♠↑"], [CardsAdded]/[CardsRemoved]
    (kitty taken, discards) and [Play "E"] with one line per trick.  Each hand is
    replayed by the rules as it is read: the calls, the declaration, the discards, and
    each trick from its leader (the previous trick's winner), the line's cards being
    listed in fixed seat order from the first leader.

    The game options choose the rules by the shipped table
    bidcompiler/data/trickster-options.yaml, which says which phrase means which house
    rule.  A hand says them in words (GameOptions, and the words after " - " in an Event
    such as "Trickster Cards: Practice Whist - Bid Whist to ±7, no Jokers, …") and in
    GameOptionsJson; what each says is used, and where two give one setting two
    values the import stops and names both, unless --options-from says which to follow
    (words against JSON: with json, the words are not read on a setting the JSON
    states; elsewhere GameOptions and the Event must agree).
    GameOptionsJson leaves out the settings at the app's defaults: a key it leaves out
    is read as the table's default for it (said on stderr) unless the words say it.
    Trickster's seats S W N E are seats 0 1 2 3.  An option with no house rule stops
    the import and is named; --nearest imports under the rules of the other options
    instead.

    One hand is written as one hand record; several as JSON Lines, one record per
    line: a game record when they are one game (dealers in rotation, the game not
    decided before the last), else the lines are independent hands, as stderr says
    (score them with `bidwhist replay --each OUT`).  A hand that stops before its end
    is written with "in_progress": true; one whose play stops at the end of a trick
    and that has PBN's [Result "N"] (the tricks the declaring side took in all) is
    written as claiming the rest ("claim"), as stderr says.  [Result] counts tricks,
    not books: the kitty's book is not counted in it.

    Exit status 0 when every hand is imported, 1 for a PTN that is malformed (not
    UTF-8 text included) or breaks the rules (FILE:LINE: message) or an unknown option
    without --nearest or options that disagree without --options-from or an --output
    that cannot be written (a full disk), 2 for bad
    usage, an unreadable FILE (not a regular file, or larger than 16 MiB) or an --output
    that cannot be written at all (its folder missing, too long a name), checked first.
    """
    from runtime.trickster import PtnError, hand_to_record, read_ptn

    from ..errors import CompileError
    from ..pipeline import load_ruleset
    from ..trickster_options import OptionSource, OptionsDisagree, map_sources

    from runtime.files import MAX_RECORD_BYTES, FileRefused, NotUtf8, read_bounded_bytes, utf8_text

    # Writing would destroy what is read.  (FILE missing or out of reach is said below, as
    # reading it fails: same_file treats a name it cannot look at as another file.)
    if out and same_file(out, file):
        raise click.BadParameter(f"{out} is FILE itself: write the records under a new name", param_hint="--output")
    if out:
        check_output(out, "--output")  # before the work: a missing folder is said, not made
    try:  # bounded as a record file is: a PTN file holds hands as a game record does
        data = read_bounded_bytes(file, MAX_RECORD_BYTES, "PTN file")
    except FileRefused as exc:
        click.echo(printable(str(exc), False), err=True)  # the path is the user's: an ESC in it is shown
        sys.exit(2)
    try:
        # A PTN pasted from the app into an editor that saves "Unicode" is UTF-16 with its
        # byte-order mark: read as such (anything else must be UTF-8).
        text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else utf8_text(data)
    except NotUtf8 as exc:  # malformed content, said where: status 1
        click.echo(exc.said_of(file), err=True)
        sys.exit(1)
    except UnicodeDecodeError as exc:
        _fail(file, None, f"not UTF-16 text after its byte-order mark ({exc.reason} at byte {exc.start})")
    try:
        hands = read_ptn(text)
    except PtnError as exc:
        _fail(file, exc.line, exc.message)
    records = []
    rules_of = []
    for number, hand in enumerate(hands, 1):
        # Every message about one hand names it when the file holds several (one hand: the line is enough).
        which = f"hand {number}: " if len(hands) > 1 else ""
        try:
            sources = [OptionSource(name, at, said, is_json) for name, at, said, is_json in hand.option_sources()]
            mapped = map_sources(sources, prefer=options_from)
        except PtnError as exc:
            _fail(file, exc.line, which + exc.message)
        except OptionsDisagree as exc:
            _fail(file, exc.line, f"{which}{exc}")
        except ValueError as exc:
            _fail(file, hand.line, which + str(exc))
        phrases = [p for source in sources for p in source.phrases]
        # The line of the statement an unknown option comes from (a JSON default's: the JSON's).
        line = sources[0].line if sources else hand.line
        if mapped.unknown:
            line = _line_of(sources, mapped.unknown[0], line)
        if mapped.unknown and not nearest:
            names = _some_names(mapped.unknown)
            _fail(file, line, f"{which}game option{'s' if len(mapped.unknown) > 1 else ''} with no house "
                              f"rule here: {names}; --nearest imports the hand under {mapped.name}, ignoring "
                              f"{'them' if len(mapped.unknown) > 1 else 'it'}")
        if mapped.unknown:
            click.echo(f"{file}:{line}: {which}ignored game option"
                       f"{'s' if len(mapped.unknown) > 1 else ''} {_some_names(mapped.unknown)}; "
                       f"imported under {mapped.name}", err=True)
        elif not phrases:
            click.echo(f"{file}:{hand.line}: {which}no game options; imported under {mapped.name}", err=True)
        if mapped.assumed:
            keys, said = zip(*(a.split(": ", 1) for a in mapped.assumed))  # "key: 'phrase'" each
            click.echo(f"{file}:{_line_of(sources, None, hand.line)}: {which}GameOptionsJson leaves out "
                       f"{', '.join(keys)}; read as the app's default{'s' if len(keys) > 1 else ''} "
                       f"{', '.join(said)}", err=True)
        try:
            rules = load_ruleset(mapped.variant, tuple(mapped.with_rules))
        except CompileError as exc:  # the shipped table names a rule that does not compose
            _fail(file, line, which + "; ".join(d.one_line() for d in exc.diagnostics))
        try:
            records.append(hand_to_record(hand, rules, mapped.variant, mapped.with_rules))
        except PtnError as exc:
            _fail(file, exc.line, which + exc.message)
        rules_of.append({"variant": mapped.variant, "with": mapped.with_rules, "ignored": mapped.unknown,
                         "assumed": mapped.assumed})
        if records[-1].get("in_progress"):
            click.echo(f"{file}:{hand.line}: hand {number} stops before its end: imported as in progress", err=True)
        if "claim" in records[-1]:
            result = hand.get("Result")
            said = result.value.strip() if result else "?"
            click.echo(f"{file}:{result.line if result else hand.line}: {which}Result {said} is written as a "
                       f"claim: the declaring side takes {records[-1]['claim']} more tricks (Result counts "
                       "tricks, not books: the kitty's book is not in it)", err=True)

    not_a_game = _game_check(records) if len(records) > 1 else None
    if not_a_game:
        target = out or "OUT"
        click.echo(f"{file}: the {len(records)} hands are not one game ({not_a_game}); they are written one "
                   f"per line as independent hands: score them with `bidwhist replay --each {target}`", err=True)
    lines = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    if out:
        try:
            write_output(out, lines)
        except OSError as exc:
            click.echo(f"cannot write {out}: {output_reason(exc)}", err=True)  # as every command says it
            sys.exit(1)
    if as_json:
        click.echo(json.dumps({"records": records, "rules": rules_of,
                               "game": len(records) > 1 and not_a_game is None,
                               "in_progress": [i for i, r in enumerate(records) if r.get("in_progress")]},
                              ensure_ascii=False))
    elif not out:
        click.echo(lines, nl=False)
    else:
        if len(records) > 1:
            kind = "a game record" if not_a_game is None else "independent hand records"
        elif str(out).endswith(".jsonl"):  # records.md: a .jsonl file is a game record, even of one line
            kind = "a game record of one hand (a name ending in .jsonl makes a game record; .json keeps a lone hand)"
        else:
            kind = "a hand record"
        click.echo(f"{out}: {len(records)} hand{'s' if len(records) != 1 else ''} as {kind}", err=True)
