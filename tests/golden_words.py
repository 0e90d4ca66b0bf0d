"""The words of ``bidwhist rules`` and ``bidwhist diff`` for every shipped file, as golden files.

Every shipped variant, standard with each shipped house rule, and standard with
each enumerated value of each setting (``--set PATH=VALUE``, the schema's enums)
is run through ``rules``, ``diff`` and ``diff --json`` (against standard), in this
process through click's CliRunner; each output, with the exit status and stderr,
is one golden file under ``tests/golden/words``.  The goldens were first written by
the code from before the vocabulary moved into the schema, so
``tests/test_vocabulary.py`` proves the move changed no word.

Run as a script to write the files: ``python tests/golden_words.py [DIR]``.  It only
imports the installed ``bidcompiler``, so it can be run with another checkout's
interpreter (how the first goldens were made, from main's code).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

GOLDEN = Path(__file__).parent / "golden" / "words"


def _enum_sets(schema: dict) -> list[str]:
    """``path=value`` for every enumerated value of every setting of the schema (strains aside)."""
    out: list[str] = []

    def walk(node: dict, path: tuple) -> None:
        for key, sub in (node.get("properties") or {}).items():
            if "$ref" in sub:  # a word list of its own (#/definitions/seat)
                sub = {**schema["definitions"][sub["$ref"].rsplit("/", 1)[-1]], **sub}
            forms = [sub] + [b for b in sub.get("anyOf", ()) if isinstance(b, dict)]
            values = [v for form in forms for v in form.get("enum", ()) if isinstance(v, str)]
            out.extend(f"{'.'.join(path + (key,))}={v}" for v in values)
            walk(sub, path + (key,))

    walk(schema, ())
    return [s for s in out if not s.startswith("kind=")]


def cases() -> list[tuple[str, tuple[str, ...]]]:
    """(variant spec, --set values) of every golden case, in a fixed order."""
    from bidcompiler.pipeline import shipped_house_rules, shipped_variants, variant_schema

    found: list[tuple[str, tuple[str, ...]]] = [(name, ()) for name in sorted(shipped_variants())]
    found += [(f"standard+{rule}", ()) for rule in sorted(shipped_house_rules())]
    found += [("standard", (s,)) for s in _enum_sets(variant_schema())]
    # The dealer after a redeal or an all-pass is said only where the hand can be thrown in.
    found += [("standard", ("auction.if_all_pass=redeal", f"auction.all_pass_dealer={v}")) for v in ("same", "next")]
    found += [("standard", ("auction.if_all_pass=dealer-bids-or-redeal", f"auction.redeal_dealer={v}"))
              for v in ("same", "next")]
    # kitty.show written out: when, in which contracts.
    found += [("standard", (f"kitty.show={{when: {when}{contracts}}}",))
              for when in ("never", "deal", "auction-end", "declaration")
              for contracts in ("", ", contracts: [suit]", ", contracts: [notrump]", ", contracts: [suit, notrump]")]
    return found


def case_name(spec: str, sets: tuple[str, ...]) -> str:
    """The golden file stem of a case (a --set becomes ``standard@path=value``)."""
    name = spec + "".join(f"@{s}" for s in sets)
    # A mapping written on the command line ({when: deal}) makes a plain file name: when=deal.
    return re.sub(r"[{}\[\] ]", "", name.replace(": ", "="))


def render(spec: str, sets: tuple[str, ...]) -> str:
    """:func:`_render`, with a shipped file's path on this machine written `variants/…` (a message
    may name one), so the golden files hold in any checkout."""
    from bidcompiler.resources import variants_dir

    return _render(spec, sets).replace(f"{variants_dir()}/", "variants/")


def _render(spec: str, sets: tuple[str, ...]) -> str:
    """The outputs of ``rules``, ``diff`` and ``diff --json`` (against standard) for one case, in one text.

    ``--set`` applies to both sides of ``diff``, so a case with a change diffs
    through the functions ``diff`` calls, printed as the command prints them.
    """
    import json

    from click.testing import CliRunner

    from bidcompiler.cli import cli
    from bidcompiler.errors import CompileError
    from bidcompiler.irdiff import diff
    from bidcompiler.pipeline import compile_variant

    def shown(args, result) -> str:
        return (f"$ bidwhist {' '.join(args)}\n[exit {result.exit_code}]\n{result.stdout}"
                + (f"[stderr]\n{result.stderr}" if result.stderr else ""))

    extra = [a for s in sets for a in ("--set", s)]
    parts = [shown(["rules", spec, *extra], CliRunner().invoke(cli, ["rules", spec, *extra]))]
    if not sets:
        for args in (["diff", "standard", spec], ["diff", "--json", "standard", spec]):
            parts.append(shown(args, CliRunner().invoke(cli, args)))
        return "\n".join(parts)
    try:
        found = diff(compile_variant("standard"), compile_variant(spec, sets=sets))
    except CompileError as exc:
        parts.append("[diff: does not compile]\n" + "\n".join(str(d) for d in exc.diagnostics) + "\n")
        return "\n".join(parts)
    text = "\n".join("\n".join(d.lines()) for d in found) if found else "no rule differences"
    parts.append(f"$ diff standard {spec} {' '.join(extra)}\n{text}\n")
    parts.append(json.dumps([d.as_json() for d in found], indent=2) + "\n")
    return "\n".join(parts)


def write(folder: Path) -> int:
    """Write every case's golden file into ``folder``; how many."""
    folder.mkdir(parents=True, exist_ok=True)
    count = 0
    for spec, sets in cases():
        (folder / f"{case_name(spec, sets)}.txt").write_text(render(spec, sets), encoding="utf-8")
        count += 1
    return count


if __name__ == "__main__":
    print(write(Path(sys.argv[1]) if len(sys.argv) > 1 else GOLDEN))
