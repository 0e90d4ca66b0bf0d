"""Speed does not regress: the current engine against an older revision and hand-coded references.

Run from anywhere: ``python bench/regression.py [--old REV] [--hands N] [--heuristic-hands N]
[--rounds R] [--reference FILE]``.  In one run, round by round and interleaved (the
order reversed every other round, so a drift in the machine's speed falls on all
alike), it measures hands per second of ``standard``:

* random legal play through the current engine (this checkout's working tree) and
  through the engine at ``--old REV`` (default df1e856, before the rule-model
  redesign), each driven through the API it had (deal, ``HandState``,
  ``legal_actions``, ``apply_action``, as bench/throughput.py drove it then);
* the heuristic bots at every seat, as ``simulate --hands`` plays them
  (``runtime.simulate.play_hand``), current and old, on the same seeds;
* random legal play through the hand-coded reference ``bidwhist_v2.py`` (found as
  ``../shared/perf/bidwhist_v2.py`` beside the checkout, or beside the main checkout
  of a git worktree; the row is left out, with a message, where it is missing) and
  through the plain string implementation tests/plain_standard.py.

The old revision is exported with ``git archive`` into a temporary folder that is
deleted afterwards.  Every implementation runs in a child process of its own with
its tree first on ``sys.path`` (the child reports where it imported the engine from,
and the run stops if that is not the tree asked for), so the two engines never mix.
A figure is the CPU time the child spent in the hands (``time.process_time``), so
waiting for a busy CPU does not count.  Printed: each row's hands per second as
min / median / max over the rounds, and the ratios current/old, current/reference
and current/plain taken round by round, min / median / max; above 1 the current
engine is faster.

The same seeds must give the same hands in the old and the current engine (the
behaviour corpus, tests/test_corpus.py, says they do): a digest of every hand's score
and books is printed for both, and the run exits 1 if they differ.  This is a
measurement, not a test: apart from that identity it asserts nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = Path("shared") / "perf" / "bidwhist_v2.py"


# ---------------------------------------------------------------- child process
# The jobs below run in a child started with ``--worker TREE``; they import the
# engine only after TREE is first on sys.path, and use only the API the engine had
# at df1e856 (which the current engine keeps).

def _digest(results: list) -> str:
    """A short digest of the hands' results, in order."""
    return hashlib.sha256(json.dumps(results).encode()).hexdigest()[:16]


def job_random(hands: int, seed: int) -> tuple[float, str, str]:
    """Random legal play of ``standard`` through the engine: CPU seconds, digest, engine file."""
    import runtime.hand
    from bidcompiler.pipeline import load_ruleset
    from runtime.game import deal
    from runtime.hand import HandState

    rules = load_ruleset("standard")
    rng = random.Random(seed)
    results = []
    start = time.process_time()
    for _ in range(hands):
        dealt, kitty = deal(rules, rng)
        state = HandState(rules, rng.randrange(rules.players), dealt, kitty)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        results.append((state.score, state.books))
    return time.process_time() - start, _digest(results), runtime.hand.__file__


def job_heuristic(hands: int, seed: int) -> tuple[float, str, str]:
    """Heuristic bots at every seat, as ``simulate --hands`` plays hand ``i`` of seed ``seed``.

    Where the tree has the frozen ``baseline`` (the heuristic as it was before issue 14
    began to change it), that plays: it decides as the old trees' heuristic does, so
    the digests still compare the engines and not the bots.
    """
    import runtime.simulate
    from bidcompiler.pipeline import load_ruleset
    from runtime.bots import BOTS
    from runtime.simulate import play_hand

    kind = "baseline" if "baseline" in BOTS else "heuristic"
    rules = load_ruleset("standard")
    results = []
    start = time.process_time()
    for i in range(hands):
        state = play_hand(rules, seed, i, kind)
        results.append((state.score, state.books))
    return time.process_time() - start, _digest(results), runtime.simulate.__file__


def job_plain(hands: int, seed: int) -> tuple[float, str, str]:
    """Random legal play through tests/plain_standard.py (strings, written for the one game)."""
    import plain_standard

    rng = random.Random(seed)
    results = []
    start = time.process_time()
    for _ in range(hands):
        hand = plain_standard.play_random_hand(rng)
        results.append((hand.score, hand.books))
    return time.process_time() - start, _digest(results), plain_standard.__file__


def job_reference(hands: int, seed: int) -> tuple[float, str, str]:
    """Random legal play through the hand-coded reference bidwhist_v2.py (dealer rotating)."""
    import bidwhist_v2

    rng = random.Random(seed)
    results = []
    start = time.process_time()
    for i in range(hands):
        score, _ = bidwhist_v2.play_hand(rng, i & 3)
        results.append(score)
    return time.process_time() - start, _digest(results), bidwhist_v2.__file__


JOBS = {"random": job_random, "heuristic": job_heuristic, "plain": job_plain, "reference": job_reference}


def worker(tree: str) -> None:
    """Answer job requests, one JSON line each on stdin, with one JSON line on stdout."""
    sys.path[:0] = [tree, str(Path(tree) / "tests")]  # the tree's packages before any installed copy
    for line in sys.stdin:
        request = json.loads(line)
        cpu, digest, module = JOBS[request["job"]](request["hands"], request["seed"])
        print(json.dumps({"cpu": cpu, "digest": digest, "module": module}), flush=True)


# ---------------------------------------------------------------- parent process

class Child:
    """A child process running the jobs of one tree."""

    def __init__(self, label: str, tree: Path):
        self.label = label
        self.tree = tree.resolve()
        env = dict(os.environ, PYTHONPATH=str(self.tree))
        env.pop("PYTHONSTARTUP", None)
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), "--worker", str(self.tree)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=self.tree)

    def run(self, job: str, hands: int, seed: int) -> tuple[float, str]:
        """CPU seconds and digest of ``hands`` hands of ``job`` from ``seed``; checks where it imported from."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps({"job": job, "hands": hands, "seed": seed}) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            sys.exit(f"{self.label}: the child process ended without an answer (its error is above)")
        answer = json.loads(line)
        if not Path(answer["module"]).resolve().is_relative_to(self.tree):
            sys.exit(f"{self.label}: imported {answer['module']}, not from {self.tree}")
        return answer["cpu"], answer["digest"]

    def close(self) -> None:
        """End the child and wait for it."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def git(*args: str) -> str:
    """The output of a git command in this checkout (CalledProcessError/OSError if it fails)."""
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True,
                          text=True).stdout.strip()


def export_revision(rev: str, folder: Path) -> str:
    """Write the tree of ``rev`` into ``folder`` (git archive); its short commit id."""
    commit = git("rev-parse", "--short", f"{rev}^{{commit}}")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(folder, filter="data")
        else:  # Python before 3.11.4: our own repository's archive, trusted
            tar.extractall(folder)
    return commit


def find_reference(given: str | None) -> Path | None:
    """bidwhist_v2.py: as given, else ../shared beside this checkout or beside the main checkout."""
    if given:
        return Path(given)
    places = [ROOT.parent / REFERENCE]
    try:  # a git worktree: shared/ lies beside the main checkout, whose .git is the common dir
        common = Path(git("rev-parse", "--path-format=absolute", "--git-common-dir"))
        places.append(common.parent.parent / REFERENCE)
    except (OSError, subprocess.CalledProcessError):
        pass
    return next((p for p in places if p.is_file()), places[0])


def spread(values: list[float], fmt: str) -> str:
    """min / median / max of ``values`` in ``fmt``."""
    return "  ".join(format(v, fmt).rjust(8) for v in (min(values), statistics.median(values), max(values)))


def main() -> None:
    """Measure every row ``--rounds`` times, interleaved, and print rates, ratios and the identity check."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="df1e856", metavar="REV", help="older revision to compare (default df1e856)")
    parser.add_argument("--hands", type=int, default=2000, help="random-play hands per round (default 2000)")
    parser.add_argument("--heuristic-hands", type=int, default=500,
                        help="heuristic-bot hands per round (default 500)")
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--reference", default=None, metavar="FILE",
                        help="the hand-coded reference (default ../shared/perf/bidwhist_v2.py beside the checkout)")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args.worker)
        return
    if min(args.hands, args.heuristic_hands, args.rounds) < 1:
        parser.error("--hands, --heuristic-hands and --rounds must be at least 1")

    with tempfile.TemporaryDirectory(prefix="bidwhist-old-") as temp:
        try:
            head = git("rev-parse", "--short", "HEAD")
        except (OSError, subprocess.CalledProcessError):
            head = "no git"
        children = {"current": Child(f"current engine (working tree, HEAD {head})", ROOT)}
        try:
            old = export_revision(args.old, Path(temp))
            children["old"] = Child(f"old engine ({old})", Path(temp))
        except (OSError, subprocess.CalledProcessError) as error:
            detail = getattr(error, "stderr", None) or error
            print(f"old engine: skipped, revision {args.old!r} cannot be exported here ({str(detail).strip()})")
        reference = find_reference(args.reference)
        if reference is not None and reference.is_file():
            children["reference"] = Child(f"reference {reference.name}", reference.parent)
        else:
            print(f"reference: skipped, {reference} is missing (give --reference FILE)")
        try:
            measure(args, children)
        finally:
            for child in children.values():
                child.close()


def measure(args: argparse.Namespace, children: dict[str, Child]) -> None:
    """The interleaved rounds and the report."""
    rows = [("current", "random", args.hands), ("old", "random", args.hands),
            ("reference", "reference", args.hands), ("current", "plain", args.hands),
            ("current", "heuristic", args.heuristic_hands), ("old", "heuristic", args.heuristic_hands)]
    rows = [row for row in rows if row[0] in children]
    for who, job, _ in rows:  # warm-up, not counted: imports, compiling the rules, the bots' tables
        children[who].run(job, 20 if job != "heuristic" else 5, 0)
    rates: dict[tuple[str, str], list[float]] = {(who, job): [] for who, job, _ in rows}
    digests: dict[tuple[str, str], list[str]] = {(who, job): [] for who, job, _ in rows}
    load = os.getloadavg()[0]
    for r in range(args.rounds):
        for who, job, hands in (rows if r % 2 == 0 else rows[::-1]):
            cpu, digest = children[who].run(job, hands, r + 1)
            rates[who, job].append(hands / cpu)
            digests[who, job].append(digest)

    names = {key: children[key[0]].label for key in rates}
    names["current", "plain"] = "plain tests/plain_standard.py (strings)"
    print(f"standard, {args.rounds} interleaved rounds, CPU time of each child process; {os.cpu_count()} CPUs, "
          f"load average {load:.1f} before and {os.getloadavg()[0]:.1f} after; Python {sys.version.split()[0]}")
    print(f"{'hands per second':<58}{'min':>8}  {'median':>8}  {'max':>8}")
    for title, jobs, hands in (("random legal play", ("random", "reference", "plain"), args.hands),
                               ("heuristic bots (simulate --hands)", ("heuristic",), args.heuristic_hands)):
        print(f"{title}, {hands} hands a round:")
        for key, values in rates.items():
            if key[1] in jobs:
                print(f"  {names[key]:<56}{spread(values, ',.0f')}")
    print(f"{'ratios, round by round (above 1: the current engine is faster)':<58}")
    for label, a, b in (("random play, current / old", ("current", "random"), ("old", "random")),
                        ("random play, current / reference", ("current", "random"), ("reference", "reference")),
                        ("random play, current / plain", ("current", "random"), ("current", "plain")),
                        ("heuristic bots, current / old", ("current", "heuristic"), ("old", "heuristic"))):
        if a in rates and b in rates:
            ratios = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
            print(f"  {label:<56}{spread(ratios, '.2f')}")

    same = True
    for job in ("random", "heuristic"):
        if ("old", job) in digests:
            new, old = _digest(digests["current", job]), _digest(digests["old", job])
            verdict = "identical" if new == old else "DIFFERENT"
            same = same and new == old
            print(f"same seeds, {job} play: scores and books digest current {new}, old {old}: {verdict}")
    if not same:
        sys.exit(1)


if __name__ == "__main__":
    main()
