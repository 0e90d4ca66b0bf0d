"""Start-up cost of the command line: `bidwhist --help` and quick commands against `import click`.

Run from anywhere: ``python bench/startup.py [--rounds R]``.  Each command runs as a
whole new process, the commands interleaved round by round so load on a shared
machine affects them alike; the figure is the CPU time (user + system) the child
process used, the median over the rounds, and each command's ratio to a bare
``python -c "import click"`` (the floor any click program pays).  This is a
measurement, not a test: it asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys


def commands() -> dict[str, list[str]]:
    """The command lines measured, by label; `bidwhist` itself through this interpreter."""
    bidwhist = [sys.executable, "-c", "from bidcompiler.cli import main; main()"]
    if shutil.which("bidwhist"):
        bidwhist = ["bidwhist"]
    return {
        "python -c 'import click'": [sys.executable, "-c", "import click"],
        "bidwhist --help": bidwhist + ["--help"],
        "bidwhist variants": bidwhist + ["variants"],
        "bidwhist simulate --help": bidwhist + ["simulate", "--help"],
        "bidwhist play --help": bidwhist + ["play", "--help"],
    }


def cpu_seconds(argv: list[str]) -> float:
    """CPU time (user + system) of one run of ``argv`` as a child process."""
    before = os.times()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def compile_packages() -> None:
    """Compile the packages to bytecode, as an install does.

    The figure is that of an installed program, whose modules are compiled once: a
    checkout run with PYTHONDONTWRITEBYTECODE=1 (or never run before) would otherwise
    measure the compiling of its sources every time.
    """
    import compileall

    import bidcompiler
    import runtime

    for package in (bidcompiler, runtime):
        compileall.compile_dir(os.path.dirname(package.__file__), quiet=1)


def measure(rounds: int = 15) -> dict[str, float]:
    """Median CPU seconds of each command in :func:`commands`, ``rounds`` interleaved runs each."""
    compile_packages()
    lines = commands()
    times: dict[str, list[float]] = {label: [] for label in lines}
    for _ in range(rounds):
        for label, argv in lines.items():
            times[label].append(cpu_seconds(argv))
    return {label: statistics.median(values) for label, values in times.items()}


def main() -> None:
    """Measure every command ``--rounds`` times, interleaved, and print medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15, help="runs of each command (default 15)")
    args = parser.parse_args()
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    medians = measure(args.rounds)
    floor = medians["python -c 'import click'"]
    print(f"CPU time per run, median of {args.rounds} interleaved runs:")
    for label, median in medians.items():
        print(f"  {label:<28} {median * 1000:6.0f} ms   {median / floor:4.2f}x import click")


if __name__ == "__main__":
    main()
