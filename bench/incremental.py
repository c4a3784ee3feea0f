"""The fast loop, timed as whole processes (part of `make bench`): a full Boss Fight build from
nothing, a no-change rebuild of every game, and one card edited then rebuilt; and when bench/run.py
made the 5,400-card bench project (bench/work/proj_5400), one of its cards renamed then rebuilt,
the result held byte for byte to a clean build's.

Works on a copy of the project's sources under bench/work/inc (the real sources are never
touched). Prints a table and writes bench/work/incremental.json.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
WORK = HERE / "work" / "inc"
PY = sys.executable
CARDGEN = str(Path(PY).parent / "cardgen")
EDIT = ("cards/boss_fight/actions.yaml", "Slowly. Inevitably.", "Slowly. Surely.")


CPU: dict[str, float] = {}       # a row's CPU seconds (user + system), the median as for wall


def timed(*args: str, cache: str = "on", root: Path = WORK, cpu: list[float] | None = None) -> float:
    """The command's wall seconds (its CPU seconds added to ``cpu``)."""
    env = {**os.environ, "CARDGEN_CACHE": cache}
    out = subprocess.run([PY, str(HERE / "measure.py"), CARDGEN, "--root", str(root), *args],
                         capture_output=True, text=True, check=True, env=env).stdout
    res = json.loads(out)
    if res["rc"]:
        raise SystemExit(f"cardgen {' '.join(args)} failed")
    if cpu is not None:
        cpu.append(res["cpu"])
    return res["wall"]


DECK = HERE / "work" / "proj_5400"


def deck_edit() -> float:
    """The 5,400-card bench deck built with the cache, then its first card renamed three times
    (a name never built before), each rebuilt: the median; the last build's cards.pdf and
    cards.json must be a clean build's, byte for byte."""
    deck = WORK / "deck"
    shutil.copytree(DECK, deck)
    out, clean = WORK / "deck_build", WORK / "deck_clean"
    timed("build", "bench", "--out", str(out), root=deck)
    path = deck / "cards" / "bench" / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    name = text.split('"name": "', 1)[1].split('"', 1)[0]
    edits: list[float] = []
    cpu: list[float] = []
    for k in range(3):
        text = text.replace(f'"name": "{name}"', f'"name": "{name} v{k}"', 1)
        name = f"{name} v{k}"
        path.write_text(text, encoding="utf-8")
        edits.append(timed("build", "bench", "--out", str(out), root=deck, cpu=cpu))
    CPU["one-card edit, 5,400-card deck"] = statistics.median(cpu)
    timed("build", "bench", "--out", str(clean), root=deck, cache="off")
    for f in ("cards.pdf", "cards.json"):
        if (out / "bench" / f).read_bytes() != (clean / "bench" / f).read_bytes():
            raise SystemExit(f"the 5,400-card deck's {f} built after an edit differs from a clean build's")
    return statistics.median(edits)


def main() -> None:
    if WORK.exists():
        shutil.rmtree(WORK)
    for part in ("rules", "cards", "templates", "maps"):
        shutil.copytree(ROOT / part, WORK / part)
    out = WORK / "build"
    rows = {}
    rows["boss_fight full build, no cache"] = timed("build", "boss_fight", "--out", str(WORK / "clean"), cache="off")
    timed("build", "--out", str(out))                     # fills the cache for every game
    rows["no-change rebuild, all games"] = statistics.median(timed("build", "--out", str(out)) for _ in range(3))
    path = WORK / EDIT[0]
    text = path.read_text(encoding="utf-8")
    edits = []
    cpu: list[float] = []
    for k in range(3):
        old, new = (EDIT[1], EDIT[2]) if k % 2 == 0 else (EDIT[2], EDIT[1])
        text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
        edits.append(timed("build", "boss_fight", "--out", str(out), cpu=cpu))
    CPU["one-card edit, boss_fight rebuild"] = statistics.median(cpu)
    rows["one-card edit, boss_fight rebuild"] = statistics.median(edits)
    if DECK.is_dir():
        rows["one-card edit, 5,400-card deck"] = deck_edit()
    full = rows["boss_fight full build, no cache"]
    print(f"{'fast loop':<36} {'wall s':>8} {'of full':>8} {'CPU s':>8}")
    for name, wall in rows.items():
        cpu = f"{CPU[name]:>8.2f}" if name in CPU else ""
        print(f"{name:<36} {wall:>8.2f} {wall / full:>7.0%} {cpu}")
    (HERE / "work" / "incremental.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
