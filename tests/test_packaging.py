"""The wheel carries its data: grammars, variants and the schema are found after a plain install.

Builds a real (non-editable) wheel of the checkout, unpacks it into an empty folder
and runs the package from there, in a working directory outside the checkout, so
nothing can be picked up from the source tree by accident.
"""

import importlib.util
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
import bidcompiler, runtime
from bidcompiler import resources
from bidcompiler.pipeline import load_ruleset, shipped_variants
paths = [str(resources.grammar_path("expr.lark")), str(resources.variants_dir()), str(resources.schema_path())]
rules = load_ruleset("standard")
print(json.dumps({"package": bidcompiler.__file__, "runtime": runtime.__file__, "paths": paths,
                  "variants": sorted(shipped_variants()), "cards": len(rules.cards)}))
"""


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)]
    if importlib.util.find_spec("hatchling") is not None:
        cmd.insert(4, "--no-build-isolation")  # no download needed when the backend is here
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    wheel = next(out.glob("bidwhist-*.whl"))
    site = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(site)
    return site, names


def test_wheel_contains_grammar_variants_and_schema(unpacked_wheel):
    _, names = unpacked_wheel
    assert "bidcompiler/grammar/expr.lark" in names
    assert "bidcompiler/variants/standard.yaml" in names
    assert "bidcompiler/schema/variant.schema.json" in names
    assert "bidcompiler/data/trickster-options.yaml" in names  # bidwhist import's options table
    assert any(n.startswith("runtime/") for n in names)
    assert not any(n.startswith(("tests/", "examples/")) for n in names)


def test_installed_package_finds_its_data(unpacked_wheel, tmp_path):
    site, _ = unpacked_wheel
    env = dict(os.environ, PYTHONPATH=str(site))
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True, check=True)
    info = json.loads(done.stdout)
    assert info["package"].startswith(str(site))
    assert info["runtime"].startswith(str(site))
    for path in info["paths"]:
        assert path.startswith(str(site)), path
    assert "standard" in info["variants"]
    assert info["cards"] == 54


ZIP_PROBE = """
import json
from pathlib import Path
import bidcompiler
from bidcompiler import resources, rulecache, whist
whist._parser()  # the .whist grammar %imports expr.lark from the grammar folder
shipped = resources.shipped_variants()
print(json.dumps({"package": bidcompiler.__file__, "variants": sorted(shipped),
                  "shipped": resources.is_shipped(str(shipped["standard"])),
                  "cache": str(rulecache._entries_folder(create=True)), "data": str(resources.variants_dir().parent)}))
"""


def test_a_zipped_package_finds_its_data_and_keeps_no_cache(unpacked_wheel, tmp_path):
    # The wheel's files in one zip file on PYTHONPATH: the package's data is no folder on disk.
    site, names = unpacked_wheel
    archive = tmp_path / "bidwhist.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for name in names:
            if not name.endswith("/") and ".dist-info/" not in name:
                zf.write(site / name, name)
    cache = tmp_path / "cache"
    env = dict(os.environ, PYTHONPATH=str(archive), BIDWHIST_CACHE_DIR=str(cache))
    env.pop("BIDWHIST_NO_CACHE", None)
    done = subprocess.run([sys.executable, "-c", ZIP_PROBE], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    info = json.loads(done.stdout)
    assert info["package"].startswith(str(archive))
    assert "standard" in info["variants"] and info["shipped"] is True
    assert not Path(info["data"]).exists()  # the copy of the data is gone with the process
    # The code's version cannot be hashed from a zip file: nothing is kept that a changed zip would reuse.
    assert info["cache"] == "None" and not cache.exists()


NO_TEMP_PROBE = """
import sys, tempfile
from bidcompiler import resources
resources._package_folder = lambda: None  # as for a zipped package: the data is copied out
def no_folder(*args, **kwargs):  # what tempfile says when no candidate folder is usable
    raise FileNotFoundError(2, "No usable temporary directory found in ['/nonexistent']")
tempfile.mkdtemp = no_folder
from bidcompiler.cli import main
main(["variants"])
"""


def test_a_zipped_package_without_a_temporary_folder_says_so_in_one_line(tmp_path):
    # Not the wrong "cannot write the output" of a failed write, nor a traceback: status 1.
    env = dict(os.environ, BIDWHIST_NO_CACHE="1")
    env.pop("BIDWHIST_DEBUG", None)
    done = subprocess.run([sys.executable, "-c", NO_TEMP_PROBE], cwd=tmp_path, env=env,
                          capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr == ("bidwhist: cannot make a temporary folder for the package's data files: No usable "
                           "temporary directory found in ['/nonexistent']; set TMPDIR to a writable folder\n")
    assert done.stdout == ""
