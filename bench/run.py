"""make bench: cardgen's own figures, and the comparison with the hand-written reportlab floor
when the bench kit (../shared/bench) stands beside the clone.

Generates the workload (540 and 5,400 cards: the kit's gen_data.py when present, else
bench/workload.py), turns it into a cardgen game (bench/game + generated cards YAML), builds
it through the whole pipeline and prints cards/s, peak memory and PDF size; with the kit it
also times the floor (`floor_reportlab.py --font vera`) on the same data and prints the ratio.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
KIT = Path(os.environ.get("CARDGEN_BENCH_KIT") or HERE.parent.parent / "shared" / "bench")   # optional
WORK = HERE / "work"
PY = sys.executable


LIBRARIES = ("reportlab", "PIL", "click", "yaml", "jinja2", "markupsafe")    # what a card build may import


def library_dirs() -> list[str]:
    """The folders of the installed libraries a card build (and the floor) imports."""
    out = []
    for name in LIBRARIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            out += list(spec.submodule_search_locations)
    return out


def sh(*args: str) -> dict:
    env = {**os.environ, "CARDGEN_CACHE": "off"}
    out = subprocess.run([PY, str(HERE / "measure.py"), *args], capture_output=True, text=True, check=True,
                         env=env).stdout
    return json.loads(out)


def project(n: int) -> Path:
    proj = WORK / f"proj_{n}"
    if proj.exists():
        shutil.rmtree(proj)
    shutil.copytree(HERE / "game", proj)
    shutil.copy(WORK / "assets" / "icon.png", proj / "templates" / "bench" / "icon.png")
    cards = json.loads((WORK / "data" / f"cards_{n}.json").read_text())
    lines = ["defaults: {type: card}", "cards:"]
    for c in cards:
        lines.append("  - " + json.dumps({"id": str(c["id"]), "name": c["title"], "atk": c["atk"], "def": c["def"],
                                          "cost": c["cost"], "rules": c["rules"], "color": c["color"]}))
    (proj / "cards" / "bench").mkdir(parents=True)
    (proj / "cards" / "bench" / "cards.yaml").write_text("\n".join(lines) + "\n")
    return proj


def run(n: int, repeat: int) -> dict:
    proj = project(n)
    res = {}
    out_c = WORK / f"out_{n}"
    out_f = WORK / f"floor_{n}.pdf"
    # cardgen runs with CARDGEN_CACHE=off (see sh): every run builds from nothing, like the floor
    cmds = {"cardgen": [str(Path(PY).parent / "cardgen"), "--root", str(proj), "build", "bench", "--out", str(out_c)]}
    if KIT.is_dir():
        cmds["floor"] = [PY, str(KIT / "floor_reportlab.py"), "--cards", str(WORK / "data" / f"cards_{n}.json"),
                         "--icon", str(WORK / "assets" / "icon.png"), "--out", str(out_f), "--font", "vera",
                         "--n", str(n)]
    # one run of each tool first, untimed: what only the first process pays falls on neither side
    # (the files read back from disk after a minute unread, as this machine's kernel drops them;
    # the first cardgen run would also read reportlab and PIL for the floor that follows it)
    for cmd in cmds.values():
        sh(*cmd)
    # the tools take turns, run by run, so that a change in the machine's load falls on both
    taken: dict[str, list[dict]] = {name: [] for name in cmds}
    for _ in range(repeat):
        for name, cmd in cmds.items():
            taken[name].append(sh(*cmd))
    for name, cmd in cmds.items():
        runs = taken[name]
        if any(r["rc"] for r in runs):
            raise SystemExit(f"{name} failed: {' '.join(cmd)}")
        wall = statistics.median(r["wall"] for r in runs)
        pdf = out_c / "bench" / "cards.pdf" if name == "cardgen" else out_f
        res[name] = {"wall_s": round(wall, 3), "cpu_s": round(statistics.median(r["cpu"] for r in runs), 3),
                     "cards_per_s": round(n / wall, 1),
                     "peak_mib": round(max(r["peak_mib"] for r in runs), 1), "pdf_kib": round(pdf.stat().st_size / 1024)}
    if "floor" in res:
        # the ratios are the medians of each round's (cardgen's run and the floor's right after it):
        # a slow spell of the machine a few seconds long falls on both halves of a round, where the
        # ratio of the two medians took it whole when it fell on three of one tool's five runs
        for key, field in (("ratio", "wall"), ("cpu_ratio", "cpu")):
            pairs = sorted(c[field] / f[field] for c, f in zip(taken["cardgen"], taken["floor"]))
            res[key] = round(statistics.median(pairs), 2)
            res[key + "_range"] = [round(pairs[0], 2), round(pairs[-1], 2)]
        res["peak_ratio"] = round(res["cardgen"]["peak_mib"] / res["floor"]["peak_mib"], 2)
        res["pdf_ratio"] = round(res["cardgen"]["pdf_kib"] / res["floor"]["pdf_kib"], 3)
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="540,5400")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    WORK.mkdir(exist_ok=True)
    # byte-compile cardgen and the libraries both tools import, as installed packages are (pip
    # compiles on install; uv, which `make` installs with, does not, and under
    # PYTHONDONTWRITEBYTECODE every run would otherwise compile reportlab, PIL, click and PyYAML
    # from source again: ~0.1–0.2 s a process, paid by cardgen and the floor alike)
    subprocess.run([PY, "-m", "compileall", "-q", str(HERE.parent / "cardgen"), *library_dirs()], check=True,
                   stdout=subprocess.DEVNULL)
    gen = KIT / "gen_data.py" if KIT.is_dir() else HERE / "workload.py"
    subprocess.run([PY, str(gen), "--dir", str(WORK), *map(str, sizes)], check=True, stdout=subprocess.DEVNULL)
    if not KIT.is_dir():
        print(f"({KIT} absent: cardgen's own figures on bench/workload.py's cards, no floor comparison)")
    print(f"{'cards':>6} {'tool':<8} {'wall s':>8} {'CPU s':>7} {'cards/s':>9} {'peak MiB':>9} {'PDF KiB':>8}")
    results = {}
    for n in sizes:
        r = run(n, a.repeat if n <= 1000 else 3)
        results[n] = r
        for tool in ("cardgen", "floor"):
            if (t := r.get(tool)) is not None:
                print(f"{n:>6} {tool:<8} {t['wall_s']:>8.2f} {t['cpu_s']:>7.2f} {t['cards_per_s']:>9.1f} {t['peak_mib']:>9.1f} "
                      f"{t['pdf_kib']:>8}")
        if "ratio" in r:
            lo, hi = r["cpu_ratio_range"]
            print(f"{n:>6} ratio cardgen/floor wall time: ×{r['ratio']}, CPU time: ×{r['cpu_ratio']} "
                  f"(rounds ×{lo}–{hi}; CPU is the steadier figure on a loaded machine)")
            print(f"{n:>6} ratio cardgen/floor peak memory: ×{r['peak_ratio']} (goal ≤ ×1.5), "
                  f"PDF size: ×{r['pdf_ratio']} (goal ≤ ×1)")
    (WORK / "results.json").write_text(json.dumps(results, indent=2))
    subprocess.run([PY, str(HERE / "incremental.py")], check=True)
    if 540 in sizes:
        subprocess.run([PY, str(HERE / "export.py")], check=True)


if __name__ == "__main__":
    main()
