"""`cardgen export --to png` timed against rasterising the floor's PDF with pdftoppm at the same
DPI (part of `make bench`): cards per second per core, both as whole processes.

Uses the 540-card project and the floor PDF that bench/run.py leaves under bench/work; without
the floor's PDF (no bench kit beside the clone) it prints cardgen's own figure only.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WORK = HERE / "work"
PY = sys.executable
DPI = "300"


def timed(cmd: list[str]) -> float:
    out = subprocess.run([PY, str(HERE / "measure.py"), *cmd], capture_output=True, text=True, check=True,
                         env={**os.environ, "CARDGEN_CACHE": "off"}).stdout
    res = json.loads(out)
    if res["rc"]:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return res["wall"]


def main(n: int = 540) -> None:
    proj, floor_pdf = WORK / f"proj_{n}", WORK / f"floor_{n}.pdf"
    if not proj.is_dir():
        raise SystemExit("run bench/run.py first (it writes the bench project)")
    out = WORK / "export_png"
    shutil.rmtree(out, ignore_errors=True)
    cores = os.cpu_count() or 1
    wall = timed([str(Path(PY).parent / "cardgen"), "--root", str(proj), "export", "bench", "--to", "png",
                  "--dpi", DPI, "--out", str(out)])
    rows = {"cardgen export --to png": wall}
    if floor_pdf.is_file() and shutil.which("pdftoppm"):
        ras = WORK / "floor_png"
        shutil.rmtree(ras, ignore_errors=True)
        ras.mkdir()
        rows["pdftoppm of the floor's PDF"] = timed(["pdftoppm", "-r", DPI, "-png", str(floor_pdf), str(ras / "p")])
    print(f"{'export, ' + str(n) + ' cards at ' + DPI + ' DPI':<36} {'wall s':>8} {'cards/s/core':>13}")
    for name, w in rows.items():
        per_core = n / w / (cores if name.startswith("cardgen") else 1)
        print(f"{name:<36} {w:>8.2f} {per_core:>13.1f}")
    (WORK / "export.json").write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
