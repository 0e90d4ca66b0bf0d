"""`bidwhist schema --write DIR` and the modeline `convert --to yaml` writes.

The modeline at the top of a converted YAML file must resolve where the file is
written (not only inside the repository), and a converted file never starts with a
stray empty `#` line.
"""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run

from bidcompiler.convert import MODELINE_PREFIX, SCHEMA_FILE

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "bidcompiler" / "schema" / "variant.schema.json"
HAWAII = ROOT / "examples" / "hawaii.whist"


def modeline_target(path: Path) -> Path:
    """The file the modeline on the first line of ``path`` points at."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE_PREFIX), first
    return (path.parent / first[len(MODELINE_PREFIX):]).resolve()


def test_schema_write_puts_the_schema_in_the_folder_and_says_where(tmp_path):
    folder = tmp_path / "my variants"
    result = run("schema", "--write", str(folder))
    assert result.exit_code == 0, result.stderr
    written = folder / SCHEMA_FILE
    assert result.stdout == f"wrote {written}\n"
    assert json.loads(written.read_text(encoding="utf-8")) == json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert written.read_text(encoding="utf-8") == run("schema").stdout   # the same text as printed


def test_schema_write_to_a_file_is_a_usage_error(tmp_path):
    plain = tmp_path / "file.txt"
    plain.write_text("x", encoding="utf-8")
    result = run("schema", "--write", str(plain))
    assert result.exit_code == 2
    assert result.stdout == ""


def test_convert_next_to_a_written_schema_points_at_it(tmp_path):
    assert run("schema", "--write", str(tmp_path)).exit_code == 0
    out = tmp_path / "hawaii.yaml"
    result = run("convert", str(HAWAII), "--to", "yaml", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").splitlines()[0] == MODELINE_PREFIX + SCHEMA_FILE
    assert modeline_target(out) == (tmp_path / SCHEMA_FILE).resolve()
    assert "wrote" not in result.stderr          # nothing else written


def test_convert_below_a_schema_points_up_to_it(tmp_path):
    assert run("schema", "--write", str(tmp_path)).exit_code == 0
    out = tmp_path / "house" / "rules" / "hawaii.yaml"
    out.parent.mkdir(parents=True)
    assert run("convert", str(HAWAII), "--to", "yaml", "-o", str(out)).exit_code == 0
    assert out.read_text(encoding="utf-8").splitlines()[0] == MODELINE_PREFIX + "../../" + SCHEMA_FILE
    assert modeline_target(out) == (tmp_path / SCHEMA_FILE).resolve()


def test_convert_without_a_schema_near_writes_one_and_says_so(tmp_path):
    out = tmp_path / "hawaii.yaml"
    result = run("convert", str(HAWAII), "--to", "yaml", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    target = modeline_target(out)
    assert target == (tmp_path / SCHEMA_FILE).resolve() and target.is_file()
    assert str(tmp_path / SCHEMA_FILE) in result.stderr
    assert json.loads(target.read_text(encoding="utf-8")) == json.loads(SCHEMA.read_text(encoding="utf-8"))
    # and the converted file still checks
    assert run("check", str(out)).exit_code == 0


def test_convert_inside_the_source_tree_points_at_the_project_schema(tmp_path, monkeypatch):
    # A source tree like this one, made in tmp_path (the shared tree is left alone):
    # a file converted into its variants/ points at ../bidcompiler/schema/..., as the
    # shipped files do, and no copy is written.
    from bidcompiler.cli import authoring
    schema = tmp_path / "bidcompiler" / "schema" / SCHEMA_FILE
    schema.parent.mkdir(parents=True)
    schema.write_text(SCHEMA.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "variants").mkdir()
    monkeypatch.setattr(authoring.resources, "schema_path", lambda: schema)
    out = tmp_path / "variants" / "hawaii.yaml"
    result = run("convert", str(HAWAII), "--to", "yaml", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").splitlines()[0] == (
        MODELINE_PREFIX + "../bidcompiler/schema/" + SCHEMA_FILE)
    assert modeline_target(out) == schema.resolve()
    assert not (tmp_path / "variants" / SCHEMA_FILE).exists()


def test_the_shipped_files_modeline_is_what_convert_writes_there():
    # The real tree: the modeline convert would write into variants/ is the one the
    # shipped files carry (test_shipped_files checks that it resolves).
    from bidcompiler.cli.authoring import _schema_ref
    ref, make = _schema_ref(ROOT / "variants" / "any.yaml")
    assert make is None
    first = (ROOT / "variants" / "standard.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first == MODELINE_PREFIX + ref


def test_convert_to_stdout_points_beside_the_file_and_says_how_to_make_it():
    result = run("convert", str(HAWAII), "--to", "yaml")
    assert result.exit_code == 0
    assert result.stdout.splitlines()[0] == MODELINE_PREFIX + SCHEMA_FILE
    assert "bidwhist schema --write" in result.stderr


def test_convert_help_explains_the_modeline():
    text = " ".join(run("convert", "--help").stdout.split())
    assert "modeline" in text and "bidwhist schema --write DIR" in text


def test_no_stray_hash_on_the_first_line():
    # standard.yaml: a modeline, an empty `#` line, then its header comment.
    whist = run("convert", str(ROOT / "variants" / "standard.yaml"), "--to", "whist").stdout
    yaml_text = run("convert", str(ROOT / "variants" / "standard.yaml"), "--to", "yaml").stdout
    assert whist.splitlines()[0].startswith("# Bid Whist as ")
    assert yaml_text.splitlines()[0].startswith(MODELINE_PREFIX)
    assert yaml_text.splitlines()[1].startswith("# Bid Whist as ")


def test_empty_lines_inside_a_header_stay(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(MODELINE_PREFIX + "x.json\n#\n# one\n#\n# two\nname: r\nkind: house-rule\n"
                    "deal: {kitty: 4}\n", encoding="utf-8")
    whist = run("convert", str(path), "--to", "whist").stdout
    assert whist.startswith("# one\n#\n# two\nhouse-rule r\n")
