"""``cardgen serve``: the preview model (rebuilds only what changed, problems beside their card)
and the real thing — the server on a free port in a temp copy of a game, a headless
Chromium showing the page, a card file edited, the open page refreshed by itself."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from PIL import Image as PILImage

from cardgen.serve.page import page
from cardgen.serve.preview import Preview
from tests.conftest import run_cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, timeout: float = 5.0) -> bytes:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return r.read()


def until(fn, seconds: float, what: str):
    """Poll ``fn`` until it returns something true (bounded)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            v = fn()
        except OSError:
            v = None
        if v:
            return v
        time.sleep(0.05)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def test_rebuild_lays_out_only_the_edited_card(game_copy):
    g = game_copy("loot_battles")
    pv = Preview(g.root, "loot_battles")
    first = pv.rebuild()
    sword = next(e for e in first.entries if e.id == "sword_bronze")
    assert first.laid_out > 0 and not first.general and not sword.problems
    assert pv.image(sword.faces["front"].key, 60)[:8] == b"\x89PNG\r\n\x1a\n"
    g.edit("cards/loot_battles/loot.yaml", "name: Bronze Sword", "name: Rusty Sword")
    second = pv.rebuild()
    assert second.version == first.version + 2      # the cards, then the slow checks
    assert second.laid_out == 2            # the sword (its two sides); every other card from the cache
    new = next(e for e in second.entries if e.id == "sword_bronze")
    assert new.name == "Rusty Sword" and new.faces["front"].key != sword.faces["front"].key
    others = {e.id: e.faces["front"].key for e in second.entries if e.id != "sword_bronze"}
    assert others == {e.id: e.faces["front"].key for e in first.entries if e.id != "sword_bronze"}


def test_a_problem_shows_beside_its_card_instead_of_the_image(game_copy):
    g = game_copy("loot_battles")
    line = g.edit("cards/loot_battles/loot.yaml", "copies: 3, damage: 4,", "copies: 3, damage: lots,")
    snap = Preview(g.root, "loot_battles").rebuild()
    broken = [e for e in snap.entries if e.broken]
    assert [e.id for e in broken] == ["sword_iron"]
    p = broken[0].problems[0]
    assert p.rule == "LB-CARD-4" and p.loc.line == line and p.loc.file.endswith("loot.yaml")
    html = page(snap)
    assert "LB-CARD-4" in html and "Iron Sword: not drawn" in html
    assert not any(e.problems for e in snap.entries if e.id != "sword_iron")


@pytest.mark.skipif(CHROMIUM is None, reason="needs Debian's chromium (make tools)")
def test_the_open_page_shows_an_edited_card(game_copy, tmp_path):
    g = game_copy("loot_battles")
    port, dport = free_port(), free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "cardgen.cli", "--root", str(g.root), "serve", "loot_battles",
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    browser = None
    try:
        until(lambda: json.loads(get(base + "/state.json"))["version"] >= 1, 60, "the server")
        browser = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                                    f"--remote-debugging-port={dport}", base + "/"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        def title() -> str | None:
            pages = [t for t in json.loads(get(f"http://127.0.0.1:{dport}/json/list")) if t.get("type") == "page"]
            return pages[0]["title"] if pages and "cardgen preview" in pages[0]["title"] else None
        until(title, 30, "the page in Chromium")
        time.sleep(0.5)                                   # its event stream is open
        g.edit("cards/loot_battles/loot.yaml", "name: Bronze Sword", "name: Rusty Sword")
        started = time.monotonic()
        shown = until(lambda: (t := title()) and "Rusty Sword updated" in t and t, 20, "the refreshed page")
        seconds = time.monotonic() - started
        print(f"edit → refreshed page in Chromium: {seconds:.2f} s ({shown})")
        state = json.loads(get(base + "/state.json"))
        sword = next(c for c in state["cards"] if c["id"] == "sword_bronze")
        assert sword["name"] == "Rusty Sword"
        assert get(f"{base}/face/{sword['faces']['front']}.png?dpi=100")[:4] == b"\x89PNG"
        assert "tokens" in state["printables"] and get(base + "/printable/tokens", 60)[:5] == b"%PDF-"
        dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'dump'}", "--dump-dom",
                              base + "/"], capture_output=True, text=True, timeout=60).stdout
        assert "Rusty Sword" in dom and "Bronze Sword" not in dom
        # one card large (what a click shows; a link to it opens the same view): its source file:line
        dom = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'large'}", "--dump-dom",
                              base + "/#card=sword_bronze"], capture_output=True, text=True, timeout=60).stdout
        meta = dom[dom.index('id="meta"'):]
        assert '<div id="large" class="on">' in dom and "<h2>Rusty Sword</h2>" in meta
        assert f"{g.root}/cards/loot_battles/loot.yaml:" in meta and f'/face/{sword["faces"]["front"]}.png' in dom
        shot = tmp_path / "preview.png"
        subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'shot'}", f"--screenshot={shot}",
                        "--window-size=1300,900", base + "/"],
                       capture_output=True, timeout=60)
        assert shot.is_file() and shot.stat().st_size > 10_000
        keep = Path("/tmp") / "cardgen-serve-preview.png"
        shutil.copyfile(shot, keep)                       # to look at after the run
    finally:
        for p in (browser, server):
            if p is not None:
                p.terminate()
                try:
                    p.wait(10)
                except subprocess.TimeoutExpired:
                    p.kill()


def test_a_card_that_fails_to_load_keeps_its_place_and_is_not_echoed_by_the_rulebook(game_copy):
    g = game_copy("loot_battles")
    line = g.edit("cards/loot_battles/classes.yaml", "    health: 10", "    health: lots")
    snap = Preview(g.root, "loot_battles").rebuild()
    assert not snap.checking
    first = snap.entries[0]
    assert first.id == "class_melee" and first.broken
    assert [(p.rule, p.loc.line) for p in first.problems] == [("LB-CARD-1", line)]
    assert not [p for p in snap.general if p.rule.startswith("RULEBOOK")], snap.general


def test_a_rebuild_that_fails_is_said_on_the_page_and_the_next_save_tries_again(game_copy, monkeypatch):
    g = game_copy("loot_battles")
    pv = Preview(g.root, "loot_battles")
    before = pv.rebuild()
    snap = pv.failed(RuntimeError("boom"))
    assert snap.general[0].rule == "SERVE-INTERNAL" and "boom" in snap.general[0].message
    assert "SERVE-INTERNAL" in page(snap) and snap.entries == before.entries      # the last cards stay
    assert not pv.rebuild().general


def test_only_the_games_own_sources_concern_its_preview(tmp_path):
    pv = Preview(tmp_path, "loot_battles")
    assert pv.concerns(tmp_path / "cards/loot_battles/loot.yaml")
    assert pv.concerns(tmp_path / "art/loot_battles/new/rat.png")     # a folder made while it runs
    assert not pv.concerns(tmp_path / "cards/boss_fight/heroes.yaml")
    assert not pv.concerns(tmp_path / "build/loot_battles/cards.pdf")
    assert not pv.concerns("/elsewhere/cards/loot_battles/x.yaml")


def test_a_replaced_picture_is_a_new_image(game_copy):
    g = game_copy("loot_battles")
    pic = g.root / "art/loot_battles/beast.png"
    PILImage.new("RGB", (1000, 500), "#8b4513").save(pic)
    g.edit("cards/loot_battles/enemies.yaml", "- {id: lankies, name: Lanky,", "- {id: lankies, art: beast.png, name: Lanky,")
    pv = Preview(g.root, "loot_battles")
    key = next(e for e in pv.rebuild().entries if e.id == "lankies").faces["front"].key
    before = pv.image(key, 40)
    PILImage.new("RGB", (1000, 500), "#2f6b55").save(pic)               # the same size, another picture
    new = next(e for e in pv.rebuild().entries if e.id == "lankies").faces["front"].key
    assert new != key and pv.image(new, 40) != before


def test_a_port_in_use_is_a_usage_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        code, _ = run_cli("serve", "loot_battles", "--port", str(s.getsockname()[1]))
    assert code == 2


def asgi_get(app, path: str, host: str | None) -> tuple[int, bytes]:
    """One GET straight through the ASGI app (no lifespan, no socket): status and body."""
    import asyncio
    headers = [(b"host", host.encode("latin-1"))] if host is not None else []
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "", "headers": headers,
             "client": ("127.0.0.1", 50000), "server": ("127.0.0.1", 8000)}
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)
    asyncio.run(app(scope, receive, send))
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.mark.parametrize("host, status", [
    ("127.0.0.1:8000", 200), ("localhost:8000", 200), ("LOCALHOST", 200), ("[::1]:8000", 200), ("[::1]", 200),
    ("evil.example:8000", 421), ("evil.example", 421), ("127.0.0.1.evil.example", 421), ("localhost.", 421),
    ("[::1]evil", 421), ("0.0.0.0:8000", 421), ("", 421), (None, 400),
])
def test_only_requests_addressed_to_this_machine_are_answered(tmp_path, host, status):
    """DNS rebinding: a page elsewhere whose domain now points at 127.0.0.1 sends its own name as
    Host; the server answers only 127.0.0.1, localhost and [::1] (any port), never a card."""
    from cardgen.serve.app import make_app
    app = make_app(Preview(tmp_path, "loot_battles", out=tmp_path / "build"), watch=False)
    for path in ("/state.json", "/", "/cards"):
        got, body = asgi_get(app, path, host)
        if status == 200:
            assert got == 200, (path, body[:200])
        else:
            assert got == status and b"127.0.0.1" in body and b"loot_battles" not in body, (path, body[:200])
    if status == 200:
        assert json.loads(asgi_get(app, "/state.json", host)[1])["version"] == 0


def test_a_source_folder_linked_out_of_the_project_is_not_watched(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "proj"
    (root / "rules").mkdir(parents=True)
    (root / "templates").mkdir()
    (root / "cards").symlink_to(outside, target_is_directory=True)
    assert Preview(root.resolve(), "x", out=tmp_path / "b").watched() == [root.resolve() / "rules",
                                                                         root.resolve() / "templates"]
