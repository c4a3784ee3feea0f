"""The fast loop, timed as whole processes (part of `make bench`): a full Boss Fight build from
nothing, a no-change rebuild of every game, and one card edited then rebuilt.

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


def timed(*args: str, cache: str = "on") -> float:
    env = {**os.environ, "CARDGEN_CACHE": cache}
    out = subprocess.run([PY, str(HERE / "measure.py"), CARDGEN, "--root", str(WORK), *args],
                         capture_output=True, text=True, check=True, env=env).stdout
    res = json.loads(out)
    if res["rc"]:
        raise SystemExit(f"cardgen {' '.join(args)} failed")
    return res["wall"]


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
    for k in range(3):
        old, new = (EDIT[1], EDIT[2]) if k % 2 == 0 else (EDIT[2], EDIT[1])
        text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
        edits.append(timed("build", "boss_fight", "--out", str(out)))
    rows["one-card edit, boss_fight rebuild"] = statistics.median(edits)
    full = rows["boss_fight full build, no cache"]
    print(f"{'fast loop':<36} {'wall s':>8} {'of full':>8}")
    for name, wall in rows.items():
        print(f"{name:<36} {wall:>8.2f} {wall / full:>7.0%}")
    (HERE / "work" / "incremental.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
