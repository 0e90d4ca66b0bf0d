"""A hostile tester's driver for ``bidwhist play`` driven through a pipe, and for its saves.

Run it by hand (not part of the suite), under nice::

    nice python bench/hostile_play.py [--cases N] [--seed S]

Each case starts ``bidwhist play`` on a random shipped variant with a save, types a
random mix of good moves (numbers from the list), garbage, very long lines, control
characters and escape sequences, then ends it one way: end of input at that prompt,
or SIGINT (Ctrl-C), SIGTERM or SIGHUP after a random delay.  Then it checks:

- the run ended 0, 1 or 2 (or by the signal's own status 130/143/129), with no
  traceback nor internal error, and no raw escape character from the typed lines
  reached stdout or stderr (the program's own colours are off: output is a pipe);
- the save resumes: ``play --resume`` at end of input ends 0, and ``replay`` of the
  save ends 0 (a game in progress is never lost);
- a damaged copy of the save (truncated, bytes flipped, lines swapped, a hostile
  field) is refused by ``--resume`` with one message and status 1 (or resumes, if the
  damage happens to leave a legal save) and never a traceback; the original save is
  not touched by that refusal.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPT = str(Path(sys.executable).parent / "bidwhist")
VARIANTS = ["standard", "cincinnati", "northeast52", "hawaii", "cutthroat", "two-handed",
            "standard+sport-kitty", "standard+renege-penalty", "oregon"]
MARK = "ZQX"  # typed inside every hostile line, to see whether an escape is echoed raw


def hostile_line(rng: random.Random) -> str:
    """One line a careless or hostile user might type."""
    return rng.choice([
        "1", "1", "1", "2", "help", "hint", "", " ", "0", "-1", "99999999999999999999",
        "x" * rng.choice([100, 5000, 70000]), f"\x1b[2J{MARK}", f"\x1b]0;{MARK}\x07", f"\x00{MARK}",
        f"\x08\x08{MARK}", f"\u202e{MARK}", "\x03", "\x04", "quit", "pass", "4 uptown", "AS", "as",
        "\ufeff1", "\uff11", "\u0661", "1e3", "nan", "1;2", "1 2", "\t1\t", "undo", "claim",
    ])


def raw_escape(text: str) -> bool:
    """Whether an escape or bell typed by the driver came back raw."""
    return any(c + MARK in text or c + "]0;" + MARK in text for c in ("\x1b", "\x00", "\x08", "\u202e"))


def play_once(rng: random.Random, box: Path) -> list[str]:
    """One case; the findings (empty when everything held)."""
    save = box / "save.jsonl"
    variant = rng.choice(VARIANTS)
    argv = [SCRIPT, "play", variant, "--seed", str(rng.randrange(10 ** 6)), "--fast", "--save", str(save)]
    if rng.random() < 0.3:
        argv += ["--open"]
    lines = [hostile_line(rng) for _ in range(rng.randrange(0, 120))]
    stdin = ("\n".join(lines) + ("\n" if rng.random() < 0.8 else "")).encode("utf-8", "surrogatepass")
    ending = rng.choice(["eof", "eof", signal.SIGINT, signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
    findings = []
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "BIDWHIST_FAST": "1"})
    if ending == "eof":
        out, err = proc.communicate(stdin, timeout=300)
    else:
        assert proc.stdin is not None
        try:
            proc.stdin.write(stdin)
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(rng.uniform(0.0, 2.5))
        proc.send_signal(ending)
        out, err = proc.communicate(timeout=300)
    text = out.decode("utf-8", "replace") + err.decode("utf-8", "replace")
    allowed = {0, 1, 2, 130, 143, 129, -2, -15, -1}
    if proc.returncode not in allowed:
        findings.append(f"play ended {proc.returncode} ({ending})")
    if "Traceback" in text or "internal error" in text:
        findings.append(f"traceback ({ending}): {text[-400:]}")
    if raw_escape(text):
        findings.append("a typed escape came back raw")
    if save.exists() and save.stat().st_size:
        findings += resume_checks(rng, box, save, ending)
    elif proc.returncode == 0 and ending == "eof" and "Saved" in text:
        findings.append("said Saved but there is no save")
    return [f"{variant} {ending}: {f}" for f in findings]


def resume_checks(rng: random.Random, box: Path, save: Path, ending) -> list[str]:
    """The save resumes and replays; damaged copies are refused cleanly."""
    findings = []
    # A lock left by a killed run is taken over by --resume: it must end 0 all the same.
    r = subprocess.run([SCRIPT, "play", "--resume", str(save), "--fast"], input=b"", capture_output=True,
                       timeout=300)
    if r.returncode != 0 or b"Traceback" in r.stderr:
        findings.append(f"resume after {ending} ended {r.returncode}: {r.stderr.decode()[-300:]}")
    r = subprocess.run([SCRIPT, "replay", str(save)], capture_output=True, timeout=300)
    if r.returncode != 0:
        findings.append(f"replay of the save ended {r.returncode}: {r.stderr.decode()[-300:]}")
    findings += damaged_copies(rng, box, save)
    return findings


def damage(rng: random.Random, data: bytes) -> bytes:
    """One random damage to a save's bytes."""
    how = rng.randrange(8)
    if how == 0:
        return data[: rng.randrange(len(data) + 1)]
    if how == 1:
        b = bytearray(data)
        for _ in range(rng.randrange(1, 6)):
            b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b)
    lines = data.split(b"\n")
    if how == 2:
        rng.shuffle(lines)
        return b"\n".join(lines)
    if how == 3:
        return b"\xef\xbb\xbf" + data.replace(b"\n", b"\r\n")
    if how == 4:
        return (data.replace(b'"standard"', b'"../../../../etc/passwd"')
                .replace(b'"with": []', b'"with": ["/etc/passwd"]'))
    if how == 5:
        return data.replace(b"1", b"1e308", 3).replace(b"0", b"NaN", 2)
    if how == 6:
        return data + b"[" * 100_000
    duplicated = (line[:-1] + b', "format": 1}' if line.endswith(b"}") else line for line in lines)
    return b"\n".join(duplicated)  # a duplicate key: the last one wins in json, which must not matter


def damaged_copies(rng: random.Random, box: Path, save: Path) -> list[str]:
    """Resume three damaged copies (with their sessions); each ends 0, 1 or 2 with one message."""
    findings = []
    session = Path(str(save) + ".session.json")
    for _ in range(3):
        copy = box / "copy" / "save.jsonl"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(damage(rng, save.read_bytes()))
        if session.exists():
            target = Path(str(copy) + ".session.json")
            data = session.read_bytes()
            target.write_bytes(damage(rng, data) if rng.random() < 0.5 else data)
        r = subprocess.run([SCRIPT, "play", "--resume", str(copy), "--fast"], input=b"", capture_output=True,
                           timeout=300)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode not in (0, 1, 2) or "Traceback" in err or "internal error" in err:
            findings.append(f"damaged resume ended {r.returncode}: {err[-400:]}")
        if r.returncode != 0 and not err.strip():
            findings.append("damaged resume failed silently")
        if "root:x:0" in err + r.stdout.decode("utf-8", "replace"):
            findings.append("damaged resume quoted /etc/passwd")
        shutil.rmtree(copy.parent)
    return findings


def main() -> int:
    """Run the cases; print each finding and a count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    found = 0
    for n in range(args.cases):
        box = Path(tempfile.mkdtemp(prefix="hostile-play-"))
        try:
            for f in play_once(rng, box):
                found += 1
                print(json.dumps({"case": n, "finding": f}), flush=True)
        finally:
            shutil.rmtree(box, ignore_errors=True)
    print(json.dumps({"cases": args.cases, "findings": found}))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
