"""The ``bidwhist`` command line: thin glue between click, the compiler, the runtime and rich.

Conventions every command follows:
- results on stdout (readable text, or clean JSON with ``--json``); progress, the
  drawn seed and diagnostics on stderr;
- exit status 0 on success, 1 for bad content (a variant or record that breaks the
  rules), 2 for bad usage (unknown options, unknown variant names, unreadable
  arguments); never a traceback.

One module per group of commands: ``authoring`` (variants, check, compile,
convert, schema), ``explain`` (rules, diff), ``replay``, ``simulate``, ``play``,
``compare``, ``analyze``.
"""

from __future__ import annotations

import os
import sys

import click

from . import authoring, replay, simulate
from .explain import diff_command, rules_command
from .play import play
from .compare import compare
from .analyze import analyze


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bidwhist")
def cli():
    """Bid Whist and its variants as data.

    Variants are files (YAML or .whist) that are validated, compiled and run by
    one generic trick-taking engine.  Name a shipped variant by its name (see
    `bidwhist variants`) or give the path of a variant file; add house rules
    with NAME+RULE+RULE or --with RULE.
    """


COMMANDS = (authoring.variants, authoring.check, authoring.compile_cmd, authoring.schema, authoring.convert,
            rules_command, diff_command, replay.replay, simulate.simulate, play, compare, analyze)
for command in COMMANDS:
    cli.add_command(command)


def main(argv=None):
    """Entry point of the ``bidwhist`` console script.

    Click's standalone mode would turn Ctrl-C into "Aborted!" with status 1; here
    an interrupt exits 130 as shells expect, usage errors 2, bad content 1, and an
    unexpected exception gets one line instead of a traceback.
    """
    try:
        cli.main(args=argv, prog_name="bidwhist", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (KeyboardInterrupt, click.exceptions.Abort):
        click.echo("interrupted", err=True)
        sys.exit(130)
    except EOFError:
        click.echo("end of input", err=True)
        sys.exit(1)
    except Exception as exc:  # the last line of defence: no traceback for users
        if os.environ.get("BIDWHIST_DEBUG"):
            raise
        click.echo(f"bidwhist: internal error: {type(exc).__name__}: {exc} "
                   "(set BIDWHIST_DEBUG=1 for a traceback, and please report it)", err=True)
        sys.exit(70)
    sys.exit(0)
