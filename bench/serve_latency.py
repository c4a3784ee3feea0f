"""The live preview's edit → new image latency: `cardgen serve` on a temp copy of a game, one
card's name edited N times; each time, the wall-clock from the file written to the edited card's
new front PNG in hand (what a page does after the server's event: state, then the image).

    .venv/bin/python bench/serve_latency.py [GAME] [--times 10]
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("game", nargs="?", default="loot_battles")
    ap.add_argument("--times", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for part in ("rules", "cards", "templates", "maps", "art"):
            if (ROOT / part / a.game).exists():
                shutil.copytree(ROOT / part / a.game, Path(tmp) / part / a.game)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--root", tmp, "serve", a.game,
                                   "--port", str(port)], stderr=subprocess.DEVNULL)
        try:
            while True:
                try:
                    state = json.loads(get(base + "/state.json"))
                    if not state["checking"]:
                        break
                except OSError:
                    pass
                time.sleep(0.1)
            card = state["cards"][0]
            path = Path(card["file"])
            times = []
            name = card["name"]
            for k in range(a.times):
                new = f"{card['name']} {k}"
                path.write_text(path.read_text(encoding="utf-8").replace(f"name: {name}", f"name: {new}", 1),
                                encoding="utf-8")
                started = time.monotonic()
                while True:
                    state = json.loads(get(base + "/state.json"))
                    c = next(c for c in state["cards"] if c["id"] == card["id"])
                    if c["name"] == new:
                        break
                    time.sleep(0.005)
                get(f"{base}/face/{c['faces']['front']}.png?dpi=100")
                times.append(time.monotonic() - started)
                name = new
                time.sleep(2.5)        # the slow checks settle, like a designer between saves
            print(f"{a.game}: edit → new image, {a.times} edits: median {statistics.median(times) * 1000:.0f} ms, "
                  f"max {max(times) * 1000:.0f} ms")
        finally:
            server.terminate()
            server.wait(10)


if __name__ == "__main__":
    main()
