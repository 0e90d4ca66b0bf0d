"""What a player reads cites public sources and links only to files they have.

The shipped variant files, the examples, `bidwhist variants`, the rulebooks and
the documentation never name the project's internal design notes (they are not
shipped), and every relative link in README.md and docs/ points at a file inside
the repository.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from clirun import run

from bidcompiler.pipeline import compile_variant, shipped_house_rules, shipped_variants
from bidcompiler.rulebook import rulebook

ROOT = Path(__file__).resolve().parents[1]
# Words that only make sense inside the project's own working notes.
INTERNAL = re.compile(r"seed 0\d\d|seeds\b|rules\.md|records\.md section|shared/", re.IGNORECASE)
# In the documentation "seeds" are random-number seeds; the notes' names are still out.
INTERNAL_IN_DOCS = re.compile(r"seeds? 0\d\d|seeds/|rules\.md|records\.md section|shared/", re.IGNORECASE)
SHIPPED_FILES = sorted([*(ROOT / "variants").iterdir(), *(ROOT / "examples").rglob("*.*")])
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PAGAT = "https://www.pagat.com/auctionwhist/bidwhist.html"


def internal_words(text: str) -> list[str]:
    """Every internal reference in ``text``."""
    return [m.group() for m in INTERNAL.finditer(text)]


def test_the_matcher():
    assert internal_words("seed 000, section 4; rules.md section 1; ../shared/spec") == [
        "seed 000", "rules.md", "shared/"]
    assert internal_words("--seed 7, the same seed deals; seeded from one seed") == []


@pytest.mark.parametrize("path", SHIPPED_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_files_cite_no_internal_notes(path):
    assert internal_words(path.read_text(encoding="utf-8")) == []


def test_variants_output_cites_public_sources():
    text = run("variants").stdout
    listing = run("variants", "--json")
    assert internal_words(text) == [] and internal_words(listing.stdout) == []
    rows = json.loads(listing.stdout)
    assert all(row["source"] for row in rows), [row["name"] for row in rows if not row["source"]]
    standard = next(row for row in rows if row["name"] == "standard")
    assert "pagat.com" in standard["source"] and PAGAT in standard["source"]


@pytest.mark.parametrize("name", sorted(shipped_variants()))
def test_rulebooks_cite_public_sources(name):
    book = rulebook(compile_variant(name))
    assert internal_words(book) == []
    source = next(line for line in book.splitlines() if line.startswith("- Source: "))
    assert any(title in source for title in ("pagat.com", "How to Play Bid Whist"))


def test_golden_rulebooks_cite_no_internal_notes():
    for path in sorted((ROOT / "tests" / "golden").rglob("*.*")):
        assert internal_words(path.read_text(encoding="utf-8")) == [], path.name


def test_every_pagat_citation_gives_the_address():
    for path in SHIPPED_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            if re.match(r"\s*source[: ]", line) and "pagat.com" in line:
                assert PAGAT in line, (path.name, line)


def test_a_decision_of_the_project_is_said_to_be_one():
    # Where the sources are silent the file says that it decides, in words.
    for name in ("cincinnati", "hawaii", "rhode-island", "cutthroat"):
        path = shipped_variants()[name]
        text = path.read_text(encoding="utf-8")
        assert re.search(r"silent|decision|own choice|decides", text), name


@pytest.mark.parametrize("name", sorted(shipped_house_rules()))
def test_every_house_rule_cites_a_source(name):
    text = shipped_house_rules()[name].read_text(encoding="utf-8")
    source = re.search(r"^source: (.+)$", text, re.M)
    assert source and internal_words(source.group(1)) == []


# ----------------------------------------------------------------------------- links
LINK = re.compile(r"(?<!\\)\[[^\]]*\]\(\s*<?([^)>\s]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)


def relative_links(text: str) -> list[str]:
    """The targets of the Markdown links and link definitions that are not URLs or anchors."""
    found = LINK.findall(text) + REFERENCE.findall(text)
    return [t for t in found if not re.match(r"[a-z][a-z0-9+.-]*:", t, re.I) and not t.startswith("#")]


def test_the_link_finder():
    text = "[a](docs/x.md) [b](https://e.org) [c](#top) ![d](img/p.png \"t\")\n[e]: ../y.md\n"
    assert relative_links(text) == ["docs/x.md", "img/p.png", "../y.md"]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_points_inside_the_repository(doc):
    text = doc.read_text(encoding="utf-8")
    for target in relative_links(text):
        path = (doc.parent / unquote(target.split("#")[0])).resolve()
        assert path.is_relative_to(ROOT), f"{doc.name}: {target} is outside the repository"
        assert path.exists(), f"{doc.name}: {target} does not exist"


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_document_sends_the_reader_outside_the_repository(doc):
    # Also paths written as code rather than as links.
    text = doc.read_text(encoding="utf-8")
    assert "../shared" not in text
    assert [m.group() for m in INTERNAL_IN_DOCS.finditer(text)] == []


def test_the_record_format_is_published_in_the_repository():
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    for heading in ("## Cards", "## Seats and sides", "## Calls", "## Hand records", "## Game records",
                    "## `bidwhist replay`"):
        assert f"\n{heading}\n" in text, heading
    assert '"format": "bidwhist-hand/1"' in text
