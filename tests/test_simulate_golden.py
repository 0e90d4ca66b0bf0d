"""Golden output of ``bidwhist simulate`` with random bots: a seed's report and records stay the same.

The record format promises that a seed replays the same hands, and a run's report is
a function of its hands: speed work on the driver, the seeding, the statistics or the
start-up must leave every byte of the output as it was.  Each case's stdout is kept
whole in ``tests/golden/simulate/``, and its records file as a SHA-256 digest (they
run to megabytes).  Random bots only: their choices follow the engine's legal actions
and the draws alone, where the heuristic's follow its tuning.  To accept an intended
change, run ``BIDWHIST_UPDATE_GOLDEN=1 pytest tests/test_simulate_golden.py`` and
review the diff.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from clirun import run

GOLDEN = Path(__file__).parent / "golden" / "simulate"

CASES = {  # name -> the arguments after `bidwhist simulate`; records: whether --records is written
    "standard-hands-json": (["standard", "--hands", "600", "--seed", "1", "--json"], True),
    "standard-hands-text": (["standard", "--hands", "600", "--seed", "2"], False),
    "kitty-face-up-hands-json": (["standard", "--with", "kitty-face-up", "--hands", "400", "--seed", "3", "--json"],
                                 True),
    "no-jokers-hands-json": (["standard", "--with", "no-jokers", "--hands", "400", "--seed", "2", "--json"], False),
    "cincinnati-hands-text": (["cincinnati", "--hands", "400", "--seed", "3"], False),
    "renege-penalty-hands-json": (["standard", "--with", "renege-penalty", "--hands", "300", "--seed", "5", "--json"],
                                  False),
    "standard-games-json": (["standard", "--games", "5", "--seed", "1", "--json"], True),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_simulate_output_is_its_golden_output(name, tmp_path):
    args, records = CASES[name]
    argv = ["simulate", *args, "--bots", "random"]
    if records:
        argv += ["--records", str(tmp_path / "records.jsonl")]
    result = run(*argv)
    assert result.exit_code == 0, result.stderr
    actual = {f"{name}.out": result.stdout}
    if records:
        digest = hashlib.sha256((tmp_path / "records.jsonl").read_bytes()).hexdigest()
        actual[f"{name}.records.sha256"] = digest + "\n"
    for file, text in actual.items():
        golden = GOLDEN / file
        if os.environ.get("BIDWHIST_UPDATE_GOLDEN"):
            golden.write_text(text, encoding="utf-8")
        assert golden.exists(), f"no golden file {file}: run with BIDWHIST_UPDATE_GOLDEN=1"
        assert text == golden.read_text(encoding="utf-8"), file


def test_every_golden_file_has_a_case():
    names = {p.name.split(".")[0] for p in GOLDEN.iterdir()}
    assert names <= set(CASES)
