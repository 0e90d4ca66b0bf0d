"""bench/gamebids.py --positions: a --long no hand can hold is refused, not sampled for ever."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import gamebids  # noqa: E402

from bidcompiler.pipeline import load_ruleset  # noqa: E402


def test_a_long_suit_longer_than_a_hand_is_refused():
    # Was: deals were drawn until one held such a suit, which none can: the bench never ended.
    size = load_ruleset("standard").hand_size
    with pytest.raises(SystemExit, match=f"--long {size + 1}: a hand of standard holds {size} cards"):
        gamebids.measure_positions("standard", "standard", 1, 1, long=size + 1)
