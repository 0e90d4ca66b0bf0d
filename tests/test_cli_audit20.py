"""A hostile user's read of the command line, terminal play first (audit 20).

Each test names what went wrong before its fix.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from bidcompiler.pipeline import load_ruleset
from runtime.session import Session, Settings, sidecar_path
from test_play import load


def test_a_save_whose_folder_is_removed_mid_game_is_saved_whole_again_and_resumes(tmp_path):
    """The save's folder removed during play (a clean-up, another program): the next move made
    the folder again and wrote FILE, but not FILE.session.json, so "Saved. Resume with" named a
    game that `--resume` refused ("FILE.session.json: missing"): the seed was lost with it."""
    folder = tmp_path / "saves"
    folder.mkdir()
    path = folder / "g.jsonl"
    session = Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    session.apply(session.bot_choice())
    shutil.rmtree(folder)
    session.apply(session.bot_choice())
    assert sidecar_path(path).is_file()
    resumed = load(path)
    assert resumed.actions == session.actions and resumed.settings.seed == 7


def test_a_session_file_removed_mid_game_is_written_again_by_the_next_move(tmp_path):
    """FILE.session.json deleted while FILE stays: each move rewrote FILE only, and the game
    could not be resumed though every move was in FILE."""
    path = tmp_path / "g.jsonl"
    session = Session.new(load_ruleset("standard"), Settings("standard", [], 7, [], "random"), path)
    sidecar_path(path).unlink()
    session.apply(session.bot_choice())
    assert load(path).actions == session.actions
