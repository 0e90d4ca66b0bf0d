"""The command line loads lazily: `bidwhist --help` imports no command's module.

Start-up time itself is measured by bench/startup.py, never asserted here (the
machine is shared); what is tested is the behaviour that makes it cheap.
"""

import json
import subprocess
import sys

import click
import pytest

from bidcompiler.cli import COMMANDS, cli

HEAVY = ("runtime", "lark", "yaml", "jsonschema", "rich", "bidcompiler.pipeline", "bidcompiler.cli.play",
         "bidcompiler.cli.simulate")

PROBE = """
import json, sys
from bidcompiler.cli import cli
try:
    cli.main(args=sys.argv[1:], prog_name="bidwhist", standalone_mode=False)
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def modules_loaded_by(*args: str) -> list[str]:
    """The modules a fresh interpreter has loaded after running ``bidwhist ARGS``."""
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stderr.strip().splitlines()[-1])


def test_help_imports_no_command_module():
    loaded = modules_loaded_by("--help")
    heavy = [m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY]
    assert heavy == []


# What `import bidcompiler.cli` must never pull in: the terminal renderer, the parsers,
# the schema validator and the simulation driver (issue 16: `bidwhist --help` at the
# price of `import click`).
NEVER_AT_IMPORT = ("rich", "lark", "jsonschema", "yaml", "runtime.simulate")


def test_importing_the_cli_loads_none_of_the_heavy_modules():
    done = subprocess.run([sys.executable, "-c", "import json, sys, bidcompiler.cli; "
                           "print(json.dumps(sorted(sys.modules)))"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stdout)
    assert "bidcompiler.cli" in loaded and "click" in loaded
    assert [m for m in loaded if m in NEVER_AT_IMPORT or m.split(".")[0] in NEVER_AT_IMPORT] == []


# A command's own --help builds the command (its module is imported) but runs nothing:
# its options and text only.  `replay` is left out: cli/replay.py still imports its
# record reader at the top (see the report of the session that made the others lazy).
@pytest.mark.parametrize("name", [name for name in COMMANDS if name != "replay"])
def test_a_commands_help_loads_no_heavy_module(name):
    loaded = modules_loaded_by(name, "--help")
    assert f"bidcompiler.cli.{COMMANDS[name][0].split(':')[0]}" in loaded
    libraries = ("runtime", "lark", "yaml", "jsonschema", "rich", "bidcompiler.pipeline", "bidcompiler.compose")
    assert [m for m in loaded if m.split(".")[0] in libraries or m in libraries] == []


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_commands_help_is_complete(name):
    # Loading lazily must not cost the help anything: usage, the docstring and every option.
    done = subprocess.run([sys.executable, "-c", "from bidcompiler.cli import main; main()", name, "--help"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    command = cli.get_command(click.Context(cli), name)
    assert done.stdout.startswith(f"Usage: bidwhist {name} ")
    assert command.help.split("\n")[0].split()[0] in done.stdout
    for param in command.params:
        for opt in getattr(param, "opts", []):
            if opt.startswith("-"):
                assert opt in done.stdout, (name, opt)


def test_a_command_imports_only_what_it_needs():
    loaded = modules_loaded_by("schema", "--help")
    assert "bidcompiler.cli.authoring" in loaded
    assert "bidcompiler.cli.play" not in loaded and "runtime.solver" not in loaded


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_listed_command_resolves(name):
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.name == name


def test_help_lists_every_command_with_its_line(capsys):
    with pytest.raises(SystemExit):
        cli.main(args=["--help"], prog_name="bidwhist")
    out = capsys.readouterr().out
    for name, (_, short) in COMMANDS.items():
        assert f"{name}" in out and short in " ".join(out.split())


def test_a_mistyped_command_is_a_usage_error_with_a_suggestion():
    done = subprocess.run([sys.executable, "-c", "from bidcompiler.cli import main; main()", "simulat"],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "Did you mean 'simulate'?" in done.stderr


def test_variants_lists_without_loading_the_compiler():
    loaded = modules_loaded_by("variants")
    assert not [m for m in loaded if m.split(".")[0] in ("runtime", "lark", "jsonschema")
                or m in ("bidcompiler.pipeline", "bidcompiler.build", "bidcompiler.cli.render")]


def test_variants_json_lists_every_shipped_file_with_its_title():
    from bidcompiler.resources import shipped_files

    done = subprocess.run([sys.executable, "-c", "from bidcompiler.cli import main; main()", "variants", "--json"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert sorted(r["name"] for r in rows) == sorted(shipped_files())
    assert all(r["title"] and r["title"] != "(does not load)" for r in rows)


def test_a_simulation_printed_as_json_to_a_pipe_loads_no_renderer():
    # No progress bar is drawn when stderr is no terminal, and JSON needs no text renderer: rich stays unloaded.
    loaded = modules_loaded_by("simulate", "standard", "--hands", "250", "--bots", "random", "--seed", "1", "--json")
    assert "runtime.simulate" in loaded
    assert [m for m in loaded if m.split(".")[0] == "rich" or m == "bidcompiler.cli.render"] == []


# What a simulation of random bots writing no records never needs (issue 16, the whole-process
# row): the package's folder is found without importlib.resources' readers (and zipfile), the
# record writer is imported by a run that writes records only, and a bot's module when its kind plays.
NOT_FOR_A_PLAIN_RUN = ("importlib.resources", "importlib.readers", "zipfile", "runtime.records",
                       "runtime.bots.heuristic", "runtime.bots.baseline", "runtime.bots.sampler")


def test_a_simulation_without_records_loads_no_resource_reader_nor_record_writer():
    loaded = modules_loaded_by("simulate", "standard", "--hands", "5", "--bots", "random", "--seed", "1", "--json")
    assert "runtime.simulate" in loaded
    assert [m for m in loaded if m in NOT_FOR_A_PLAIN_RUN or m.startswith("importlib.resources.")] == []


# Nor, once the rule cache holds the variant, what only a cache write, a zipped package's data or a
# pool of worker processes needs (start-up instructions, docs/measurements.md's seventeenth session).
NOT_FOR_A_WARM_RUN = ("shutil", "tempfile", "pickle", "bz2", "lzma")


def test_a_simulation_from_the_rule_cache_loads_no_archive_nor_pickle_module():
    args = ("simulate", "standard", "--hands", "5", "--bots", "random", "--seed", "1", "--json")
    modules_loaded_by(*args)  # a first run may build the variant and write the cache
    loaded = modules_loaded_by(*args)
    assert "runtime.simulate" in loaded
    assert [m for m in loaded if m in NOT_FOR_A_WARM_RUN] == []


def test_the_bot_registry_loads_each_class_when_asked():
    from runtime import bots
    from runtime.bots.heuristic import HeuristicBot
    from runtime.bots.uniform import RandomBot

    assert bots.BOTS["heuristic"] is HeuristicBot and bots.HeuristicBot is HeuristicBot
    assert bots.BOTS.get("random") is RandomBot and bots.BOTS.get("nobody") is None
    assert dict(bots.BOTS.items())["random"] is RandomBot and RandomBot in bots.BOTS.values()
    with pytest.raises(AttributeError):
        bots.NoSuchBot  # noqa: B018


def test_the_package_folder_is_the_one_importlib_resources_names():
    import importlib.resources

    from bidcompiler import resources

    assert resources._package_folder() == importlib.resources.files("bidcompiler")


def test_progress_is_left_to_rich_wherever_it_might_draw_a_bar(monkeypatch):
    from bidcompiler.cli.common import PROGRESS_FROM
    from bidcompiler.cli.simulate import may_show_progress

    class Stream:
        def __init__(self, tty):
            self.tty = tty

        def isatty(self):
            return self.tty

    for name in ("TTY_COMPATIBLE", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "stderr", Stream(False))
    assert not may_show_progress(10**6)
    monkeypatch.setattr(sys, "stderr", Stream(True))
    assert may_show_progress(PROGRESS_FROM)
    assert not may_show_progress(PROGRESS_FROM - 1)  # a short run: never a bar
    monkeypatch.setattr(sys, "stderr", Stream(False))
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich may then draw on a pipe: rich decides
    assert may_show_progress(PROGRESS_FROM)


def test_the_exit_handler_that_freezes_is_registered_once(monkeypatch):
    import gc

    import bidcompiler.cli as cli_module

    registered = []
    monkeypatch.setattr(cli_module, "_FREEZE_REGISTERED", False)
    monkeypatch.setattr(cli_module.atexit, "register", registered.append)
    cli_module._frozen_at_exit()
    cli_module._frozen_at_exit()
    assert registered == [gc.freeze]


def test_a_whole_process_writes_its_output_and_records_whole(tmp_path):
    """main() freezes what is alive at exit (no teardown collections): the report and every record are written."""
    from clirun import script

    records = tmp_path / "hands.jsonl"
    done = script("simulate", "standard", "--hands", "120", "--bots", "random", "--seed", "4", "--json",
                  "--records", str(records))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["hands"] == 120
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 120 and all(json.loads(line)["format"] == "bidwhist-hand/1" for line in lines)
