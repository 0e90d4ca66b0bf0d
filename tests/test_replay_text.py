"""What `replay` and `analyze` show people (issue 11, "Consistent numbers").

- Text numbers hands and tricks from 1 and shows books by side, in side order, as
  `bidwhist play` does (``side 0+2 12 (declarers)   side 1+3 1``); JSON keeps its
  indices (records.md).
- `replay`'s text shows the dealer, the auction, the contract, the kitty and who took
  it, and the discards before the tricks.
- `replay --each` (and `analyze --each`) score a file of independent hand records,
  as `simulate --hands … --records` writes it; a plain replay of such a file says to
  use `--each`.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from bidcompiler.pipeline import load_ruleset
from clirun import run
from runtime.records import hand_record
from runtime.simulate import play_hand
from worked_hands import write_record as write_record_at, NT_RECORD

# NT_RECORD (tests/worked_hands.py): seat 0 bids 4 notrump, takes the kitty, lays it
# away and takes 12 books.


def write(tmp_path: Path, data, name: str = "hand.json") -> Path:
    """A hand record (dict), records one per line (list) or raw text, written to ``name``."""
    return write_record_at(tmp_path / name, data)


def independent_hands(count: int, seed: int = 3) -> list[dict]:
    """Hands as `simulate --hands` plays them (random bots: quick), each a hand record."""
    rules = load_ruleset("standard")
    return [hand_record(play_hand(rules, seed, i), "standard") for i in range(count)]


def decided_file(tmp_path: Path) -> tuple[Path, list[dict]]:
    """Independent hands that, read as one game, are decided before their last line.

    Random bots overbid: a 7 bid made or set decides a standard game (to 7) at once.
    """
    records = independent_hands(6)
    path = write(tmp_path, records, "hands.jsonl")
    out = json.loads(run("replay", str(path), "--json").stdout)
    assert out["error"] is not None and out["error"]["at"].startswith("hand["), out["error"]
    return path, records


# --------------------------------------------------------------------------- replay's text
def test_replay_text_shows_dealer_auction_contract_kitty_and_discards_before_the_tricks(tmp_path):
    result = run("replay", str(write(tmp_path, NT_RECORD)))
    assert result.exit_code == 0 and result.stderr == ""
    text = result.stdout
    rows = [re.sub(r"\s+", " ", line.strip()) for line in text.splitlines()]
    assert rows[:5] == [
        "dealer seat 3",
        "auction seat 0: 4 notrump, seat 1: pass, seat 2: pass, seat 3: pass",
        "contract 4 notrump by seat 0 (side 0+2), no trump, uptown",
        "kitty 2S 3D 2D 2C BJ LJ, taken by seat 0",
        "discards BJ LJ 2S 3D 2D 2C (seat 0)",
    ]
    assert rows[5] == "trick leader cards winner"
    assert rows[6] == "1 seat 0 AH 2H 7H 4C seat 0"     # tricks counted from 1
    assert rows[7] == "2 seat 0 KS AS 4D 3C seat 1"
    assert rows[17] == "12 seat 0 KH 8S AD AC seat 0"
    assert rows[18:] == [
        "books side 0+2 12 (declarers) side 1+3 1",
        "score side 0+2 +12 side 1+3 0",
        "result made: 10 books needed, 12 taken",
    ]


def test_replay_text_of_a_thrown_in_hand_shows_its_auction(tmp_path):
    record = {key: NT_RECORD[key] for key in ("format", "variant", "with", "dealer", "hands", "kitty")}
    record["with"] = ["all-pass-redeal"]
    record["auction"] = ["pass"] * 4
    result = run("replay", str(write(tmp_path, record)))
    assert result.exit_code == 0, result.stderr
    assert re.search(r"auction\s+seat 0: pass, seat 1: pass, seat 2: pass, seat 3: pass\n", result.stdout)
    assert re.search(r"contract\s+none: the hand was thrown in\n", result.stdout)
    assert "taken by" not in result.stdout


def test_replay_json_is_unchanged_by_the_text(tmp_path):
    out = json.loads(run("replay", str(write(tmp_path, NT_RECORD)), "--json").stdout)
    assert set(out) == {"contract", "tricks", "books", "score", "error"}
    assert out["books"] == [12, 1] and out["score"] == [12, 0]


def test_game_text_numbers_hands_from_1_and_shows_totals_by_side(tmp_path):
    records = independent_hands(2)
    records[1]["dealer"] = (records[0]["dealer"] + 1) % 4  # the rotation: a game of two hands
    path = write(tmp_path, records, "game.jsonl")
    replayed = json.loads(run("replay", str(path), "--json").stdout)
    if replayed["error"] is not None:  # the first hand decided the game; keep that one alone
        path = write(tmp_path, records[:1], "game.jsonl")
        replayed = json.loads(run("replay", str(path), "--json").stdout)
    result = run("replay", str(path))
    assert result.exit_code == 0, result.stderr
    assert re.search(r"^hand 1$", result.stdout, re.M) and not re.search(r"^hand 0$", result.stdout, re.M)
    totals = replayed["totals"]
    assert re.search(rf"totals\s+side 0\+2 {totals[0]}   side 1\+3 {totals[1]}\n", result.stdout)


# --------------------------------------------------------------------------- errors for people
def test_game_errors_in_text_give_the_line_and_the_hand_counted_from_1(tmp_path):
    path = write(tmp_path, "\n" + json.dumps(dict(NT_RECORD, variant="no-such-variant")) + "\n", "game.jsonl")
    result = run("replay", str(path))
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.startswith(f"{path}:2: hand 1, variant: "), result.stderr  # line 2: after a blank line
    # JSON keeps records.md's `at`, indices from 0.
    out = json.loads(run("replay", str(path), "--json").stdout)
    assert out["error"]["at"] == "hand[0].variant"


def test_record_messages_count_hands_for_people(tmp_path):
    """No message says "hand 0": the variant of the first hand, a game decided before."""
    path, records = decided_file(tmp_path)
    err = json.loads(run("replay", str(path), "--json").stdout)["error"]
    assert "hand 0" not in err["message"]
    assert "decided by the hand before this one" in err["message"]
    other = copy.deepcopy(records[:2])
    other[1]["dealer"] = (other[0]["dealer"] + 1) % 4
    other[1]["variant"] = "standard.yaml"
    err = json.loads(run("replay", str(write(tmp_path, other, "two.jsonl")), "--json").stdout)["error"]
    if err["at"] == "hand[1].variant":  # (unless the first hand already decided the game)
        assert err["message"].startswith("every hand of a game record has the variant of the first hand")


# --------------------------------------------------------------------------- --each
def test_plain_replay_of_independent_hands_says_to_use_each(tmp_path):
    path, _ = decided_file(tmp_path)
    result = run("replay", str(path))
    assert result.exit_code == 1 and result.stdout == ""
    assert f"bidwhist replay --each {path}" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    out = json.loads(run("replay", str(path), "--json").stdout)
    assert set(out["error"]) == {"at", "message"}
    assert f"bidwhist replay --each {path}" in out["error"]["message"]
    analysed = run("analyze", str(path))
    assert analysed.exit_code == 1 and f"bidwhist analyze --each {path}" in analysed.stderr


def test_a_real_error_in_a_game_gets_no_each_hint(tmp_path):
    records = independent_hands(1)
    bad = copy.deepcopy(records[0])
    bad["play"][1] = bad["play"][0]  # a card its seat does not hold
    path = write(tmp_path, [records[0], bad], "game.jsonl")
    out = json.loads(run("replay", str(path), "--json").stdout)
    assert out["error"] is not None and "--each" not in out["error"]["message"]


def test_replay_each_scores_every_line_numbered_from_1(tmp_path):
    path, records = decided_file(tmp_path)
    result = run("replay", "--each", str(path))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    titles = re.findall(r"^hand (\d+)$", result.stdout, re.M)
    assert titles == [str(i) for i in range(1, len(records) + 1)]
    assert len(re.findall(r"^\s+dealer\s+seat \d$", result.stdout, re.M)) == len(records)
    summary = result.stdout.strip().splitlines()[-1]
    m = re.fullmatch(r"6 hands: (\d+) made, (\d+) set, (\d+) thrown in", summary)
    assert m and sum(map(int, m.groups())) == 6, summary
    assert int(m.group(1)) == result.stdout.count("result    made")
    # Each hand's text is that of the hand replayed alone.
    alone = run("replay", str(write(tmp_path, records[2], "third.json"))).stdout
    assert alone in result.stdout.split("hand 3\n", 1)[1]


def test_replay_each_json_is_each_hand_as_replayed_alone_with_its_line(tmp_path):
    path, records = decided_file(tmp_path)
    result = run("replay", "--each", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) == {"hands", "illegal"} and out["illegal"] == []
    assert [h["line"] for h in out["hands"]] == list(range(1, 7))
    for i, (hand, record) in enumerate(zip(out["hands"], records)):
        alone = json.loads(run("replay", str(write(tmp_path, record, f"h{i}.json")), "--json").stdout)
        assert {k: v for k, v in hand.items() if k != "line"} == alone


def test_replay_each_reports_an_illegal_hand_by_its_line_and_exits_1(tmp_path):
    records = independent_hands(3)
    bad = copy.deepcopy(records[1])
    bad["play"][1] = bad["play"][0]
    text = json.dumps(records[0]) + "\n\n" + json.dumps(bad) + "\n" + json.dumps(records[2]) + "\n"
    path = write(tmp_path, text, "hands.jsonl")
    alone = json.loads(run("replay", str(write(tmp_path, bad, "bad.json")), "--json").stdout)["error"]
    result = run("replay", "--each", str(path))
    assert result.exit_code == 1
    assert result.stderr == f"{path}:3: {alone['at']}: {alone['message']}\n"
    assert f"hand 2 (line 3): illegal at {alone['at']}, not scored" in result.stdout
    assert re.search(r"^hand 3 \(line 4\)$", result.stdout, re.M)
    assert result.stdout.strip().splitlines()[-1].endswith("; 1 illegal, not scored (line 3)")
    out = json.loads(run("replay", "--each", str(path), "--json").stdout)
    assert out["illegal"] == [3]
    assert [h["line"] for h in out["hands"]] == [1, 3, 4]
    assert out["hands"][1] == {"line": 3, **json.loads(run("replay", str(tmp_path / "bad.json"), "--json").stdout)}
    assert out["hands"][0]["error"] is None and out["hands"][2]["error"] is None


def test_replay_each_of_a_single_hand_record_and_of_a_non_record(tmp_path):
    result = run("replay", "--each", str(write(tmp_path, NT_RECORD)))
    assert result.exit_code == 0 and "hand 1" in result.stdout
    assert result.stdout.strip().endswith("1 hand: 1 made, 0 set, 0 thrown in")
    bad = write(tmp_path, json.dumps(NT_RECORD) + "\n{oops\n", "bad.jsonl")
    result = run("replay", "--each", str(bad))
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(f"{bad}:2:") and len(result.stderr.strip().splitlines()) == 1


def test_each_is_in_the_help():
    result = run("replay", "--help")
    assert "--each" in result.stdout and "independent hand" in result.stdout


def test_simulated_hands_file_replays_with_each(tmp_path):
    """End to end: what `simulate --hands … --records` writes, `replay --each` scores."""
    path = tmp_path / "hands.jsonl"
    sim = run("simulate", "standard", "--hands", "4", "--seed", "7", "--records", str(path), "--json")
    assert sim.exit_code == 0, sim.stderr
    result = run("replay", "--each", str(path), "--json")
    assert result.exit_code == 0, result.stderr
    out = json.loads(result.stdout)
    assert len(out["hands"]) == 4 and out["illegal"] == []


# --------------------------------------------------------------------------- analyze
def test_analyze_text_counts_from_1_and_shows_books_as_replay_does(tmp_path):
    path = write(tmp_path, NT_RECORD)
    text = run("analyze", str(path)).stdout
    replayed = run("replay", str(path)).stdout
    books = next(line for line in replayed.splitlines() if line.strip().startswith("books"))
    assert books in text.splitlines()  # the same books line, by side, declarers marked
    assert "declarers-defenders" not in text
    rows = [line.split() for line in text.splitlines()]
    trick_rows = [r for r in rows if r and r[0].isdigit()]
    assert [r[0] for r in trick_rows] == [str(i) for i in range(1, 13)]
    start = next(line for line in text.splitlines() if "(start of play)" in line)
    assert not start.split()[0].isdigit()  # the start is not "trick 0"
    assert "books by side (side 0+2 / side 1+3)" in text
    assert "  can reach: the most books the declarers (side 0+2) can still take" in text.splitlines()
    assert all(len(line.rstrip()) <= 80 for line in text.splitlines())  # readable at 80 columns
    # the books column is by side: seat 0's side took the discards' book, then the first trick
    assert re.search(r"\(start of play\)\s+1 / 0\s", text)
    assert re.search(r"\n\s+1\s+seat 0: AH 2H 7H 4C → seat 0\s+2 / 0\s", text)


def test_analyze_game_numbers_hands_from_1(tmp_path):
    path = write(tmp_path, [NT_RECORD], "game.jsonl")  # a .jsonl file is a game record
    text = run("analyze", str(path)).stdout
    assert re.search(r"^hand 1$", text, re.M) and not re.search(r"^hand 0$", text, re.M)


def test_analyze_each(tmp_path):
    """Independent hands (the same worked hand twice, then an illegal one) analysed each alone.

    (The worked hand: the solver is quick on it, where random bots' hands take seconds.)
    """
    bad = copy.deepcopy(NT_RECORD)
    bad["play"][2] = "AD"  # seat 2 must follow hearts
    path = write(tmp_path, [NT_RECORD, NT_RECORD, bad], "hands.jsonl")
    plain = run("analyze", str(path))  # as a game: decided by the first hand
    assert plain.exit_code == 1 and f"bidwhist analyze --each {path}" in plain.stderr
    result = run("analyze", "--each", str(path), "--json")
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["illegal"] == [3] and [h["line"] for h in out["hands"]] == [1, 2, 3]
    alone = json.loads(run("analyze", str(write(tmp_path, NT_RECORD, "one.json")), "--json").stdout)
    assert {k: v for k, v in out["hands"][0].items() if k != "line"} == alone
    assert out["hands"][1] == out["hands"][0] | {"line": 2}
    assert out["hands"][2]["error"] == {"at": "play[2]", "message": "seat 2 must follow hearts (holds 7H)"}
    text = run("analyze", "--each", str(path))
    assert text.exit_code == 1
    assert text.stderr == f"{path}:3: play[2]: seat 2 must follow hearts (holds 7H)\n"
    assert re.findall(r"^hand (\d+)\b", text.stdout, re.M) == ["1", "2", "3"]
    assert "hand 3: illegal at play[2], not analysed" in text.stdout


@pytest.mark.parametrize("command", ["replay", "analyze"])
def test_each_with_a_missing_file_exits_2(tmp_path, command):
    result = run(command, "--each", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2 and result.stdout == ""


# --------------------------------------------------------------------------- drawing without rich's layout
def _printed(width: int, colour: bool, *renderables) -> str:
    """What a console like render.stdout() (``width`` columns, colour or not) prints for ``renderables``."""
    import io

    from rich.console import Console

    file = io.StringIO()
    console = Console(file=file, width=width, highlight=False, soft_wrap=True,
                      force_terminal=colour, color_system="standard" if colour else None)
    for renderable in renderables:
        console.print(renderable)
    return file.getvalue()


@pytest.mark.parametrize("width", [80, 36, 35, 20])
@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("rows", [
    [("1", "seat 3", "BJ QH TH JH", "seat 3"), ("12", "seat 0", "KH 8S AD AC", "seat 0")],
    [("1", "seat 3", "BJ QH TH JH", "seat 3"), ("2", "seat 3", "LJ", "(unfinished)")],  # padded last column
    [("1", "seat 0", "[bold]AH[/bold] :smile: x:", "seat 0")],  # markup and an emoji code: rich draws it
    [("1", "seat 0", "AH\t2H", " seat 0")],                       # a tab, space around a cell: rich draws it
])
def test_plain_table_prints_the_bytes_of_richs_table(width, colour, rows):
    from bidcompiler.cli.render import Fitted, PlainTable

    table = PlainTable([("  trick", "right"), ("leader", "left"), ("cards", "left"), ("winner", "left")])
    for row in rows:
        table.add_row(*row)
    drawn = _printed(width, colour, table)
    # Too narrow for a column's longest word, rich's table is printed as a list (Fitted).
    assert drawn == _printed(width, colour, Fitted(table.rich_table()))
    if width == 80:
        assert drawn == _printed(width, colour, table.rich_table())
    assert ("\x1b[2m" in drawn) == colour and drawn.count("\n") > len(rows)  # a header, every row


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("columns, rows", [
    ([("  trick", "right"), ("ab ", "right"), ("w", "left")], [("1", "x", "y")]),  # rich strips a header's end
    ([("\u0301", "left"), ("x", "left")], [("\ufe0f", "y")]),  # rich drops text of no width
])
def test_plain_table_hands_rich_what_rich_draws_otherwise(colour, columns, rows):
    """Cases found by a review where a plain layout would differ from rich's: they go to rich."""
    from bidcompiler.cli.render import PlainTable

    table = PlainTable(columns)
    for row in rows:
        table.add_row(*row)
    assert _printed(80, colour, table) == _printed(80, colour, table.rich_table())


@pytest.mark.parametrize("colour", [False, True])
def test_lines_print_the_bytes_of_one_text_a_line(colour):
    from rich.text import Text

    from bidcompiler.cli.render import Lines

    lines = [("hand 1", "bold"), ("  dealer    seat 2", ""), ("", ""), ("  odd\tline\x07 a\nb", "bold"),
             ("  renege    " + "x" * 100, "")]  # longer than the console: printed whole, as soft_wrap does
    out = Lines()
    for text, style in lines:
        out.add(text, style)
    drawn = _printed(40, colour, out)
    assert drawn == _printed(40, colour, *(Text(text, style=style) for text, style in lines))
    assert ("\x1b[1mhand 1" in drawn) == colour


@pytest.mark.parametrize("variant, declarer, defender", [
    ("standard", "declarers", "defenders"),    # partners against partners
    ("cutthroat", "declarer", "defenders"),    # one declarer against the two others
    ("two-handed", "declarer", "defender"),    # one against one
])
def test_analyze_names_who_lost_a_book_as_many_as_they_are(variant, declarer, defender):
    """The lost column says "declarer lost 1" where one player declares (it said "declarers"
    under a legend naming "the declarer"), "defender" where one defends."""
    from io import StringIO

    from rich.console import Console

    from bidcompiler.cli.analyze import print_hand

    rules = load_ruleset(variant)
    side = rules.side_of[0]
    contract = {"declarer": 0, "side": side, "bid": 0, "strain": "uptown", "trump": "H", "direction": "uptown"}
    trick = {"leader": 0, "trick": ["AH"] * rules.players, "winner": 0}

    def at(n, change):
        return {"last": trick if n else None, "trick": n, "cards": 0, "books": [0] * rules.sides,
                "dd_declaring_books": 5, "change": change}

    hand = {"contract": contract, "declaring_side": side, "positions": [at(0, 0), at(1, -1), at(2, 1)],
            "claim": None, "books": [0] * rules.sides, "score": [0] * rules.sides}
    out = StringIO()
    print_hand(Console(file=out, width=80), hand, rules, every_card=False)
    text = out.getvalue()
    assert f"the most books the {declarer} (" in text
    assert re.search(rf"\b{declarer} lost 1\b", text) and re.search(rf"\b{defender} lost 1\b", text), text
