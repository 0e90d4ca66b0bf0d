"""A whole standard hand worked by hand, shared by the replay tests.

Dealer 3, so seat 0 calls first.  Seat 0 bids 4 notrump, chooses uptown, lays away the
kitty (the jokers and four deuces/treys), and takes every trick but one: seat 1's AS
wins the second trick and seat 1 then leads a heart.  Side 0 has 12 books (eleven
tricks and the discards), side 1 one; standard scores 6 over, doubled in notrump: 12.
Tests copy it (``copy.deepcopy``) before changing anything.
"""

import copy
import json
from pathlib import Path


def with_changes(record: dict, **changes) -> dict:
    """A deep copy of ``record`` with ``changes`` (a value of ``...`` drops that key)."""
    out = copy.deepcopy(record)
    for key, value in changes.items():
        if value is ...:
            out.pop(key, None)
        else:
            out[key] = value
    return out


def write_record(path: Path, data) -> Path:
    """Write a hand record (dict), records one per line (list) or raw text (str) to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    elif isinstance(data, list):
        path.write_text("".join(json.dumps(r) + "\n" for r in data), encoding="utf-8")
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


NT_RECORD = {
    "format": "bidwhist-hand/1",
    "variant": "standard",
    "with": [],
    "dealer": 3,
    "hands": [
        "AH KH QH JH TH 9H 8H KS QS JS TS 9S".split(),
        "6H 5H 4H 3H 2H AS 8S 7S 6S 5S 4S 3S".split(),
        "7H AD KD QD JD TD 9D 8D 7D 6D 5D 4D".split(),
        "AC KC QC JC TC 9C 8C 7C 6C 5C 4C 3C".split(),
    ],
    "kitty": "2S 3D 2D 2C BJ LJ".split(),
    "auction": ["4 notrump", "pass", "pass", "pass"],
    "declare": {"trump": None, "direction": "uptown"},
    "discard": "BJ LJ 2S 3D 2D 2C".split(),
    "play": ("AH 2H 7H 4C  KS AS 4D 3C  3H 5D 5C 8H  9S 3S 6D 6C  TS 4S 7D 7C  JS 5S 8D 8C  "
             "QS 6S 9D 9C  9H 4H TD TC  TH 5H JD JC  JH 6H QD QC  QH 7S KD KC  KH 8S AD AC").split(),
}
# Each trick as (leader, cards in the order played, winner).
NT_TRICKS = [
    (0, "AH 2H 7H 4C", 0), (0, "KS AS 4D 3C", 1), (1, "3H 5D 5C 8H", 0), (0, "9S 3S 6D 6C", 0),
    (0, "TS 4S 7D 7C", 0), (0, "JS 5S 8D 8C", 0), (0, "QS 6S 9D 9C", 0), (0, "9H 4H TD TC", 0),
    (0, "TH 5H JD JC", 0), (0, "JH 6H QD QC", 0), (0, "QH 7S KD KC", 0), (0, "KH 8S AD AC", 0),
]
