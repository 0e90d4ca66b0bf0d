"""The rule cache (bidcompiler.rulecache): the same Ruleset as a build, rebuilt on every change it depends on.

Each test points the cache at a folder of its own.  ``load`` is also cached within a
process (lru_cache), so every look-up here clears that first: what is tested is the
folder on disk.  A hit is told from a build by making the build fail.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bidcompiler import pipeline, rulecache
from bidcompiler.errors import CompileError
from bidcompiler.variantspec import VariantSpec
from runtime.ruleset_json import ruleset_to_json

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of the test's own; the process-wide caches emptied before and after."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(rulecache.ENV_DIR, str(folder))
    monkeypatch.delenv(rulecache.ENV_OFF, raising=False)
    rulecache.load.cache_clear()
    yield folder
    rulecache.load.cache_clear()


class Builds:
    """Counts the builds the cache asks for; ``forbid()`` makes any further build fail."""

    def __init__(self, monkeypatch):
        self.count = 0
        self.allowed = True
        self.last = None  # the Ruleset the last build made
        real = pipeline.build_ruleset

        def build(spec):
            assert self.allowed, f"built {spec} although the cache should hold it"
            self.count += 1
            self.last = real(spec)
            return self.last

        monkeypatch.setattr(pipeline, "build_ruleset", build)


@pytest.fixture
def builds(monkeypatch):
    return Builds(monkeypatch)


def load(spec: VariantSpec):
    """One look-up as a new process makes it: nothing remembered in memory."""
    rulecache.load.cache_clear()
    return rulecache.load(spec)


def entries(folder: Path) -> list[Path]:
    return sorted((folder / "rulesets").glob("*.json")) if (folder / "rulesets").is_dir() else []


def same(a, b) -> bool:
    """Equal, and equal in every type and order too (repr shows tuples, floats, dict order)."""
    return a == b and repr(a) == repr(b) and ruleset_to_json(a) == ruleset_to_json(b)


# --------------------------------------------------------------------------- same results
def shipped_specs() -> list[VariantSpec]:
    variants = list(pipeline.shipped_variants())
    rules = list(pipeline.shipped_house_rules())
    specs = [VariantSpec(v) for v in variants]
    specs += [VariantSpec(v, (r,)) for v in variants for r in rules]
    pairs = list(itertools.combinations(rules, 2))
    specs += [VariantSpec("standard", pair) for pair in pairs[::7]]
    specs += [VariantSpec("standard", ("to-5", "min-bid-4", "kitty-face-up")),
              VariantSpec("standard", (), ("auction.levels.from=4",)),
              VariantSpec("cutthroat", ("to-9",), ("auction.levels.from=4",)),
              VariantSpec(str(ROOT / "examples" / "hawaii.whist")),
              VariantSpec(str(ROOT / "examples" / "northeast52.whist"), ("to-5",))]
    return specs


def test_every_shipped_variant_and_house_rule_comes_back_exactly(cache, builds, monkeypatch):
    """Differential: for every variant, every variant + house rule, pairs, --set and .whist files,
    the stored Ruleset is the one a fresh build makes (or the same error, and nothing stored)."""
    monkeypatch.setattr(rulecache, "MAX_ENTRIES", 10_000)  # keep every entry, to count them
    hits = errors = 0
    for spec in shipped_specs():
        builds.last, before = None, builds.count
        try:
            first = load(spec)  # a miss: a fresh build (the pipeline's own), stored
        except CompileError as exc:
            # The same error as a build of its own, outside the cache (errors build quickly).
            with pytest.raises(CompileError) as again:
                pipeline.build_ruleset(spec)
            assert [str(d) for d in again.value.diagnostics] == [str(d) for d in exc.diagnostics]
            errors += 1
            continue
        fresh = builds.last  # what that build made: the miss must return it, the hit must equal it
        assert builds.count == before + 1, spec  # a miss, and it built once
        builds.allowed = False
        second = load(spec)  # a hit: read back
        builds.allowed = True
        assert first is fresh, spec
        assert same(second, fresh), spec
        hits += 1
    assert hits > 300
    assert len(entries(cache)) == hits  # one entry for each that built; none for errors


def test_simulate_json_is_byte_identical_with_and_without_the_cache(tmp_path):
    """Whole runs: the same --json from a cache miss (a build) and from a hit.

    (A run with the cache turned off is a build too, as the miss is:
    test_rules_and_set_from_the_cache_load_no_compiler_and_print_the_same compares off,
    miss and hit whole runs, and test_turned_off_nothing_is_read_or_written the off switch.)
    50 hands a run: most of a run is start-up and the build; every hand plays from the one
    Ruleset, which test_every_shipped_variant_and_house_rule_comes_back_exactly compares whole.
    """
    def run(variant, *extra, cache_env):
        env = dict(os.environ, **cache_env)
        done = subprocess.run([sys.executable, "-c", "from bidcompiler.cli import main; main()", "simulate",
                               variant, "--hands", "50", "--seed", "5", "--json", *extra],
                              capture_output=True, text=True, env=env)
        return done.returncode, done.stdout, done.stderr

    folder = str(tmp_path / "c")
    for variant, extra in [("standard", ()), ("cutthroat+to-5", ()), ("cutthroat+no-jokers", ()),
                           ("standard", ("--set", "auction.levels.from=4", "--with", "to-5")),
                           (str(ROOT / "examples" / "hawaii.whist"), ())]:
        miss = run(variant, *extra, cache_env={rulecache.ENV_DIR: folder})
        hit = run(variant, *extra, cache_env={rulecache.ENV_DIR: folder})
        assert miss == hit, variant
        assert miss[0] == (1 if "no-jokers" in variant else 0), miss  # no-jokers does not fit cutthroat's deal
    assert len(entries(Path(folder))) == 4  # the variant with an error is not stored


def test_a_hit_imports_no_compiler(tmp_path):
    """The point of the cache: a second run loads neither the pipeline nor Lark, jsonschema or PyYAML."""
    probe = ("import sys; from bidcompiler.rulecache import load_ruleset; r = load_ruleset('standard+to-5'); "
             "print(sorted(m for m in ('bidcompiler.pipeline', 'lark', 'jsonschema', 'yaml') if m in sys.modules))")
    env = dict(os.environ, **{rulecache.ENV_DIR: str(tmp_path / "c")})
    first = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    second = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    assert "bidcompiler.pipeline" in first.stdout  # built
    assert second.stdout.strip() == "[]"


# --------------------------------------------------------------------------- hits and misses
PARENT = "name: parent\nextends: standard\ngame:\n  target: 7\n"
CHILD = "name: child\nextends: parent.yaml\ndescription: mine\n"
RULE = "name: mine\nkind: house-rule\ngame:\n  target: 5\n"


def files(tmp_path: Path) -> Path:
    folder = tmp_path / "v"
    folder.mkdir()
    (folder / "parent.yaml").write_text(PARENT, encoding="utf-8")
    (folder / "child.yaml").write_text(CHILD, encoding="utf-8")
    (folder / "mine.yaml").write_text(RULE, encoding="utf-8")
    return folder


def test_hit_after_a_build(cache, builds, tmp_path):
    folder = files(tmp_path)
    spec = VariantSpec(str(folder / "child.yaml"), (str(folder / "mine.yaml"),))
    first = load(spec)
    assert builds.count == 1 and len(entries(cache)) == 1
    assert load(spec) == first and builds.count == 1
    assert first.name == "child"


@pytest.mark.parametrize("change", ["file", "parent", "house-rule"])
def test_an_edited_file_is_a_miss(cache, builds, tmp_path, change):
    folder = files(tmp_path)
    spec = VariantSpec(str(folder / "child.yaml"), (str(folder / "mine.yaml"),))
    before = load(spec)
    assert before.game_end.target == 5  # the house rule's, laid over the parent's 7
    if change == "file":
        (folder / "child.yaml").write_text(CHILD + "game:\n  floor: 0\n", encoding="utf-8")
    elif change == "parent":
        (folder / "parent.yaml").write_text(PARENT.replace("target: 7", "target: 7\n  floor: 0"),
                                            encoding="utf-8")
    else:
        (folder / "mine.yaml").write_text(RULE.replace("target: 5", "target: 6"), encoding="utf-8")
    after = load(spec)
    assert builds.count == 2
    assert same(after, pipeline.build_ruleset(spec))
    assert after != before
    if change == "house-rule":
        assert after.game_end.target == 6


def test_the_same_bytes_written_again_are_a_hit(cache, builds, tmp_path):
    """Content, not times: a file rewritten unchanged (a new mtime) still hits."""
    folder = files(tmp_path)
    spec = VariantSpec(str(folder / "child.yaml"))
    load(spec)
    (folder / "parent.yaml").write_text(PARENT, encoding="utf-8")
    os.utime(folder / "parent.yaml", (1, 1))
    load(spec)
    assert builds.count == 1


def test_a_file_that_now_shadows_another_is_a_miss(cache, builds, tmp_path, monkeypatch):
    """`extends: parent.yaml` is looked for beside the file first, then in the working folder:
    a file appearing beside it changes what is built, though no file read has changed."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "parent.yaml").write_text(PARENT, encoding="utf-8")
    sub = work / "sub"
    sub.mkdir()
    (sub / "child.yaml").write_text(CHILD, encoding="utf-8")
    monkeypatch.chdir(work)
    spec = VariantSpec("sub/child.yaml")
    assert load(spec).game_end.target == 7
    (sub / "parent.yaml").write_text(PARENT.replace("target: 7", "target: 9"), encoding="utf-8")
    assert load(spec).game_end.target == 9
    assert builds.count == 2


def test_another_working_folder_with_other_files_is_a_miss(cache, builds, tmp_path, monkeypatch):
    """A relative name means another file in another folder."""
    for name, target in (("a", 7), ("b", 9)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "parent.yaml").write_text(PARENT.replace("7", str(target)), encoding="utf-8")
    monkeypatch.chdir(tmp_path / "a")
    assert load(VariantSpec("parent.yaml")).game_end.target == 7
    monkeypatch.chdir(tmp_path / "b")
    assert load(VariantSpec("parent.yaml")).game_end.target == 9
    monkeypatch.chdir(tmp_path / "a")
    assert load(VariantSpec("parent.yaml")).game_end.target == 7
    assert builds.count == 2


def test_each_set_value_is_its_own_entry(cache, builds):
    a = load(VariantSpec("standard", (), ("game.target=9",)))
    b = load(VariantSpec("standard", (), ("game.target=11",)))
    plain = load(VariantSpec("standard"))
    assert (a.game_end.target, b.game_end.target) == (9, 11) and plain.game_end.target != 9
    assert builds.count == 3
    builds.allowed = False
    assert load(VariantSpec("standard", (), ("game.target=9",))).game_end.target == 9


def test_the_order_of_house_rules_is_part_of_the_name(cache, builds):
    load(VariantSpec("standard", ("to-5", "to-9")))
    load(VariantSpec("standard", ("to-9", "to-5")))
    assert builds.count == 2


def test_new_code_is_a_miss(cache, builds, monkeypatch):
    load(VariantSpec("standard"))
    monkeypatch.setattr(rulecache, "code_version", lambda: "another version of the code")
    load(VariantSpec("standard"))
    assert builds.count == 2


def test_the_code_version_covers_the_sources_and_grammars():
    """A hash of every file of the two packages and the grammars: a change to any of them changes it."""
    version = rulecache.code_version()
    assert len(version) == 64
    rulecache.code_version.cache_clear()
    assert rulecache.code_version() == version  # stable
    probe = ROOT / "bidcompiler" / "zz_probe_for_test_rulecache.txt"
    try:
        probe.write_text("x", encoding="utf-8")
        rulecache.code_version.cache_clear()
        assert rulecache.code_version() != version
    finally:
        probe.unlink()
        rulecache.code_version.cache_clear()
    assert rulecache.code_version() == version


def test_hashed_files_are_named_as_relpath_names_them(tmp_path):
    """hash_files names each file by its path below the root, as os.path.relpath gives it
    (cut from the walked path, however the root is written)."""
    import hashlib
    import os

    from runtime import diskcache

    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    for name, text in (("a.py", "1"), ("sub/b.txt", "22"), ("sub/deeper/c.py", "333")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    expected = hashlib.sha256()
    for path in diskcache._source_files(tmp_path):
        data = open(path, "rb").read()
        expected.update(f"{os.path.relpath(path, tmp_path)}\0{len(data)}\0".encode() + data)
    for root in (tmp_path, str(tmp_path) + os.sep, tmp_path / "sub" / ".."):
        actual = hashlib.sha256()
        diskcache.hash_files(actual, root)
        assert actual.hexdigest() == expected.hexdigest(), root


def test_the_code_version_covers_the_libraries_that_read_variants(tmp_path, monkeypatch):
    """An upgraded YAML, Lark or jsonschema (its files rewritten) is new code too."""
    package = tmp_path / "zz_fake_library"
    package.mkdir()
    (package / "__init__.py").write_text("VERSION = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(rulecache, "LIBRARIES", (*rulecache.LIBRARIES, "zz_fake_library"))
    rulecache.code_version.cache_clear()
    try:
        before = rulecache.code_version()
        (package / "__init__.py").write_text("VERSION = 22\n")
        rulecache.code_version.cache_clear()
        assert rulecache.code_version() != before
        assert "zz_fake_library" not in sys.modules  # located, never imported
    finally:
        rulecache.code_version.cache_clear()


def test_a_stored_entry_under_another_code_version_is_not_used(cache, builds, monkeypatch):
    """Even an entry renamed to the current key is refused when it says another code version."""
    spec = VariantSpec("standard")
    load(spec)
    (entry,) = entries(cache)
    data = json.loads(entry.read_text())
    data["code"] = "0" * 64
    data["value"]["name"] = "planted"
    entry.write_text(json.dumps(data))
    assert load(spec).name == "standard"
    assert builds.count == 2


# --------------------------------------------------------------------------- errors and damage
def test_errors_are_never_stored(cache, builds, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: standard\ngame:\n  target: many\n", encoding="utf-8")
    for _ in range(2):
        with pytest.raises(CompileError):
            load(VariantSpec(str(bad)))
    assert builds.count == 2 and entries(cache) == []
    with pytest.raises(CompileError):
        load(VariantSpec("no-such-variant"))
    with pytest.raises(CompileError):
        load(VariantSpec("standard", (), ("game.target=many",)))
    assert entries(cache) == []
    bad.write_text("name: bad\nextends: standard\ngame:\n  target: 3\n", encoding="utf-8")
    assert load(VariantSpec(str(bad))).game_end.target == 3


@pytest.mark.parametrize("damage", [
    b"", b"not json", b"\xff\xfe", b"[]", b"{}", b"null", b"[" * 100_000 + b"]" * 100_000,
    b'{"format": "bidwhist-rulecache/1"}',
    "keep-but-break-ruleset", "keep-but-bad-lookups", "keep-but-bad-files", "too-large",
    "a-directory", "a-link",
])
def test_a_damaged_or_hostile_entry_is_rebuilt_silently(cache, builds, tmp_path, damage):
    spec = VariantSpec("standard", ("to-5",))
    good = load(spec)
    (entry,) = entries(cache)
    data = json.loads(entry.read_text())
    if isinstance(damage, bytes):
        entry.write_bytes(damage)
    elif damage == "keep-but-break-ruleset":
        data["value"]["bids"] = "not bids"
        entry.write_text(json.dumps(data))
    elif damage == "keep-but-bad-lookups":
        data["lookups"] = [[1, 2, 3], "x"]
        entry.write_text(json.dumps(data))
    elif damage == "keep-but-bad-files":
        data["files"] = [["/dev/zero", "0" * 64]]
        entry.write_text(json.dumps(data))
    elif damage == "too-large":
        entry.write_text(json.dumps(data) + " " * rulecache.MAX_ENTRY_BYTES)
    elif damage == "a-directory":
        entry.unlink()
        entry.mkdir()
    elif damage == "a-link":
        target = tmp_path / "elsewhere.json"
        target.write_text(json.dumps(data))
        entry.unlink()
        entry.symlink_to(target)
    again = load(spec)
    assert same(again, good)
    assert builds.count == 2
    if damage != "a-directory":  # the rebuilt entry replaced the damaged one, and hits
        builds.allowed = False
        assert same(load(spec), good)


def test_a_file_read_that_became_a_fifo_is_a_miss_not_a_hang(cache, builds, tmp_path):
    folder = files(tmp_path)
    spec = VariantSpec(str(folder / "child.yaml"))
    load(spec)
    os.unlink(folder / "parent.yaml")
    os.mkfifo(folder / "parent.yaml")
    with pytest.raises(CompileError):  # the build's own error, as without a cache
        load(spec)


def test_an_unwritable_cache_folder_is_not_used(tmp_path, monkeypatch, builds):
    """A cache path under a regular file cannot be made: every run builds, nothing fails."""
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv(rulecache.ENV_DIR, str(blocker / "cache"))
    for _ in range(2):
        assert load(VariantSpec("standard")).name == "standard"
    assert builds.count == 2


def test_a_folder_others_may_write_is_not_used(cache, builds):
    load(VariantSpec("standard"))
    os.chmod(cache / "rulesets", 0o777)
    load(VariantSpec("standard"))
    assert builds.count == 2
    os.chmod(cache / "rulesets", 0o700)
    builds.allowed = False
    load(VariantSpec("standard"))


def test_turned_off_nothing_is_read_or_written(cache, builds, monkeypatch):
    monkeypatch.setenv(rulecache.ENV_OFF, "1")
    load(VariantSpec("standard"))
    load(VariantSpec("standard"))
    assert builds.count == 2 and not cache.exists()


def test_the_cache_folder_defaults_to_xdg_then_home(monkeypatch, tmp_path):
    monkeypatch.delenv(rulecache.ENV_DIR, raising=False)
    monkeypatch.delenv(rulecache.ENV_OFF, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert rulecache.cache_dir() == tmp_path / "xdg" / "bidwhist"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert rulecache.cache_dir() == tmp_path / "home" / ".cache" / "bidwhist"
    monkeypatch.setenv(rulecache.ENV_DIR, str(tmp_path / "mine"))
    assert rulecache.cache_dir() == tmp_path / "mine"
    for off in ("1", "yes"):
        monkeypatch.setenv(rulecache.ENV_OFF, off)
        assert rulecache.cache_dir() is None
    monkeypatch.setenv(rulecache.ENV_OFF, "0")
    assert rulecache.cache_dir() == tmp_path / "mine"


def test_the_test_run_never_writes_the_real_cache():
    """conftest points every test (and the commands tests run) at a folder of the run's own."""
    folder = rulecache.cache_dir()
    assert folder is not None
    assert not str(folder).startswith(str(Path.home() / ".cache"))


def test_concurrent_writers_leave_one_whole_entry(tmp_path):
    """Processes building the same variant at once: each renames a whole file into place."""
    folder = tmp_path / "c"
    probe = "from bidcompiler.rulecache import load_ruleset; load_ruleset('cutthroat+to-5')"
    env = dict(os.environ, **{rulecache.ENV_DIR: str(folder)})
    procs = [subprocess.Popen([sys.executable, "-c", probe], env=env) for _ in range(6)]
    assert [p.wait() for p in procs] == [0] * 6
    (entry,) = entries(folder)
    assert sorted(p.name for p in (folder / "rulesets").iterdir()) == [entry.name]  # no temporary left
    data = json.loads(entry.read_text())
    assert data["format"] == rulecache.FORMAT and data["value"]["name"] == "cutthroat"


def test_many_writers_in_one_process_never_show_a_partial_entry(cache, monkeypatch):
    """Every write goes to a temporary file first; the entry's name only ever holds whole JSON."""
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append(json.loads(Path(src).read_text())["format"])  # whole before it is renamed
        real_replace(src, dst)

    monkeypatch.setattr(rulecache.os, "replace", replace)
    for _ in range(3):
        load(VariantSpec("standard"))
        for entry in entries(cache):
            entry.write_text("damaged")
    assert seen == [rulecache.FORMAT] * 3


def test_old_entries_are_pruned(cache, monkeypatch):
    monkeypatch.setattr(rulecache, "MAX_ENTRIES", 4)
    for target in range(3, 9):
        load(VariantSpec("standard", (), (f"game.target={target}",)))
    assert 2 <= len(entries(cache)) <= 4


# --------------------------------------------------------------------------- rulebooks and --set texts
def test_rulebooks_come_back_exactly(cache, monkeypatch):
    """`bidwhist rules` text: the stored rulebook is the one written from a fresh build."""
    from bidcompiler.rulebook import rulebook

    real = pipeline.compile_spec
    allowed = [True]
    compiled = []  # what each compile made

    def compile_spec(spec):
        assert allowed[0], f"compiled {spec} although the cache should hold its rulebook"
        compiled.append(real(spec))
        return compiled[-1]

    monkeypatch.setattr(pipeline, "compile_spec", compile_spec)
    specs = [s for s in shipped_specs() if s.base == "standard" or not s.with_rules]
    for spec in specs:
        compiled.clear()
        text = "+".join((spec.base, *spec.with_rules))
        try:
            missed = rulecache.rulebook(text, (), spec.sets)  # a miss: compiled (once) and stored
        except CompileError:
            continue
        assert len(compiled) == 1, spec
        fresh = rulebook(compiled[0], spec.sets)  # the rulebook written from that fresh compile
        assert missed == fresh, spec
        allowed[0] = False
        assert rulecache.rulebook(text, (), spec.sets) == fresh, spec
        allowed[0] = True


def cli(*args: str, env: dict) -> subprocess.CompletedProcess:
    """A whole bidwhist process, with Python's import log on stderr."""
    return subprocess.run([sys.executable, "-X", "importtime", "-c", "from bidcompiler.cli import main; main()",
                           *args], capture_output=True, text=True, env=dict(os.environ, **env))


def compiler_imported(stderr: str) -> bool:
    return any(line.rstrip().endswith((" lark", " jsonschema", " yaml", " bidcompiler.pipeline"))
               for line in stderr.splitlines())


def test_rules_and_set_from_the_cache_load_no_compiler_and_print_the_same(tmp_path):
    env = {rulecache.ENV_DIR: str(tmp_path / "c")}
    for args in (("rules", "standard+to-5"), ("rules", "oregon", "--set", "game.target=9"),
                 ("simulate", "standard", "--set", "auction.levels.from=4", "--hands", "20", "--seed", "2", "--json")):
        off = cli(*args, env={rulecache.ENV_OFF: "1"})
        miss = cli(*args, env=env)
        hit = cli(*args, env=env)
        assert off.returncode == miss.returncode == hit.returncode == 0, (args, off.stderr[-500:])
        assert off.stdout == miss.stdout == hit.stdout, args
        assert compiler_imported(miss.stderr) and not compiler_imported(hit.stderr), args


def test_a_set_text_that_does_not_read_is_never_remembered(cache):
    from click.testing import CliRunner

    from bidcompiler.cli import cli as command

    for _ in range(2):
        result = CliRunner().invoke(command, ["simulate", "standard", "--set", "no equals sign", "--hands", "1"])
        assert result.exit_code == 2 and "--set" in result.output
    assert not rulecache.set_text_known("no equals sign")
    result = CliRunner().invoke(command, ["simulate", "standard", "--set", "game.target=9", "--hands", "1"])
    assert result.exit_code == 0, result.output
    assert rulecache.set_text_known("game.target=9")
    assert not rulecache.set_text_known("game.target=8")


def test_a_set_text_marker_belongs_to_one_code_version(cache, monkeypatch):
    rulecache.note_set_text("game.target=9")
    assert rulecache.set_text_known("game.target=9")
    monkeypatch.setattr(rulecache, "code_version", lambda: "another version of the code")
    assert not rulecache.set_text_known("game.target=9")
