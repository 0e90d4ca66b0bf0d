"""A cheap random mutation loop over the grammar of every shipped variant file, both syntaxes.

Run it by hand (not part of the suite), under nice, from the checkout::

    nice python bench/hostile_variants.py [--minutes M] [--seed S]

Where tests/test_fuzz_variants.py edits characters and parsed data, this driver
mutates *tokens*: each shipped ``.yaml`` (and its ``.whist`` form, written by
``convert``) and each ``.whist`` of examples/ is cut into words, numbers, strings and
punctuation, and a few tokens are deleted, duplicated, swapped, or replaced by a token
of another shipped file, an extreme number, an odd string or a bracket.  Each mutant is
compiled (a house rule laid over the standard game); one that compiles is lowered,
printed as a rulebook and played for a few random hands (tests/test_fuzz_variants.py's
``play_hands``); one that does not must raise ``CompileError`` whose every diagnostic
has a message and a position inside the file (``check_diagnostics``).  Anything else,
or a case running past ``--case-seconds``, is a finding: printed as one line of JSON
with the mutated text, and saved under ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from test_fuzz_variants import _known_files, check_diagnostics, play_hands  # noqa: E402

from bidcompiler.convert import to_whist  # noqa: E402
from bidcompiler.errors import CompileError  # noqa: E402
from bidcompiler.lower import lower  # noqa: E402
from bidcompiler.pipeline import compile_file, file_kind  # noqa: E402
from bidcompiler.rulebook import rulebook  # noqa: E402

TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[A-Za-z_][\w.-]*|-?\d+(?:\.\d+)?|\s+|.', re.S)
ODD = ["{", "}", "[", "]", ":", ",", "-", "~", "null", "true", "&a", "*a", "!!python/object", "---", "\t",
       "9" * 30, "-9" * 20, "1e308", ".nan", "0x10", "\u0663", '""', '"\\u0000"', "\x1b", "\u202e", "'", '"',
       "if", "then", "else", "base", "made", "and", "or", "not", "(", ")", "*", "/", "%", "==", "<=",
       "extends", "remove", "house-rule", "variant", "\n", "\n  ", "    "]
VARIANTS = ROOT / "variants"
EXAMPLES = ROOT / "examples"


class Hang(Exception):
    """A case ran past its time."""


def sources() -> list[tuple[str, str]]:
    """(file name, text) of every shipped variant file in both syntaxes, and the examples."""
    import yaml

    out = []
    for path in sorted(VARIANTS.glob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        out.append((path.name, text))
        out.append((path.stem + ".whist", to_whist(yaml.safe_load(text))))
    for path in sorted(EXAMPLES.rglob("*.whist")):
        out.append((path.name, path.read_text(encoding="utf-8")))
    return out


def mutate(rng: random.Random, tokens: list[str], pool: list[str]) -> str:
    """A few token edits of ``tokens`` (words, numbers, strings and punctuation of one file)."""
    tokens = list(tokens)
    solid = [i for i, t in enumerate(tokens) if not t.isspace()]
    for _ in range(rng.choice([1, 1, 1, 2, 3, 8])):
        if not solid:
            break
        i = rng.choice(solid)
        how = rng.randrange(6)
        if how == 0:
            tokens[i] = ""
        elif how == 1:
            tokens[i] = tokens[i] + " " + tokens[i]
        elif how == 2:
            j = rng.choice(solid)
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif how == 3:
            tokens[i] = rng.choice(pool)
        elif how == 4:
            tokens[i] = rng.choice(ODD)
        else:
            tokens[i] = tokens[i] * rng.choice([2, 50, 5000])
    return "".join(tokens)


def check(path: Path, seed: int) -> bool:
    """Compile the mutant at ``path``; what a good one must do, or what a bad one must say.

    True when it compiled (and played), False when it was refused as it must be."""
    rule = file_kind(path) == "house-rule" if path.stat().st_size < 2_000_000 else False
    try:
        if rule:
            variant = compile_file(VARIANTS / "standard.yaml", with_rules=(str(path),))
        else:
            variant = compile_file(path)
    except CompileError as exc:
        check_diagnostics(exc, _known_files(str(path)))
        return False
    rules = lower(variant)
    rulebook(variant)
    play_hands(rules, seed, hands=2)
    return True


def on_alarm(signum, frame):
    """Turn a case's overrun into an exception, with the stack of where it was."""
    raise Hang("".join(traceback.format_stack(frame, limit=6)))


def main() -> int:
    """Mutate and check until the time is up; print the findings and a count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--case-seconds", type=int, default=30)
    parser.add_argument("--keep", default="/tmp/hostile-variants-findings")
    args = parser.parse_args()
    resource.setrlimit(resource.RLIMIT_AS, (3 * 1024 ** 3, 3 * 1024 ** 3))
    signal.signal(signal.SIGALRM, on_alarm)
    rng = random.Random(args.seed)
    files = [(name, TOKEN.findall(text)) for name, text in sources()]
    pool = sorted({t for _, toks in files for t in toks if not t.isspace() and len(t) < 40})
    keep = Path(args.keep)
    keep.mkdir(parents=True, exist_ok=True)
    box = Path(tempfile.mkdtemp(prefix="hostile-variants-"))
    end = time.monotonic() + args.minutes * 60
    count = found = compiled = 0
    while time.monotonic() < end:
        name, tokens = rng.choice(files)
        text = mutate(rng, tokens, pool)
        path = box / name
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        count += 1
        signal.alarm(args.case_seconds)
        try:
            compiled += check(path, count)
        except BaseException as exc:  # noqa: BLE001 -- every other ending is the finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            found += 1
            saved = keep / f"{count}-{name}"
            saved.write_text(text, encoding="utf-8", errors="surrogatepass")
            print(json.dumps({"case": count, "file": name, "saved": str(saved),
                              "finding": f"{type(exc).__name__}: {str(exc)[:600]}"}), flush=True)
        finally:
            signal.alarm(0)
    print(json.dumps({"cases": count, "compiled_and_played": compiled, "findings": found}))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
