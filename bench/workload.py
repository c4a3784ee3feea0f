"""The benchmark's own workload, used when ../shared/bench is absent: N distinct card
definitions (title, three stats, a 40-word rules paragraph, a frame colour) and a 64 × 64
icon, deterministic for a given N. Writes DIR/data/cards_<N>.json and DIR/assets/icon.png,
the layout bench/run.py reads.

Usage: python bench/workload.py --dir DIR 540 5400
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from PIL import Image, ImageDraw

WORDS = ("each target player card deck hand draw discard reveal choose gain lose life token attack "
         "defend block until end of turn your opponent may must when this enters leaves play return "
         "top bottom shuffle counter damage deal two three one four any other all tap copy cost less "
         "more instead if then only once during combat step phase").split()
ADJ = "Ancient Burning Silent Crimson Hollow Iron Verdant Frozen Gilded Shadow".split()
NOUN = "Warden Oracle Golem Serpent Knight Drake Sentinel Wisp Colossus Bard".split()
PALETTE = ["#8b1e3f", "#1e5a8b", "#2e7d32", "#b8860b", "#5e35b1", "#00838f", "#6d4c41", "#37474f"]


def cards(n: int, seed: int = 540) -> list[dict]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(40)]
        out.append({"id": i + 1, "title": f"{rng.choice(ADJ)} {rng.choice(NOUN)} {i + 1}",
                    "atk": rng.randint(0, 12), "def": rng.randint(0, 12), "cost": rng.randint(0, 9),
                    "rules": " ".join(words).capitalize() + ".", "color": PALETTE[i % len(PALETTE)]})
    return out


def icon(path: Path) -> None:
    im = Image.new("RGBA", (64, 64), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.ellipse((2, 2, 61, 61), fill=(250, 200, 40, 255), outline=(120, 60, 0, 255), width=3)
    d.polygon([(32, 8), (38, 26), (57, 26), (42, 37), (48, 56), (32, 44), (16, 56), (22, 37), (7, 26), (26, 26)],
              fill=(200, 40, 40, 255))
    im.save(path, optimize=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("sizes", nargs="*", type=int, default=[540, 5400])
    a = ap.parse_args()
    (a.dir / "data").mkdir(parents=True, exist_ok=True)
    (a.dir / "assets").mkdir(parents=True, exist_ok=True)
    icon(a.dir / "assets" / "icon.png")
    for n in a.sizes:
        (a.dir / "data" / f"cards_{n}.json").write_text(json.dumps(cards(n)), encoding="utf-8")


if __name__ == "__main__":
    main()
