"""``bidwhist simulate``: play many hands or games with bots and report what a rule does.

The options that say how a run is played and where it runs (``--games``/``--hands``,
``--bots``, ``--seed``, ``--workers``, ``--backend``, ``--scheduler``,
``--max-hands``, ``--json``, ``--plot``) are shared with ``bidwhist compare``
(``run_options``), and so are the checks and steps of a run (``check_run``,
``choose_bots``, ``draw_seed``, ``execute``, ``show_report``), and the way a report
names what was run (``describe_variant``).
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import stat
import sys
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

import click

from ..errors import printable
from .common import (PROGRESS_FROM, SEED_RANGE, FilePath, IntegerRange, check_output, load_rules, nonempty_names,
                     open_output, output_reason, same_file, spec_text, variant_options)

if TYPE_CHECKING:
    from runtime.simulate import RunSpec, Totals

# The engine, the compiler and rich are imported inside the functions that use them,
# so that `bidwhist simulate --help` (and compare's) start at once (tests/test_startup.py).

# The bots a run plays with when --bots is not given: the strongest kind that runs at
# simulation speed (sampler plays better but is two orders of magnitude slower).
DEFAULT_BOTS = "heuristic"

# Modules a local pool's server process imports once, so workers start warm: the
# chunk functions, the compiler that rebuilds a Ruleset's formulas on unpickling, and the
# default bots (runtime.bots imports a kind only when it plays, so it is named here).
POOL_PRELOAD = ("runtime.simulate", "bidcompiler.expressions", "runtime.bots.heuristic")


# Bounds of the numeric options (issue 15), each said in --help and in the usage error
# (click's IntRange names the range): a run of more than a billion games or hands would
# take years; more local workers than this only compete for the same cores; a game
# undecided after a million hands is stopped anyway; seeds are 64-bit (common.SEED_RANGE).
MAX_RUN = 10**9
MAX_WORKERS = 64
MAX_GAME_HANDS = 10**6
# --max-hands when not given: runtime.simulate.MAX_HANDS, written out here so that the
# option's help needs no engine (tests/test_cli_usage.py checks the two agree).
DEFAULT_GAME_HANDS = 1000
# The widest number a --records name's {game:FORMAT} field may ask for.
MAX_GAME_WIDTH = 20


def run_options(command):
    """Add the options shared by ``simulate`` and ``compare``."""
    options = [
        click.option("--games", type=IntegerRange(min=1, max=MAX_RUN),
                     help=f"Play this many whole games (rubbers where the variant plays them); at most {MAX_RUN:,}."),
        click.option("--hands", type=IntegerRange(min=1, max=MAX_RUN),
                     help=f"Play this many independent hands, the deal rotating; at most {MAX_RUN:,}."),
        click.option("--bots", default=None, metavar="KIND[,KIND...]",
                     help="Bots for every seat (random, heuristic, baseline, sampler), or one per side, "
                          "e.g. heuristic,baseline (baseline: the heuristic of 2026-12, frozen).  "
                          "Default: heuristic.  The report's header says which played."),
        click.option("--seed", type=SEED_RANGE, default=None,
                     help="Seed of the run, a 64-bit signed integer (drawn and shown on stderr if omitted)."),
        click.option("--workers", type=IntegerRange(min=1, max=MAX_WORKERS), default=None,
                     help=f"Local worker processes (default 1, at most {MAX_WORKERS}).  Results do not depend on it."),
        click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
                     help="Where chunks run: this machine, or an existing Dask cluster (--scheduler)."),
        click.option("--scheduler", metavar="ADDRESS",
                     help="Address of the Dask scheduler for --backend dask, e.g. tcp://10.0.0.5:8786."),
        click.option("--max-hands", type=IntegerRange(min=1, max=MAX_GAME_HANDS), default=DEFAULT_GAME_HANDS,
                     show_default=True, help="With --games: stop a game that is still undecided after this "
                                             f"many hands (at most {MAX_GAME_HANDS:,})."),
        click.option("--json", "as_json", is_flag=True,
                     help="Print every figure as JSON, unrounded, on stdout (keys: docs/json.md)."),
        click.option("--plot", type=FilePath(dir_okay=False),
                     help="Draw the distributions to this file, in the format its extension names (.png, .svg, "
                          ".pdf...; needs the 'plot' extra: matplotlib).  Checked before the run starts.  "
                          "With --json both are made: the JSON on stdout, the picture in the file."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def check_run(games, hands, workers, backend, scheduler, plot):
    """Usage checks common to both commands; returns (mode, count)."""
    if games and hands:
        raise click.UsageError("give --games or --hands, not both")
    if not games and not hands:
        raise click.UsageError("say how much to play: --games N or --hands N")
    ctx = click.get_current_context(silent=True)
    if hands and ctx is not None and ctx.get_parameter_source("max_hands") is click.core.ParameterSource.COMMANDLINE:
        raise click.UsageError("--max-hands is for --games (it stops a game that goes on too long); "
                               "--hands plays exactly the hands asked for")
    if backend == "dask":
        if workers is not None:
            raise click.UsageError("--workers counts local processes; with --backend dask the cluster's "
                                   "workers run the chunks")
        if not scheduler:
            raise click.UsageError("--backend dask needs --scheduler ADDRESS (a running Dask scheduler)")
        from runtime import backends

        if not backends.dask_installed():
            raise click.UsageError(backends.DASK_MISSING)
    elif scheduler:
        raise click.UsageError("--scheduler is for --backend dask")
    if plot:
        from . import plots  # matplotlib itself is imported only here, when a plot is asked for
        try:
            plots.require()
            plots.check_path(plot)
        except plots.PlotUnavailable as exc:
            raise click.UsageError(str(exc)) from None
        except ValueError as exc:
            raise click.BadParameter(printable(str(exc), False), param_hint="--plot") from None
    return ("games", games) if games else ("hands", hands)


def choose_bots(text: str | None, sides: list[int]) -> tuple[str, ...]:
    """The bot kinds of a run: as given, or :data:`DEFAULT_BOTS`, for --games and --hands alike
    (random, with a note on stderr, should the default kind not be available)."""
    from runtime import bots as bot_registry

    available = bot_registry.BOTS
    if text is None:
        if DEFAULT_BOTS in available:
            return (DEFAULT_BOTS,)
        click.echo(f"note: {DEFAULT_BOTS} bots are not available; playing with random bots", err=True)
        return ("random",)
    kinds = tuple(k.strip() for k in text.split(","))
    if "" in kinds:
        raise click.BadParameter(f"{text!r} has an empty kind: write KIND, or KIND,KIND (one per side); "
                                 f"kinds: {', '.join(available)}", param_hint="--bots")
    for kind in kinds:
        if kind not in available:
            raise click.BadParameter(f"unknown bot {kind!r}; choose from {', '.join(available)}",
                                     param_hint="--bots")
    if len(kinds) > 1 and len(set(sides)) > 1:
        raise click.BadParameter(f"A has {sides[0]} sides and B {sides[1]}: give one bot kind for every seat",
                                 param_hint="--bots")
    if len(kinds) > 1 and any(len(kinds) != n for n in sides):
        raise click.BadParameter(f"give one bot kind, or one per side ({' / '.join(map(str, sorted(set(sides))))} "
                                 f"sides), not {len(kinds)}", param_hint="--bots")
    return kinds


def describe_variant(spec: str, with_rules=(), sets=()) -> dict:
    """What a report says was run, exactly as the user named it.

    ``variant`` is the full description: the base, every house rule in the order it
    is laid on (those after ``+`` first, then each ``--with``), and every ``--set``
    as given, e.g. ``NAME+mine.whist+RULE --set auction.levels.from=4``.
    ``base``, ``with`` and ``set`` are its parts, for programs.
    """
    from ..variantspec import VariantSpec

    parsed = VariantSpec.parse(spec, with_rules, sets)
    text = " ".join([str(parsed), *(f"--set {shlex.quote(item)}" for item in parsed.sets)])
    return {"variant": text, "base": parsed.base, "with": list(parsed.with_rules), "set": list(parsed.sets)}


def draw_seed(seed):
    """The seed given, or a drawn one (shown on stderr so the run can be repeated)."""
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        click.echo(f"seed: {seed}", err=True)
    return seed


def execute(fn, args, spec: RunSpec, workers, backend, scheduler, on_result=None) -> Totals:
    """Run a spec's chunks with a progress bar on stderr; their totals, each chunk folded in as it
    is due (``on_result`` sees it first) and then let go, so memory stays flat."""
    from runtime.backends import BackendError
    from runtime.simulate import folded, run_chunk

    if may_show_progress(spec.count):
        from . import render

        progress = render.progress
    else:
        progress = _no_progress
    with progress(spec.count, "simulating" if fn is run_chunk else "comparing") as advance:
        def on_progress(i, result):
            for _ in range(result.units):
                advance()
        try:
            return folded(fn, args, spec.chunks, on_result=on_result, workers=workers or 1, backend=backend,
                          scheduler=scheduler, on_progress=on_progress, preload=POOL_PRELOAD)
        except BackendError as exc:
            raise click.UsageError(str(exc)) from None


def may_show_progress(total: int) -> bool:
    """False where render.progress would surely draw no bar, found without importing rich (a third of
    a short run's start-up): a short run, or stderr no terminal and neither variable rich reads to
    be told otherwise (TTY_COMPATIBLE, FORCE_COLOR) set.  True leaves the answer to rich."""
    if total < PROGRESS_FROM:
        return False
    if os.environ.get("TTY_COMPATIBLE") is not None or os.environ.get("FORCE_COLOR") is not None:
        return True
    isatty = getattr(sys.stderr, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


@contextmanager
def _no_progress(total: int, label: str):
    """render.progress where no bar is drawn: yields a function that does nothing."""
    yield lambda: None


def write_plot(kind: str, data: dict, path: str) -> None:
    """Draw a report's distributions to ``path``; a file that cannot be written is an error (exit 1)."""
    from . import plots
    try:
        getattr(plots, kind)(data, path)
    except (OSError, ValueError) as exc:
        reason = output_reason(exc) if isinstance(exc, OSError) else str(exc)
        raise click.ClickException(f"--plot: cannot write {path}: {reason} (the report above is complete)") from None


def show_report(data: dict, as_json: bool, plot: str | None, plot_kind: str, render_text) -> None:
    """The end of a run: printed as JSON or by ``render_text``, then its figures drawn to ``plot`` if given.

    ``plot_kind`` names the function of :mod:`bidcompiler.cli.plots` that draws them, ``render_text``
    a function or the name of one in :mod:`bidcompiler.cli.render` (imported only to print text).
    The path was checked before the run (see :func:`check_run`); should the file
    still fail to be written, the report has been printed already, so the run's
    results are never lost.
    """
    if as_json:
        click.echo(json.dumps(data, indent=2))
    else:
        if isinstance(render_text, str):  # a function of render.py by name: rich is imported only here
            from . import render

            render_text = getattr(render, render_text)
        render_text(data)
    if plot:
        write_plot(plot_kind, data, plot)


# --records NAME: a name holding {game} (or {game:04d}) gives each game its own file.
_GAME_FIELD = re.compile(r"\{game(:[^{}]*)?\}")


def has_game_field(path: str) -> bool:
    """Whether a ``--records`` name holds ``{game}`` (or ``{game:04d}``): one file per game."""
    return bool(_GAME_FIELD.search(path))


def game_path(path: str, game: int) -> str:
    """The record file of game ``game`` for a name holding ``{game}`` or ``{game:FORMAT}``.

    ValueError for a format wider than :data:`MAX_GAME_WIDTH` (``{game:99999999999d}``
    would ask for a name of that many characters), one ``format`` refuses, ``c`` (a
    character: NUL, '/') and one filling in a folder separator (``{game:/>4}``).
    """
    def field(match) -> str:
        spec = (match.group(1) or ":")[1:]
        if any(int(n) > MAX_GAME_WIDTH for n in re.findall(r"\d+", spec)):
            raise ValueError(f"a width of at most {MAX_GAME_WIDTH}")
        if spec.endswith("c"):  # a character, not a number: NUL for game 0, '/' for game 47
            raise ValueError("'c' makes the game's number a character")
        text = format(game, spec)
        if os.sep in text or (os.altsep and os.altsep in text):
            raise ValueError(f"it gives {text!r}, which is not part of one file name")
        return text
    return _GAME_FIELD.sub(field, path)


def _not_a_variant_file(records: str, variant: str, with_rules) -> None:
    """Refuse (exit 2) a --records file that is the variant or a house-rule file named: writing would destroy it."""
    if not os.path.exists(records):
        return
    from ..resources import locate
    from ..variantspec import VariantSpec

    parsed = VariantSpec.parse(variant, with_rules)
    for name in (parsed.base, *parsed.with_rules):
        # The file the name leads to, as the compiler finds it: a shipped name wins over a
        # file of that name here (`--records NAME` beside a file NAME is no shipped variant's file).
        found = locate(name)[0]
        if found is not None and same_file(found, records):
            raise click.BadParameter(f"{records} is the variant file {name}: write the records under a new name",
                                     param_hint="--records")


def _not_the_plot(records: str, mode: str, count: int, plot: str | None) -> None:
    """Refuse (exit 2) a --records name that is --plot's file too: the picture, drawn last, was
    written over the records (`--records out.svg --plot out.svg`), and the run's records lost.
    With {game}, any game's file (`--records 'g{game}.svg' --plot g1.svg` lost game 1's)."""
    if not plot:
        return
    if mode == "games" and has_game_field(records):
        try:
            names = [game_path(records, n) for n in _games_that_may_be(records, count, plot)]
        except ValueError:  # a bad {game} field: RecordWriter says so
            return
    else:
        names = [records]
    for name in names:
        if same_file(name, plot):
            raise click.BadParameter(printable(f"{name} is the --plot file too: the picture would be written "
                                               "over the records; give them two names", False),
                                     param_hint="--records")


# Up to this many games every game's file name is tried against --plot's; beyond, the
# numbers --plot's name could hold (game_path is then asked of those only).
_EVERY_GAME_TRIED = 10_000


def _games_that_may_be(records: str, count: int, plot: str) -> list[int]:
    """The games of ``count`` whose record file (``records`` holding {game}) may be ``plot``:
    every game in a short run; in a long one the first, the last, and each number --plot's
    name may hold where the first {game} field stands (every field holds the same game):
    each start of the rest of the name after the text before that field, read in any base
    or as a float.  A number too many is only one more name compared."""
    if count <= _EVERY_GAME_TRIED:
        return list(range(count))
    found = {0, count - 1}
    # The name made absolute with each field marked by a NUL (in no file name), then cut there.
    before = os.path.abspath(_GAME_FIELD.sub("\0", records)).split("\0")[0]
    for seen in {os.path.abspath(plot), os.path.realpath(plot)}:
        if seen.startswith(before):
            rest = seen[len(before):]
            for end in range(1, min(len(rest), _LONGEST_FIELD) + 1):
                found.update(n for n in _numbers_in(rest[:end]) if 0 <= n < count)
    return sorted(found)


# The longest text a {game} field is looked for in --plot's name (a width beyond is no name
# a person gives; without a bound a pattern of several fields backtracked for minutes).
_LONGEST_FIELD = 200


def _numbers_in(text: str) -> set[int]:
    """The whole numbers ``text`` (a {game} field as formatted) may be: read in base 10, 16, 8
    or 2 (with or without its 0x, 0o, 0b), or as a float, with a fill and grouping left out."""
    bare = re.sub(r"[,_]", "", text).strip(" *<>^=.-+")
    numbers = set()
    for word in {bare, bare.lstrip("0") or "0", re.sub(r"^[+-]?0[xXoObB]", "", bare)}:
        for base in (10, 16, 8, 2):
            try:
                numbers.add(int(word, base))
            except ValueError:
                pass
    try:
        value = float(bare.rstrip("%"))
        numbers.add(int(value))
        numbers.add(int(round(value / 100)))
    except (ValueError, OverflowError):
        pass
    return numbers


def _records_writable(records: str, mode: str, count: int) -> None:
    """Refuse (exit 2) a --records name that could not be written, before the run: with
    {game}, the first game's file and the last's (the longest name)."""
    if mode == "games" and has_game_field(records):
        try:
            names = dict.fromkeys([game_path(records, 0), game_path(records, count - 1)])
        except ValueError:  # a bad {game} field: RecordWriter says so
            return
        for name in names:
            check_output(name, "--records", shown=f"{records} ({name})")
    else:
        check_output(records, "--records")


def _literal_folder(folder: str) -> None:
    """Refuse (exit 2) --records DIR for a folder whose name holds a brace.

    The records name is ``DIR/game-{game}.jsonl``, and every ``{game}`` of a records name
    is filled in, the folder's too: ``--records 'o{game}'`` wrote game 0 to ``o0/``, game
    1 to ``o1/``, outside the folder named; a name has no way to write a brace as it is.
    """
    if "{" in folder or "}" in folder:
        raise click.BadParameter(f"{printable(folder, False)}: a folder whose name holds '{{' or '}}' cannot hold "
                                 "the records, as a records name reads {game} anywhere in it as the game's "
                                 "number; write them to another folder", param_hint="--records")


def _first_taken(records: str, mode: str, count: int) -> str | None:
    """The first of the names --records DIR chooses (``records``, joined to the folder) that
    is already there, a link included; None when the run replaces no file.

    With --games only the files of games 0 to ``count - 1`` are the run's; the folder is
    listed once, not asked about each game.  A name listed in other letters' case
    (``Game-1.JSONL``) is the run's where the folder does not tell case apart (Windows,
    macOS): asked about by the run's own name, it is there.
    """
    if mode == "hands":
        return records if os.path.lexists(records) else None
    folder = os.path.dirname(records)
    ours = re.compile(re.escape(os.path.basename(records)).replace(r"\{game\}", "(0|[1-9][0-9]*)") + r"\Z",
                      re.IGNORECASE)
    try:
        names = os.listdir(folder)
    except OSError:  # a folder that cannot be listed: each file is still made new, or refused, as written
        return None
    games = sorted(int(m[1]) for m in map(ours.match, names) if m and int(m[1]) < count)
    taken = (game_path(records, game) for game in games)
    return next((name for name in taken if os.path.lexists(name)), None)


def _taken_message(name: str, records: str) -> str:
    """Why --records DIR does not write ``name``, a name already there, and how to replace it.

    ``records`` is the name chosen in the folder (``DIR/hands.jsonl``, ``DIR/game-{game}.jsonl``):
    typed with --records, it is the user's request, and replaces what is there.
    """
    mode = _mode(name)
    what = ("a link" if stat.S_ISLNK(mode) else "a folder" if stat.S_ISDIR(mode)
            else "a FIFO" if stat.S_ISFIFO(mode) else "a file")
    # Quoted as a POSIX shell needs it (a space in the folder's name), so the hint can be typed as shown.
    typed = shlex.quote(records) if os.name == "posix" else records
    return (f"cannot write {printable(name, False)}: {what} is already there, and --records DIR replaces "
            f"no file (an earlier run's records would be lost); to replace it, name it: "
            f"--records {printable(typed, False)}")


def _mode(name: str) -> int:
    """``name``'s file mode, not following a link; 0 where it cannot be read (gone meanwhile)."""
    try:
        return os.lstat(name).st_mode
    except OSError:
        return 0


class RecordWriter:
    """Writes the record lines of chunks, in chunk order, to one file or one file per game."""

    def __init__(self, path: str, spec: RunSpec, stack: ExitStack, own_names: bool = False):
        self.path = path
        self.spec = spec
        self.own_names = own_names  # --records DIR: the names in DIR are the tool's (see _open)
        self.per_game = spec.mode == "games" and has_game_field(path)
        self.out = None
        other = re.search(r"\{[^{}]*\}", _GAME_FIELD.sub("", path))
        if other:  # {gam}, {game!r}: a mistyped field would silently become part of one file's name
            raise click.BadParameter(f"{path}: {other[0]} is not a field a records name may hold; "
                                     "write {game} or a number format such as {game:04d}",
                                     param_hint="--records")
        try:
            game_path(path, 0)
        except ValueError as exc:
            raise click.BadParameter(f"{path}: the {{game}} field cannot be filled in ({exc}); "
                                     "write {game} or a number format such as {game:04d}",
                                     param_hint="--records") from None
        if self.per_game:
            folder = os.path.dirname(game_path(path, 0)) or "."
            if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
                raise click.BadParameter(f"cannot write {path}: no writable folder {folder}",
                                         param_hint="--records")
        else:
            # The file is opened (and an old one emptied) only when the first records
            # arrive: a run refused before any hand is played (a Dask scheduler that is
            # not there) leaves an existing file as it was.  _records_writable checked it.
            stack.callback(self.close)

    def _file(self):
        """The one record file, opened for writing on first use."""
        if self.out is None:
            try:
                self.out = self._open(self.path)
            except OSError as exc:
                raise self._cannot(self.path, exc) from None
        return self.out

    def _open(self, path: str):
        """Open the record file ``path`` to write it from its start (see :func:`~bidcompiler.cli.common.open_output`).

        Under --records DIR the name is the tool's (hands.jsonl, game-N.jsonl), so it is
        made new, never replaced nor written through a link: a folder shared or cloned with
        hands.jsonl linked to ~/.bashrc had that file overwritten, and an earlier run's
        records were silently lost.  A name the user wrote is theirs to replace or link.
        """
        return os.fdopen(open_output(path, new_only=self.own_names), "w", encoding="utf-8")

    def _cannot(self, target: str, exc: OSError) -> click.BadParameter:
        """The refusal (exit 2) of a record file that could not be opened, saying why."""
        if self.own_names and isinstance(exc, FileExistsError):
            return click.BadParameter(_taken_message(target, self.path), param_hint="--records")
        return click.BadParameter(f"cannot write {target}: {output_reason(exc)}", param_hint="--records")

    def close(self) -> None:
        """Close the one record file, if it was opened; a write that fails here (a full disk) is named, exit 1."""
        if self.out is None:
            return
        try:
            self.out.close()
        except OSError as exc:
            raise click.ClickException(f"cannot write {self.path}: {output_reason(exc)}") from None

    def __call__(self, index: int, result) -> None:
        """Write a chunk's records (called in chunk order), then let them go."""
        first = self.spec.units(index).start
        for offset, lines in enumerate(result.records):
            text = "".join(line + "\n" for line in lines)
            if not self.per_game:
                out = self._file()
                try:  # flushed now, so that a full disk is named here and not at close
                    out.write(text)
                    out.flush()
                except OSError as exc:
                    raise click.ClickException(f"cannot write {self.path}: {output_reason(exc)}") from None
                continue
            target = game_path(self.path, first + offset)
            try:
                with self._open(target) as f:
                    f.write(text)
            except OSError as exc:
                raise self._cannot(target, exc) from None
        result.records = None  # written: no need to keep them in memory


@click.command()
@click.argument("variant", callback=nonempty_names)
@variant_options
@run_options
@click.option("--records", type=FilePath(dir_okay=True),
              help="Write every hand as a hand record, one per line (given an existing folder: to "
                   "game-{game}.jsonl in it with --games, hands.jsonl with --hands, replacing no file there); "
                   "with --games, a name "
                   "holding {game} (or {game:04d}) gives each game its own file, a game record.  Not with "
                   "--set (a record names its house rules, not one-off settings).")
def simulate(variant, with_rules, sets, games, hands, bots, seed, workers, backend, scheduler, max_hands,
             as_json, plot, records):
    """Play GAMES games or HANDS hands of VARIANT with bots and report what happened.

    Reports, each with a 95% confidence interval: the contracts bid and how often
    each is made, points per hand, sets, sweeps and thrown-in hands; with --games
    also game length in hands and wins by side and by dealer position (the
    position of the winning side relative to the first dealer of the game).
    The first line names what was run: VARIANT as given, its house rules in
    order and every --set, the seed and the bots (heuristic unless --bots says
    otherwise); the JSON has the same (variant, base, with, set, bots).

    Hand h of game g is dealt from a generator seeded by (SEED, g, h), so
    `bidwhist compare` plays the same deals under two variants; results are
    identical for any --workers and either backend.

    With --hands each line of --records is a complete hand record that `bidwhist
    replay` scores to the same result (`bidwhist replay --each FILE` scores every
    line).  With --games the lines of one game, in order, form a game record
    (the file as a whole, holding several games, is not one); name the file with
    {game} (out/game-{game}.jsonl, or {game:04d}) to get one game record per
    file, games numbered from 0.
    """
    from runtime.simulate import RunSpec, run_chunk

    from .report import simulation_summary

    mode, count = check_run(games, hands, workers, backend, scheduler, plot)
    own_names = bool(records) and os.path.isdir(records)
    if own_names:
        _literal_folder(records)
        # --records DIR: one game record per game, or every hand in one file, inside the folder.
        records = os.path.join(records, "game-{game}.jsonl" if mode == "games" else "hands.jsonl")
        taken = _first_taken(records, mode, count)
        if taken is not None:  # said before the run; RecordWriter also makes each file new (O_EXCL)
            raise click.BadParameter(_taken_message(taken, records), param_hint="--records")
        click.echo(f"note: writing the records to {records}", err=True)
    if records and mode == "hands" and has_game_field(records):
        raise click.BadParameter(f"{records}: a {{game}} field numbers the files of --games; with --hands "
                                 "every hand goes to one file: name it without {game}", param_hint="--records")
    if records:
        _not_a_variant_file(records, variant, with_rules)
        _not_the_plot(records, mode, count, plot)
        _records_writable(records, mode, count)
    rules = load_rules(variant, with_rules, sets)
    if sets and records:
        raise click.UsageError("--records cannot be combined with --set: a record names its variant "
                               "and house rules, not one-off settings; write the change as a house rule")
    kinds = choose_bots(bots, [rules.sides])
    record_variant, record_with = spec_text(variant, with_rules)
    if records:
        from ..recordnames import names_for_record, outside_warning  # the compiler: only for records

        # records.md: a record names a file by its path relative to the record's folder.
        try:
            where = game_path(records, 0) if has_game_field(records) else records
        except ValueError:  # a bad {game} field: RecordWriter below says so
            where = records
        record_variant, record_with, outside = names_for_record(record_variant, record_with, where)
        if outside:
            click.echo(outside_warning(outside, records), err=True)
    seed = draw_seed(seed)
    spec = RunSpec(mode, count, seed, kinds, max_hands,
                   records=(record_variant, tuple(record_with)) if records else None)
    with ExitStack() as stack:
        writer = RecordWriter(records, spec, stack, own_names) if records else None
        if writer and mode == "games" and count > 1 and not writer.per_game:
            click.echo(f"note: {records} will hold {count} games one after another, each line a hand "
                       "record; put {game} in the name for one game record per file", err=True)
        elif writer and mode == "games" and not str(records).endswith(".jsonl"):
            # records.md: only a name ending in .jsonl, or more than one line, makes a game record,
            # so a game decided in one hand would be read back as a lone hand (no totals, no winner).
            click.echo(f"note: {records} does not end in .jsonl: `bidwhist replay` reads a file of one line "
                       "under any other name as a hand record, so a game of one hand written there is not "
                       "read as a game record; name it .jsonl", err=True)
        totals = execute(run_chunk, (rules, spec), spec, workers, backend, scheduler, on_result=writer)
    data = simulation_summary(rules, spec, totals, describe_variant(variant, with_rules, sets))
    show_report(data, as_json, plot, "plot_simulation", "simulation_report")
