"""A hostile tester's driver for the whole command line: odd values at every option and argument.

Run it by hand (it is not part of the suite), under nice, from the checkout with the
package installed::

    nice python bench/hostile_cli.py [--third 0|1|2] [--only COMMAND] [--timeout S]

For every command of ``bidwhist`` and every option or argument it takes, the driver
runs the installed script with one value replaced by an odd one (empty, huge,
negative, NaN, unicode digits, very long strings, control characters, a folder,
``/dev/zero``, a named pipe, a link to ``/etc/passwd``, a link to a canary file,
``/proc/self/environ``, a file that is not text) and checks what the brief promises:

- the exit status is 0, 1 (bad content) or 2 (bad usage), never a traceback nor
  ``internal error``, within the timeout (a hang is a finding), in bounded memory
  (RLIMIT_AS);
- a failure says something on stderr, and no raw escape character reaches it;
- no output quotes a line of ``/etc/passwd``, of the canary or of the environment.
  (A file named on the command line is the user's to read: ``import canary-link``
  quoting its first line is reported, but is no defect; README, "command line paths
  are not limited".)

Each finding is printed as one line of JSON (the argv, the status, the first lines of
stderr); the last line counts the cases run and the findings.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CANARY = "CANARY-7f3a9c-do-not-quote"
SECRETS = (CANARY, "root:x:0:0", "root:*:0:0", "BIDWHIST_SECRET_ENV")
MEMORY_LIMIT = 2 * 1024 ** 3


def odd_values(box: Path) -> list[str]:
    """The odd values tried in every place that takes a value."""
    return [
        "", " ", "0", "-1", "-0", "1e308", "nan", "NaN", "inf", "-inf", "0x10", "1_000",
        "\u0663", "\uff13", "\u00b2", "9" * 40, "9" * 5000, "x" * 100_000,
        "\x1b[31mred\x1b[0m", "a\nb", "a\rb", "a\tb", "\x7f", "\u202e", "--", "-", "--help",
        "/", ".", "..", "/dev/zero", "/dev/null", "/dev/stdin", "/proc/self/environ",
        str(box / "fifo"), str(box / "folder"), str(box / "passwd-link"), str(box / "canary-link"),
        str(box / "binary.bin"), str(box / "missing"), str(box / "loop-link"),
        str(box / "folder") + "/", "../../../../etc/passwd", "standard+" * 200 + "standard",
        "standard+", "+", "standard++min-bid-4", "=", "a=", "=b", "scoring=", "x.y.z=1",
    ]


def make_box() -> Path:
    """A folder of hostile files: a fifo, a folder, links out, a loop, bytes that are not text."""
    box = Path(tempfile.mkdtemp(prefix="hostile-cli-"))
    os.mkfifo(box / "fifo")
    (box / "folder").mkdir()
    (box / "canary.txt").write_text(CANARY + "\n")
    os.symlink("/etc/passwd", box / "passwd-link")
    os.symlink(box / "canary.txt", box / "canary-link")
    (box / "victim.txt").write_text("a file an output option may overwrite\n")
    os.symlink(box / "victim.txt", box / "victim-link")
    os.symlink(box / "loop-link", box / "loop-link")
    (box / "binary.bin").write_bytes(bytes(range(256)) * 4)
    return box


def commands(box: Path, records: Path) -> dict[str, tuple[list[str], dict[str, str | None]]]:
    """Each command: a cheap valid argv, and the options/positions whose value is replaced.

    Positions are named ``@N`` (the N-th argument after the command); an option with
    the value None is a flag (tried twice, and with a value glued on)."""
    out = str(box / "out")
    return {
        "variants": (["--json"], {"--json": None}),
        "check": ([str(box / "good.whist")], {"@0": "", "--on": "standard"}),
        "compile": (["standard"], {"@0": "", "--with": "min-bid-4", "--set": "scoring.game=7", "--json": None}),
        "schema": ([], {"--write": out}),
        "convert": ([str(box / "good.whist"), "--to", "yaml"], {"@0": "", "--to": "yaml", "-o": out}),
        "rules": (["standard"], {"@0": "", "--with": "min-bid-4", "--set": "scoring.game=7"}),
        "diff": (["standard", "cincinnati"], {"@0": "", "@1": "", "--with": "min-bid-4",
                                               "--set": "scoring.game=7", "--json": None}),
        "replay": ([str(records / "hands.jsonl")], {"@0": "", "--json": None, "--each": None}),
        "analyze": ([str(records / "hand1.jsonl")], {"@0": "", "--json": None, "--solver": "fast"}),
        "simulate": (["standard", "--hands", "2", "--seed", "1"],
                     {"@0": "", "--with": "min-bid-4", "--set": "scoring.game=7", "--games": "1",
                      "--hands": "2", "--bots": "random", "--seed": "1", "--workers": "1",
                      "--backend": "local", "--scheduler": "tcp://127.0.0.1:1", "--max-hands": "3",
                      "--json": None, "--plot": out + ".png", "--records": out + ".jsonl"}),
        "compare": (["standard", "cincinnati", "--hands", "2", "--seed", "1"],
                    {"@0": "", "@1": "", "--games": "1", "--hands": "2", "--bots": "random",
                     "--seed": "1", "--workers": "1", "--backend": "local", "--max-hands": "3",
                     "--json": None, "--plot": out + ".png"}),
        "import": ([str(box / "binary.bin")], {"@0": "", "-o": out, "--nearest": None, "--json": None}),
        "play": (["standard", "--seed", "1", "--fast", "--save", str(box / "save.jsonl")],
                 {"@0": "", "--with": "min-bid-4", "--seat": "0", "--bots": "random", "--seed": "1",
                  "--save": str(box / "save.jsonl"), "--resume": str(box / "save.jsonl"),
                  "--open": None, "--fast": None, "--take-over": None}),
    }


def variants_of(base: list[str], place: str, value: str) -> list[str]:
    """``base`` with the argument at ``place`` set to ``value`` (appended if the option is absent)."""
    argv = list(base)
    if place.startswith("@"):
        positions = [i for i, a in enumerate(argv) if not a.startswith("-")
                     and (i == 0 or not argv[i - 1].startswith("-") or argv[i - 1] in ("--json", "--each"))]
        index = int(place[1:])
        if index < len(positions):
            argv[positions[index]] = value
        else:
            argv.append(value)
        return argv
    if place in argv:
        argv[argv.index(place) + 1] = value
        return argv
    return [*argv, place, value]


def limit_memory() -> None:
    """Run in the child: cap its address space, so a blow-up is a MemoryError, not a swapping machine."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def run_case(script: str, argv: list[str], stdin: bytes, timeout: float, cwd: Path) -> dict | None:
    """Run one case; a dict describing the finding, or None when the case held."""
    env = {**os.environ, "BIDWHIST_SECRET_ENV": "1", "BIDWHIST_FAST": "1", "BIDWHIST_NO_CACHE": "1"}
    started = time.monotonic()
    try:
        proc = subprocess.run([script, *argv], input=stdin, capture_output=True, timeout=timeout,
                              cwd=cwd, env=env, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        return {"argv": argv, "finding": f"no end within {timeout} s"}
    seconds = time.monotonic() - started
    err = proc.stderr.decode("utf-8", "replace")
    both = proc.stdout.decode("utf-8", "replace") + err
    problems = []
    if proc.returncode not in (0, 1, 2):
        problems.append(f"status {proc.returncode}")
    if "Traceback" in both or "internal error" in err:
        problems.append("traceback or internal error")
    if proc.returncode != 0 and not err.strip():
        problems.append("a failure with nothing on stderr")
    if "\x1b" in err:
        problems.append("a raw escape on stderr")
    problems += [f"quotes {s}" for s in SECRETS if s in both and s not in " ".join(argv)]
    if not problems:
        return None
    return {"argv": [a[:80] for a in argv], "status": proc.returncode, "seconds": round(seconds, 1),
            "finding": "; ".join(problems), "stderr": err[-600:]}


# Options that name a file the tool WRITES. The driver runs as whatever user runs it (root on
# a container): an odd value there that reaches outside the box would have the tool
# overwrite a real file (a run once replaced /etc/passwd and wrote /hands.jsonl), so those
# values are kept inside the box: a link to a file of the box stands for a link out.
OUTPUT_PLACES = ("--write", "-o", "--plot", "--records", "--save")


def confined(box: Path, value: str) -> str:
    """``value`` for an output option: a path that would leave the box is replaced by one inside it."""
    inside = {
        "/": str(box / "folder") + "/",
        "../../../../etc/passwd": str(box / "victim.txt"),
        str(box / "passwd-link"): str(box / "victim-link"),
        "/proc/self/environ": str(box / "victim.txt"),
        "/dev/stdin": str(box / "victim.txt"),
    }
    return inside.get(value, value)


def cases(box: Path, records: Path, only: str | None, third: int | None):
    """Every (argv, stdin) the driver tries (with ``third``, one third of the odd values: 0, 1 or 2)."""
    values = odd_values(box)
    if third is not None:
        values = values[third::3]
    for name, (base, places) in commands(box, records).items():
        if only and name != only:
            continue
        yield [name, "--frobnicate"], b""
        for place, default in places.items():
            if default is None:
                yield [name, *base, place, place], b""
                yield [name, *base, f"{place}=x"], b""
                continue
            for value in values:
                if place in OUTPUT_PLACES:
                    value = confined(box, value)
                yield [name, *variants_of(base, place, value)], b"q\n"


def prepare_records(script: str, box: Path) -> Path:
    """Valid records to start from: two hands and one hand alone, in a folder of their own."""
    records = box / "records"
    records.mkdir()
    subprocess.run([script, "simulate", "standard", "--hands", "2", "--seed", "1", "--records",
                    str(records / "hands.jsonl")], capture_output=True, check=True)
    first = (records / "hands.jsonl").read_text().splitlines()[0]
    (records / "hand1.jsonl").write_text(first + "\n")
    (box / "good.whist").write_text('house-rule tiny\nscoring { declarer = if made then base else 2 * base }\n')
    return records


def main() -> int:
    """Run every case; print the findings as JSON lines and a count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--third", type=int, choices=(0, 1, 2), help="one third of the odd values")
    parser.add_argument("--only", help="one command")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    script = str(Path(sys.executable).parent / "bidwhist")
    box = make_box()
    records = prepare_records(script, box)
    count = findings = 0
    try:
        for argv, stdin in cases(box, records, args.only, args.third):
            count += 1
            found = run_case(script, argv, stdin, args.timeout, box / "folder")
            if found:
                findings += 1
                print(json.dumps(found), flush=True)
    finally:
        shutil.rmtree(box, ignore_errors=True)
    print(json.dumps({"cases": count, "findings": findings}))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
