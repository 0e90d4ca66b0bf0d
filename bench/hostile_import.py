"""A cheap random mutation loop over the Trickster PTN files of tests/data/trickster, through ``bidwhist import``.

Run it by hand (not part of the suite), under nice::

    nice python bench/hostile_import.py [--cases N] [--seed S]

Each case cuts one PTN file into tokens (tags, quoted values, card and call words,
punctuation) and deletes, duplicates, swaps or replaces a few of them (with another
file's token, an extreme number, a control character, a very long run), or flips
bytes; then runs ``import`` and ``import --json`` and ``import --nearest`` in this
process (click's CliRunner).  The oracle: status 0, 1 or 2, no exception, no
``internal error``, something on stderr for a failure, no raw escape on stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
from pathlib import Path

from click.testing import CliRunner

from bidcompiler.cli import cli

ROOT = Path(__file__).resolve().parent.parent
TOKEN = re.compile(r'"[^"\n]*"|\[|\]|[A-Za-z0-9♠♥♦♣↑↓]+|\s+|.', re.S)
ODD = ["", '"', "[", "]", "\x1b[2J", "\x00", "9" * 5000, "-1", "N:", "E", "Pass", "10", "XX", "♠", "\u202e",
       "\n", "\n\n", '[Deal "N:..."]', "L", "H", "." * 50, "x" * 100_000]


def mutate(rng: random.Random, text: str, pool: list[str]) -> bytes:
    """A few token edits, or a few byte flips, of ``text``."""
    tokens = TOKEN.findall(text)
    for _ in range(rng.choice([1, 1, 2, 3, 6])):
        i = rng.randrange(len(tokens))
        how = rng.randrange(5)
        if how == 0:
            tokens[i] = ""
        elif how == 1:
            tokens[i] = tokens[i] * rng.choice([2, 3, 200])
        elif how == 2:
            j = rng.randrange(len(tokens))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif how == 3:
            tokens[i] = rng.choice(pool)
        else:
            tokens[i] = rng.choice(ODD)
    data = bytearray("".join(tokens).encode("utf-8"))
    if rng.random() < 0.15 and data:
        for _ in range(rng.randrange(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
    return bytes(data)


def main() -> int:
    """Run the cases; print each finding and a count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests/data/trickster").glob("*.ptn"))]
    pool = sorted({t for text in texts for t in TOKEN.findall(text) if not t.isspace()})
    box = Path(tempfile.mkdtemp(prefix="hostile-import-"))
    path = box / "in.ptn"
    runner = CliRunner()
    found = 0
    statuses: dict[int, int] = {}
    for n in range(args.cases):
        path.write_bytes(mutate(rng, rng.choice(texts), pool))
        for extra in ([], ["--json"], ["--nearest"]):
            result = runner.invoke(cli, ["import", str(path), *extra])
            statuses[result.exit_code] = statuses.get(result.exit_code, 0) + 1
            problems = []
            if result.exit_code not in (0, 1, 2):
                problems.append(f"status {result.exit_code}")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                problems.append(f"raised {result.exception!r}")
            if "internal error" in result.stderr or "Traceback" in result.stderr:
                problems.append("internal error")
            if result.exit_code and not result.stderr.strip():
                problems.append("failed silently")
            if "\x1b" in result.stderr:
                problems.append("raw escape on stderr")
            if problems:
                found += 1
                kept = box.parent / f"hostile-import-{n}.ptn"
                kept.write_bytes(path.read_bytes())
                print(json.dumps({"case": n, "args": extra, "kept": str(kept), "finding": "; ".join(problems),
                                  "stderr": result.stderr[-300:]}), flush=True)
    print(json.dumps({"cases": args.cases * 3, "statuses": statuses, "findings": found}))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
