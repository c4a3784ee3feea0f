"""Boards: hex maps, the rink, play mats and token sheets — geometry read back from the PDFs,
content rules with file:line, and every printable through qpdf."""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pdfplumber
import pytest
import yaml

from cardgen import gamehooks
from cardgen.boards import maps as bmaps
from cardgen.boards import matfile, tiling
from cardgen.boards import mats as bmats
from cardgen.boards import zoneboard as brink
from cardgen.boards.common import board_files
from cardgen.content.loader import load_game
from cardgen.core import hexgrid as hg
from cardgen.core.problems import Problems
from cardgen.games.boss_fight.placement import boss_starts, hero_starts
from cardgen.scene import children
from tests.conftest import ROOT, GameCopy, has_problem, pdf_pages, qpdf_check

MM = 72 / 25.4
TOL = 0.1
BOARD_KINDS = ("maps", "board", "mats", "tokens")


def _printables(slug: str) -> list[str]:
    return list(yaml.safe_load((ROOT / "rules" / slug / "game.yaml").read_text(encoding="utf-8"))["printables"])


# every game of the project and the boards it prints
PRINTABLES = {slug: [p for p in _printables(slug) if p in BOARD_KINDS]
              for slug in sorted(p.parent.name for p in ROOT.glob("rules/*/game.yaml"))}
PRINTABLES = {slug: kinds for slug, kinds in PRINTABLES.items() if kinds}


def build(gc: GameCopy, *flags: str) -> tuple[int, list[dict], Path]:
    return gc.build(*flags)


def copy(tmp_path: Path, slug: str, printables: list[str] | None = None) -> GameCopy:
    return GameCopy(tmp_path, slug).only(*(printables or PRINTABLES[slug]))


@pytest.fixture(scope="module")
def built(full_build) -> dict[str, Path]:
    """Every game's boards as the session's build made them from the project's own content (the
    legal twins)."""
    out = {}
    for slug, folder in full_build.games(list(PRINTABLES)).items():
        problems = full_build.problems(slug)
        assert full_build.code(slug) == 0, problems
        assert not [p for p in problems if "maps/" in str(p["file"])], problems     # the boards' own files
        out[slug] = folder
    return out


def game(slug: str, root: Path = ROOT):
    g = load_game(root, slug, Problems())
    assert g is not None
    return g


def fonts(g) -> dict[str, str]:
    from cardgen.boards.common import fonts_of
    return fonts_of(g)


# --------------------------------------------------------------------------- every printable


def test_every_printable_is_written_and_passes_qpdf(built):
    expected = {
        "boss_fight": ["maps/arena.pdf", "maps/arena.svg", "maps/pillars.pdf", "maps/catacombs.pdf",
                       "maps/keep.pdf", "maps/keep.svg", "mats.pdf", "tokens.pdf"],
        "bones_on_ice": ["board.pdf", "tokens.pdf"],
        "dino_battles": ["mats.pdf", "tokens.pdf"],
        "loot_battles": ["tokens.pdf"],
        "bone_wars": ["tokens.pdf"],
    }
    assert set(expected) == set(PRINTABLES)
    for slug, files in expected.items():
        for f in files:
            assert (built[slug] / f).is_file(), (slug, f)
        boards = [p for p in built[slug].rglob("*.pdf") if p.name in ("board.pdf", "mats.pdf", "tokens.pdf")
                  or p.relative_to(built[slug]).parts[0] == "maps"]
        for pdf in boards:
            qpdf_check(pdf)


# --------------------------------------------------------------------------- hex maps: true scale


def _hexes(page, lo=20.0, hi=30.0):
    """Filled six-sided polygons between lo and hi mm wide: (x0, top, width, height, points) in mm."""
    out = []
    for c in page.curves:
        pts = c["pts"]
        if len(pts) == 7 and c.get("fill") and lo < c["width"] / MM < hi:
            out.append((c["x0"] / MM, c["top"] / MM, c["width"] / MM, c["height"] / MM,
                        [(x / MM, y / MM) for x, y in pts]))
    return out


@pytest.mark.parametrize("key", ["arena", "catacombs", "keep", "pillars"])
def test_hexes_measure_25mm_across_flats_on_every_tile(built, key):
    m = _map(key)
    assert m.size == 25.0
    with pdfplumber.open(built["boss_fight"] / "maps" / f"{key}.pdf") as pdf:
        found = 0
        for page in pdf.pages[1:]:
            for _x, _y, w, h, _pts in _hexes(page):
                assert w == pytest.approx(25.0, abs=TOL)                 # pointy top: flats left and right
                assert h == pytest.approx(2 * 25.0 / 3 ** 0.5, abs=TOL)  # corner to corner
                found += 1
        assert found >= len(m.tiles)                                     # every hex, some twice at the seams


def test_flat_top_map_without_labels_and_other_hex_size(tmp_path):
    """A flat-top map at 30 mm, without labels or legend: flats top and bottom, 30 mm apart."""
    gc = pillars_only(tmp_path)
    gc.edit(PILLARS, "orientation: pointy", "orientation: flat")
    gc.edit(PILLARS, "hex_size: 25mm", "hex_size: 30mm\n  labels: false\n  legend: false")
    code, problems, out = build(gc)
    assert code == 0, problems
    with pdfplumber.open(out / "maps" / "pillars.pdf") as pdf:
        found = 0
        for page in pdf.pages[1:]:
            text = page.extract_text()
            assert not re.search(r"\b\d+,\d+\b", text) and "Legend" not in text
            for _x, _y, w, h, _pts in _hexes(page, 30.0, 40.0):
                assert (w, h) == (pytest.approx(2 * 30.0 / 3 ** 0.5, abs=TOL), pytest.approx(30.0, abs=TOL))
                found += 1
        assert found >= 13 * 9
    qpdf_check(out / "maps" / "pillars.pdf")


def test_svg_is_true_scale(built):
    root = ET.parse(built["boss_fight"] / "maps" / "pillars.svg").getroot()
    assert root.get("width").endswith("mm")
    vb = [float(v) for v in root.get("viewBox").split()]
    assert float(root.get("width")[:-2]) == pytest.approx(vb[2])
    widths = []
    for el in root.iter("{http://www.w3.org/2000/svg}polygon"):
        pts = [tuple(map(float, p.split(","))) for p in el.get("points").split()]
        xs = [x for x, _ in pts]
        if len(pts) == 6 and max(xs) - min(xs) > 20 and el.get("fill") != "none":
            widths.append(max(xs) - min(xs))
    assert len(widths) >= 13 * 9
    assert all(w == pytest.approx(25.0, abs=0.01) for w in widths)


def test_assembly_page_has_calibration_bar_and_print_at_100(built):
    with pdfplumber.open(built["boss_fight"] / "maps" / "keep.pdf") as pdf:
        first = pdf.pages[0]
        text = first.extract_text()
        assert "PRINT AT 100 %" in text and "100 mm" in text
        bars = [r for r in first.rects if abs(r["width"] / MM - 100) < TOL and abs(r["height"] / MM - 4) < TOL]
        assert bars, "a 100 mm calibration bar"
        # a tile ID and the mini-map on every tile page
        assert len(pdf.pages) == 1 + 4 * 2
        assert (_tile_id(pdf.pages[1]), _tile_id(pdf.pages[-1])) == ("A1", "D2")


def test_every_tile_has_its_id_and_a_mini_map_of_its_place(built):
    """The Sunken Keep, 4 × 2 sheets: tile pages A1, B1 … D2 in order, each with a mini-map of the
    whole board where its own window (and only it) is filled, at its place."""
    g = game("boss_fight")
    board, t = tiling.fit(bmaps.scene(_map("keep"), fonts(g)), 210, 297)
    with pdfplumber.open(built["boss_fight"] / "maps" / "keep.pdf") as pdf:
        pages = pdf.pages[1:]
        assert [_tile_id(p) for p in pages] == [tile.id for tile in t.tiles]
        for page, tile in zip(pages, t.tiles, strict=True):
            def grey(r, level):
                c = r.get("non_stroking_color") or ()
                return r.get("fill") and len(c) >= 3 and all(abs(v - level) < 0.01 for v in c[:3])
            frame = next(r for r in page.rects if grey(r, 1.0) and r.get("stroke") and r["top"] / MM < 40)
            mine = [r for r in page.rects if grey(r, 0x55 / 255) and r["top"] / MM < 40]
            assert len(mine) == 1, tile.id
            k = frame["width"] / board.w
            assert frame["height"] / board.h == pytest.approx(k, rel=0.01)
            assert ((mine[0]["x0"] - frame["x0"]) / k, (mine[0]["top"] - frame["top"]) / k) == (
                pytest.approx(tile.x0, abs=1.0), pytest.approx(tile.y0, abs=1.0))


def _tile_id(page) -> str:
    """The tile ID printed big in the header."""
    words = page.extract_words(extra_attrs=["size"])
    return max(words, key=lambda w: w["size"])["text"]


def _glue(page):
    return [r for r in page.rects if r.get("fill") and
            all(abs(v - 0xd4 / 255) < 0.01 for v in (r["non_stroking_color"] or (0, 0, 0))[:3])]


def _crosshair_xs(page):
    """x of every registration crosshair's vertical stroke (10 mm long)."""
    return sorted({round(ln["x0"] / MM, 2) for ln in page.lines
                   if abs(ln["x0"] - ln["x1"]) < 1e-6 and abs(ln["height"] / MM - 10) < 0.05})


def test_tiles_overlap_by_the_glue_strip_and_crosshairs_register(built):
    with pdfplumber.open(built["boss_fight"] / "maps" / "arena.pdf") as pdf:
        a1, b1 = pdf.pages[1], pdf.pages[2]
        assert (_tile_id(a1), _tile_id(b1)) == ("A1", "B1")
        strip = [r for r in _glue(a1) if r["height"] > r["width"]]
        assert len(strip) == 1
        w = strip[0]["width"] / MM
        assert tiling.OVERLAP_RANGE[0] <= w <= tiling.OVERLAP_RANGE[1]
        assert w == pytest.approx(tiling.OVERLAP, abs=TOL)
        seam_a = strip[0]["x0"] / MM
        assert any(abs(x - seam_a) < TOL for x in _crosshair_xs(a1))     # centred on the cut line
        frame_b = min(r["x0"] / MM for r in b1.rects if r.get("stroke") and not r.get("fill") and r["height"] / MM > 100)
        assert any(abs(x - frame_b) < TOL for x in _crosshair_xs(b1))
        # the same hexes, at the same place relative to the cut line, on both sides of the seam
        rel_a = [[(x - seam_a, y) for x, y in pts] for *_, pts in _hexes(a1)]
        straddle = [pts for *_, pts in _hexes(b1) if min(x for x, _ in pts) < frame_b < max(x for x, _ in pts)]
        assert straddle
        for pts in straddle:
            rel = [(x - frame_b, y) for x, y in pts]
            assert any(all(abs(p[0] - q[0]) < TOL and abs(p[1] - q[1]) < TOL for p, q in zip(rel, other))
                       for other in rel_a), rel


def _blank_outside(pdf_path: Path, page_w: float, page_h: float) -> None:
    """Nothing printed outside the common A4/Letter area less the 10 mm margin (rendered, 50 dpi)."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(str(pdf_path))
    k = 50 / 25.4
    for i in range(len(doc)):
        page = doc[i]
        w, h = page.get_size()
        landscape = w > h
        cw, ch = (279.4, 210.0) if landscape else (210.0, 279.4)
        pw, ph = (page_h, page_w) if landscape else (page_w, page_h)
        assert (w / MM, h / MM) == pytest.approx((pw, ph), abs=TOL)
        x0, y0 = (pw - cw) / 2 + tiling.MARGIN - 0.6, (ph - ch) / 2 + tiling.MARGIN - 0.6
        x1, y1 = pw - x0, ph - y0
        img = page.render(scale=50 / 72).to_pil().convert("L")
        px = img.load()
        for yy in range(img.height):
            for xx in range(img.width):
                x, y = xx / k, yy / k
                if (x < x0 or x > x1 or y < y0 or y > y1) and px[xx, yy] < 250:
                    raise AssertionError(f"page {i + 1}: ink at {x:.1f}, {y:.1f} mm, outside the printable box")


def test_tiles_stay_inside_the_area_common_to_a4_and_letter(tmp_path, built):
    _blank_outside(built["boss_fight"] / "maps" / "pillars.pdf", 210.0, 297.0)
    code, problems, out = build(copy(tmp_path, "bones_on_ice", ["board"]), "--paper", "Letter")
    assert code == 0, problems
    _blank_outside(out / "board.pdf", 215.9, 279.4)


# --------------------------------------------------------------------------- seams


def test_seams_fall_between_hex_rows_and_miss_labels():
    g = game("boss_fight")
    p = Problems()
    m = next(x for x in bmaps.load_all(g, p) if x.key == "keep")
    board = bmaps.scene(m, fonts(g))
    t = tiling.plan(board, 210, 297)
    lay, _, _ = bmaps.hex_layout(m)
    R = m.size / 3 ** 0.5
    rows_y = sorted({hg.hex_to_pixel(h, lay)[1] for h in m.tiles})
    for a, _b in t.rows[1:]:
        assert min(abs(a - y) for y in rows_y) >= R / 2 - 1e-6     # in the zig-zag band between two rows
    labels = [it for it in board.items if type(it).__name__ == "Text" and re.fullmatch(r"\d+", it.text)]
    cols = {c for c, _ in m.offsets.values()}
    rows = {r for _, r in m.offsets.values()}
    assert len(labels) == 2 * len(cols) + 2 * len(rows)           # the coordinate band round the grid
    for a, _b in t.cols[1:]:
        assert not any(tiling.text_box(lb)[0] < a < tiling.text_box(lb)[2] for lb in labels)


TILED = [("boss_fight", "maps/arena.pdf"), ("boss_fight", "maps/catacombs.pdf"), ("boss_fight", "maps/keep.pdf"),
         ("boss_fight", "maps/pillars.pdf"), ("boss_fight", "mats.pdf"), ("bones_on_ice", "board.pdf"),
         ("dino_battles", "mats.pdf")]


def _window(page) -> tuple[float, float, float, float]:
    """The tile's window (x0, top, x1, bottom, mm): the grey frame round what the sheet shows."""
    frames = [r for r in page.rects if r.get("stroke") and not r.get("fill")
              and tuple(round(v, 2) for v in r.get("stroking_color") or ()) == (0.53, 0.53, 0.53)]
    r = max(frames, key=lambda r: r["width"] * r["height"])
    return r["x0"] / MM, r["top"] / MM, r["x1"] / MM, r["bottom"] / MM


@pytest.mark.parametrize("slug, name", TILED)
def test_no_word_is_cut_by_a_seam(built, slug, name):
    """Read back: on every tile, no printed character straddles the cut edges (left, top) of its
    window; the assembled board shows every word whole, on one sheet."""
    with pdfplumber.open(built[slug] / name) as pdf:
        tiles = [p for p in pdf.pages if "Assembly:" not in p.extract_text()]
        assert len(tiles) >= 2
        for page in tiles:
            x0, y0, x1, y1 = _window(page)
            for ch in page.chars:
                cx0, cx1, top, bottom = ch["x0"] / MM, ch["x1"] / MM, ch["top"] / MM, ch["bottom"] / MM
                if not ch["text"].strip():
                    continue
                across_left = cx0 < x0 - 0.05 < cx1 - 0.1 and y0 < bottom and top < y1
                across_top = top < y0 - 0.05 < bottom - 0.1 and x0 < cx1 and cx0 < x1
                assert not (across_left or across_top), (page.page_number, ch["text"], round(cx0, 1), round(top, 1))


def _crosshairs(page) -> set[tuple[float, float]]:
    """Centres (mm) of the registration crosshairs: black vertical strokes 10 mm long."""
    return {(round(ln["x0"] / MM, 1), round((ln["top"] + ln["bottom"]) / 2 / MM, 1)) for ln in page.lines
            if abs(ln["x0"] - ln["x1"]) < 1e-6 and abs(ln["height"] / MM - 2 * tiling.CROSS_REACH) < 0.05
            and tuple(ln.get("stroking_color") or (1,))[:1] == (0,)}


@pytest.mark.parametrize("slug, name", TILED)
def test_crosshairs_register_across_every_seam_and_keep_off_words(built, slug, name):
    """Read back: the crosshairs on a tile's right (bottom) seam stand exactly where its
    neighbour's stand on its left (top) edge, so they join when the sheets are aligned; and no
    crosshair's ring covers a printed character of the window."""
    with pdfplumber.open(built[slug] / name) as pdf:
        boards: list[dict] = []
        for page in pdf.pages:
            if "Assembly:" in page.extract_text():
                boards.append({})
                continue
            tid = _tile_id(page)
            x0, y0, x1, y1 = _window(page)
            glue = _glue(page)
            seam_r = [r["x0"] / MM for r in glue if r["height"] > r["width"]]
            seam_b = [r["top"] / MM for r in glue if r["width"] > r["height"]]
            marks = _crosshairs(page)
            boards[-1][tid] = {
                "left": sorted(y for x, y in marks if abs(x - x0) < TOL),
                "top": sorted(x for x, y in marks if abs(y - y0) < TOL),
                "right": sorted(y for x, y in marks if seam_r and abs(x - seam_r[0]) < TOL),
                "bottom": sorted(x for x, y in marks if seam_b and abs(y - seam_b[0]) < TOL),
                "has_right": bool(seam_r), "has_bottom": bool(seam_b)}
            for cx, cy in marks:
                r = tiling.CROSS_RING + 0.5
                on = [c["text"] for c in page.chars if c["text"].strip()
                      and x0 <= c["x0"] / MM and c["x1"] / MM <= x1 and y0 <= c["top"] / MM and c["bottom"] / MM <= y1
                      and c["x0"] / MM < cx + r and cx - r < c["x1"] / MM and c["top"] / MM < cy + r
                      and cy - r < c["bottom"] / MM]
                assert not on, (tid, cx, cy, on)
        pairs = 0
        for tiles in boards:
            for tid, t in tiles.items():
                col, row = tid[0], int(tid[1:])
                if t["has_right"]:
                    assert len(t["right"]) == 2 and t["right"] == tiles[chr(ord(col) + 1) + str(row)]["left"], tid
                    pairs += 1
                if t["has_bottom"]:
                    assert len(t["bottom"]) == 2 and t["bottom"] == tiles[col + str(row + 1)]["top"], tid
                    pairs += 1
        assert pairs >= 2


@pytest.mark.parametrize("slug", ["boss_fight", "bones_on_ice", "dino_battles"])
def test_text_keeps_off_the_seams_of_every_board(slug):
    """Every board of the game, as tiled on A4 and on Letter: no text box crosses a cut line."""
    from cardgen.boards import _boards
    g = game(slug)
    loaded = _boards(g, Problems())
    boards = [b for kind in ("maps", "board", "mats") for _, scenes in loaded[kind] for b in scenes]
    assert boards
    for page in ((210.0, 297.0), (215.9, 279.4)):
        for b in boards:
            fitted, t = tiling.fit(b, *page)
            seams = tiling.seams_of(t)
            assert seams.xs or seams.ys, b.title
            for it in fitted.items:
                if type(it).__name__ == "Text":
                    x0, y0, x1, y1 = tiling.text_box(it)
                    assert not [s for s in seams.xs if x0 < s < x1], (b.title, page, it.text)
                    assert not [s for s in seams.ys if y0 < s < y1], (b.title, page, it.text)


def test_seams_slide_text_within_its_room():
    s = tiling.Seams(xs=(100.0,))
    assert s.free_x(0, 98) and not s.free_x(95, 105) and not s.free_x(0, 99)
    assert s.slide_x(95, 104, 80, 130) == pytest.approx(-5.5)            # the nearer side: right edge to 98.5
    assert s.slide_x(98, 110, 80, 130) == pytest.approx(3.5)             # left edge to 101.5
    assert s.slide_x(95, 104, 96, 130) == pytest.approx(6.5)             # no room on the left
    assert s.slide_x(95, 105, 96, 104) == 0.0                            # no room at all: left as is
    assert s.gaps_x(0, 250) == [(0, 98.5), (101.5, 250)]
    assert tiling.Seams().gaps_x(0, 50) == [(0, 50)]


def test_split_axis_covers_with_overlap():
    wins = tiling.split_axis(500, 185, 12, lambda _p: 0.0)
    assert wins[0][0] == 0 and wins[-1][1] == 500
    for (_a0, b0), (a1, _b1) in zip(wins, wins[1:]):
        assert b0 - a1 == pytest.approx(12)
    assert all(b - a <= 185 + 1e-9 for a, b in wins)


# --------------------------------------------------------------------------- the rink


def _texts(items):
    """Every text of a drawing, those inside turned or clipped groups too."""
    out = []
    for it in items:
        out += [it] if type(it).__name__ == "Text" else _texts(children(it))
    return out


def _rink(root: Path = ROOT):
    g = game("bones_on_ice", root)
    p = Problems()
    files = board_files(g.maps_dir, p)
    path, doc = files["board"][0]
    m = brink.load(path, doc, g, p)
    assert m is not None, [x.text() for x in p]
    return m, brink.scene(m, fonts(g)), p


def test_rink_slots_hold_skater_cards_and_tracks_follow_params():
    m, board, _ = _rink()
    g = game("bones_on_ice")
    sw, sh = brink.slot_boxes(m)
    assert (sw, sh) == (63 + 6, 88 + 6)
    slots = [r for r in board.items if type(r).__name__ == "Rect" and (r.w, r.h) == (sw, sh)]
    # three zones, both teams, two goalies, and each team's Team Spirit card
    assert len(slots) == 3 * 2 * g.params["acting_skaters"] + 2 + 2
    assert {"Team A Spirit", "Team B Spirit", "Team A Exhausted", "Team B Exhausted"} <= {
        t.text for t in _texts(board.items)}
    texts = [t.text for t in _texts(board.items)]
    assert texts.count("Team A Goalie") == 1 and texts.count("Team B Goalie") == 1
    assert "FACE-OFF" in texts
    assert {"Team A · Defensive Zone", "Neutral Zone", "Team B · Defensive Zone"} <= set(texts)
    # Stamina 0–20 for both teams, rounds 1–15, Chaos at 5, 10 and 15
    st = g.params["stamina"]
    stamina = [t for t in m.tracks if t.label == "Stamina"][0]
    assert (stamina.lo, stamina.hi, stamina.start, stamina.per_side) == (st["min"], st["max"], st["start"], True)
    rnd = [t for t in m.tracks if t.label == "Round"][0]
    assert (rnd.lo, rnd.hi, rnd.marks) == (1, g.params["rounds"], g.params["chaos"]["rounds"])
    assert texts.count("CHAOS") == 3
    goals = [t for t in m.tracks if t.label == "Goals"][0]
    assert (goals.lo, goals.hi, goals.per_side) == (0, g.params["rounds"], True)
    assert {"Team A Goals", "Team B Goals", "Team A Stamina", "Team B Stamina", "Round"} <= set(texts)
    # the Chaos Table is the chaos cards
    chaos = sorted((c.get("face"), c.name) for c in g.cards if c.type == "chaos")
    assert [(f, n) for f, n, _ in m.table["entries"]] == chaos and m.table["source"].startswith("cards")


def test_rink_reads_rules_numbers_from_params(tmp_path):
    gc = GameCopy(tmp_path, "bones_on_ice")
    gc.edit("rules/bones_on_ice/params.yaml", "rounds: 15", "rounds: 12")
    gc.edit("rules/bones_on_ice/params.yaml", "rounds: [5, 10, 15]", "rounds: [4, 8, 12]")
    gc.edit("rules/bones_on_ice/params.yaml", "  max: 20", "  max: 24")
    m, board, _ = _rink(gc.root)
    rnd = [t for t in m.tracks if t.label == "Round"][0]
    assert (rnd.hi, rnd.marks) == (12, [4, 8, 12])
    assert [t.hi for t in m.tracks if t.label == "Goals"] == [12]
    st = [t for t in m.tracks if t.label == "Stamina"][0]
    assert (st.lo, st.hi, st.start) == (0, 24, 20)
    assert [t.text for t in _texts(board.items)].count("24") == 2          # both teams' Stamina tracks
    assert [t.text for t in _texts(board.items)].count("CHAOS") == 3


def test_rink_missing_param_is_reported_at_the_board_line(tmp_path):
    gc = copy(tmp_path, "bones_on_ice", ["board"])
    line = gc.edit("maps/bones_on_ice/rink.yaml", "to: {param: rounds}", "to: {param: roundz}")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "RULES-PARAM", "rink.yaml", line)


def test_chaos_table_falls_back_to_params(tmp_path):
    gc = copy(tmp_path, "bones_on_ice", ["board"])
    gc.edit("maps/bones_on_ice/rink.yaml", "card_type: chaos", "card_type: no_such_cards")
    entries = "".join(f"    - {{face: {i}, name: Event {i}, text: Something happens.}}\n" for i in range(1, 7))
    gc.edit("rules/bones_on_ice/params.yaml", "  rounds: [5, 10, 15]", "  rounds: [5, 10, 15]\n  table:\n" + entries)
    m, _, _ = _rink(gc.root)
    assert m.table["source"] == "params" and [e[1] for e in m.table["entries"]][0] == "Event 1"
    # and with neither cards nor the parameter: a clear error at the fallback line
    gc2 = copy(tmp_path / "b", "bones_on_ice", ["board"])
    gc2.edit("maps/bones_on_ice/rink.yaml", "card_type: chaos", "card_type: no_such_cards")
    line = gc2.edit("maps/bones_on_ice/rink.yaml", "fallback: {param: chaos.table}", "fallback: {param: chaos.table}")
    code, problems, _ = build(gc2)
    assert code == 1 and has_problem(problems, "RULES-PARAM", "rink.yaml", line)


def test_chaos_table_prints_the_numbers_of_params(tmp_path):
    """The chaos cards' texts read their numbers from params.yaml (chaos_effects), on the board too."""
    gc = GameCopy(tmp_path, "bones_on_ice")
    gc.edit("rules/bones_on_ice/params.yaml", "level: both, amount: 6}", "level: both, amount: 4}")
    m, _, _ = _rink(gc.root)
    texts = " ".join(e[2] for e in m.table["entries"])
    assert "recovers 4 Stamina" in texts and "{{" not in texts
    # without the effects key the expressions cannot be rendered: a clear error, not raw braces
    gc2 = copy(tmp_path / "b", "bones_on_ice", ["board"])
    line = gc2.edit("maps/bones_on_ice/rink.yaml", "effects: chaos_effects", "effects: chaos_effectz")
    code, problems, _ = build(gc2)
    assert code == 1 and has_problem(problems, "BOARD-TABLE", "rink.yaml", line), problems


def test_chaos_table_needs_one_entry_per_die_face(tmp_path):
    gc = copy(tmp_path, "bones_on_ice", ["board"])
    line = gc.edit("maps/bones_on_ice/rink.yaml", "  table:", "  table:")
    gc.edit("maps/bones_on_ice/rink.yaml", "die: {param: chaos.die}", "die: 8")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "BOARD-TABLE", "rink.yaml", line + 1)


def test_a_board_too_large_to_tile_is_a_clear_error(tmp_path):
    gc = copy(tmp_path, "bones_on_ice", ["board"])
    gc.edit("maps/bones_on_ice/rink.yaml", "slots_per_side: {param: acting_skaters}", "slots_per_side: 9")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "BOARD-TOO-LARGE", "rink.yaml")
    msg = next(p["message"] for p in problems if p["rule"] == "BOARD-TOO-LARGE")
    assert "largest tiling supported" in msg and "sheets" in msg


# --------------------------------------------------------------------------- mats


def _mats(slug: str, root: Path = ROOT):
    g = game(slug, root)
    p = Problems()
    files = board_files(g.maps_dir, p)
    from cardgen.boards.tokens import all_defs
    defs = all_defs(g, Problems(), files)
    out = []
    for path, doc in files["mats"]:
        for mat in matfile.load(path, doc, g, p, defs):
            out += [(mat, bmats.scene(mat, c, g, fonts(g))) for c in mat.copies]
    assert not p.has_errors, [x.text() for x in p]
    return g, out


def _slots(board, w, h):
    return [r for r in board.items if type(r).__name__ == "Rect" and r.fill == "#ffffff"
            and abs(r.w - w) < 1e-6 and abs(r.h - h) < 1e-6]


def test_dino_mat_one_per_player_with_every_zone():
    g, mats = _mats("dino_battles")
    assert [b.title.split(" · ")[-1] for _, b in mats] == ["Player A", "Player B"]
    for mat, board in mats:
        sw, sh = 63 + 2 * mat.margin, 88 + 2 * mat.margin
        assert len(_slots(board, sw, sh)) == g.params["item_zone_max"] + g.params["bench_max"] + 1 + 4
        texts = {t.text for t in _texts(board.items)}
        assert {"Active Dinosaur", "Bench 3", "Item zone 5", "Combat Deck", "Main Deck", "Comp Cards",
                "Junk"} <= texts


def test_dino_mat_counts_follow_params(tmp_path):
    gc = GameCopy(tmp_path, "dino_battles")
    gc.edit("rules/dino_battles/params.yaml", "bench_max: 3", "bench_max: 2")
    _, mats = _mats("dino_battles", gc.root)
    mat, board = mats[0]
    assert len(_slots(board, 63 + 2 * mat.margin, 88 + 2 * mat.margin)) == 5 + 2 + 1 + 4


def test_boss_fight_hero_and_boss_mats(built):
    _, mats = _mats("boss_fight")
    (hero, board), (boss, bboard) = mats
    assert len(_slots(board, 70 + 2 * hero.margin, 120 + 2 * hero.margin)) == 1          # the tarot Hero card
    assert len(_slots(board, 63 + 2 * hero.margin, 88 + 2 * hero.margin)) == 3 + 2 + 4    # equipment, abilities, piles
    texts = {t.text for t in _texts(board.items)}
    assert {"Action Deck", "Discard", "Expended", "Used", "Immobilised", "Dazzled", "Stunned", "Poisoned"} <= texts
    # the boss: every piece of the largest preset boss (9), and the most equipment and abilities any carries
    assert len(_slots(bboard, 70 + 2 * boss.margin, 120 + 2 * boss.margin)) == 9
    assert len(_slots(bboard, 63 + 2 * boss.margin, 88 + 2 * boss.margin)) == 3 + 3 + 3
    texts = {t.text for t in _texts(bboard.items)}
    assert {"Boss Pieces 9", "Action Deck", "Discard", "Used", "Immobilised", "Boss Health"} <= texts
    assert "PRINT AT 100 %" in pdf_pages((built["boss_fight"] / "mats.pdf").read_bytes())[0]


# --------------------------------------------------------------------------- tokens


def _cut_circles(page, size):
    return sorted((round((c["x0"] + c["x1"]) / 2 / MM, 3), round((c["top"] + c["bottom"]) / 2 / MM, 3))
                  for c in page.curves if abs(c["width"] / MM - size) < 0.05 and abs(c["height"] / MM - size) < 0.05
                  and not c.get("fill"))


def test_token_counts_come_from_components_and_params(built):
    with pdfplumber.open(built["loot_battles"] / "tokens.pdf") as pdf:
        assert len(_cut_circles(pdf.pages[0], 20)) == 10        # Armor Break × 10 (components.yaml)
        assert len(_cut_circles(pdf.pages[0], 25)) == 1         # Encounter Leader
    g = game("dino_battles")
    comps = {c.id: c.count for c in g.components}
    with pdfplumber.open(built["dino_battles"] / "tokens.pdf") as pdf:
        n20 = sum(len(_cut_circles(p, 20)) for p in pdf.pages[::2])
        assert n20 == comps["paralyzed_counter"] + comps["poisoned_token"] + comps["wound_token"]
    bf = game("boss_fight")
    per_status = bf.params["boss_players"] + bf.params["box_heroes"]
    with pdfplumber.open(built["boss_fight"] / "tokens.pdf") as pdf:
        assert sum(len(_cut_circles(p, 20)) for p in pdf.pages[::2]) == 4 * per_status
        assert sum(len(_cut_circles(p, 9)) for p in pdf.pages[::2]) == bf.params["box_heroes"] + 2 * bf.params[
            "boss_players"]                                    # Health markers: each hero's, the boss's ×10 and ×1
        # Death and Rubble stand on hexes: hex tokens (figures.yaml; tests/test_kit_tracked.py)
        assert sum(len(_cut_circles(p, 22)) for p in pdf.pages[::2]) == 0


@pytest.mark.parametrize("flags, mirror", [((), "long"), (("--duplex", "short", "--offset", "1mm,-0.5mm"), "short")])
def test_token_backs_stand_behind_their_fronts(tmp_path, flags, mirror):
    code, problems, out = build(copy(tmp_path, "loot_battles"), *flags)
    assert code == 0, problems
    dx, dy = (1.0, -0.5) if flags else (0.0, 0.0)
    with pdfplumber.open(out / "tokens.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        W, H = front.width / MM, front.height / MM
        for size in (20, 25):
            f, b = _cut_circles(front, size), _cut_circles(back, size)
            assert f and len(f) == len(b)
            if mirror == "long":
                want = sorted((round(W - x + dx, 3), round(y + dy, 3)) for x, y in f)
            else:
                want = sorted((round(x + dx, 3), round(H - y + dy, 3)) for x, y in f)
            assert len(b) == len(want)
            for (bx, by), (wx, wy) in zip(b, want):
                assert (bx, by) == pytest.approx((wx, wy), abs=TOL)
        assert "Armor Break" in back.extract_text()


@pytest.mark.parametrize("slug", list(PRINTABLES))
def test_every_games_tokens_have_cut_marks_and_backs_behind_fronts(built, slug):
    """Read back from each game's tokens.pdf: every token of the file is printed, as many times
    as it counts; crop marks on the fronts; each back page holds the same tokens mirrored for
    long-edge duplex."""
    from cardgen.boards import tokens as btokens
    g = game(slug)
    p = Problems()
    sheets = [btokens.load(path, doc, g, p) for path, doc in board_files(g.maps_dir, p)["tokens"]]
    assert all(sheets) and not p.has_errors
    tokens = [t for sheet in sheets if sheet for t in sheet.tokens]
    want: dict[float, int] = {}
    for t in tokens:
        if t.shape != "hex":          # hex tokens: tests/test_kit_tracked.py
            want[t.size] = want.get(t.size, 0) + t.count
    with pdfplumber.open(built[slug] / "tokens.pdf") as pdf:
        assert len(pdf.pages) % 2 == 0
        got = dict.fromkeys(want, 0)
        text = ""
        for front, back in zip(pdf.pages[::2], pdf.pages[1::2], strict=True):
            W = front.width / MM
            text += front.extract_text()
            ticks = [ln for ln in front.lines if abs(math.hypot(ln["width"], ln["height"]) / MM - btokens.TICK) < 0.05]
            assert len(ticks) >= 8 or not any(_cut_circles(front, size) for size in want), \
                "crop marks on every side of the block"
            assert not [ln for ln in back.lines
                        if abs(math.hypot(ln["width"], ln["height"]) / MM - btokens.TICK) < 0.05], "no marks on backs"
            for size in want:
                f, b = _cut_circles(front, size), _cut_circles(back, size)
                got[size] += len(f)
                mirrored = sorted((round(W - x, 3), y) for x, y in f)
                assert len(b) == len(mirrored)
                assert all(abs(p[0] - q[0]) < TOL and abs(p[1] - q[1]) < TOL for p, q in zip(b, mirrored)), (size, b)
        assert got == want
    for t in tokens:
        if t.front.label != "" or t.front.value:          # a marker may be a symbol alone
            assert (t.front.label or t.front.value or t.name) in text, t.id


def test_square_tokens_have_cut_lines_and_mirrored_backs(tmp_path):
    gc = copy(tmp_path, "loot_battles")
    gc.edit("maps/loot_battles/tokens.yaml", "shape: round", "shape: square")
    code, problems, out = build(gc)
    assert code == 0, problems
    with pdfplumber.open(out / "tokens.pdf") as pdf:
        front, back = pdf.pages[0], pdf.pages[1]
        W = front.width / MM

        def squares(page, size):
            return sorted((round(r["x0"] / MM, 2), round(r["top"] / MM, 2)) for r in page.rects
                          if not r.get("fill") and abs(r["width"] / MM - size) < 0.05
                          and abs(r["height"] / MM - size) < 0.05)
        f20, b20 = squares(front, 20), squares(back, 20)
        assert len(f20) == 10 and len(squares(front, 25)) == 1
        want = sorted((round(W - x - 20, 2), y) for x, y in f20)
        assert all(abs(p[0] - q[0]) < TOL and abs(p[1] - q[1]) < TOL for p, q in zip(b20, want, strict=True))
    qpdf_check(out / "tokens.pdf")


def test_unknown_component_and_double_count(tmp_path):
    gc = copy(tmp_path, "loot_battles")
    line = gc.edit("maps/loot_battles/tokens.yaml", "component: armor_break", "component: armor_brake")
    code, problems = build(gc)[:2]
    assert code == 1 and has_problem(problems, "TOKEN-COMPONENT", "tokens.yaml", line)
    assert "armor_break" in next(p.get("hint", "") for p in problems if p["rule"] == "TOKEN-COMPONENT")
    gc2 = copy(tmp_path / "b", "loot_battles")
    line = gc2.edit("maps/loot_battles/tokens.yaml", "component: encounter_leader,",
                    "component: encounter_leader, count: 1,")
    code, problems = build(gc2)[:2]
    assert code == 1 and has_problem(problems, "TOKEN-COUNT", "tokens.yaml", line)


def test_mat_names_unknown_token_and_card_size(tmp_path):
    gc = copy(tmp_path, "boss_fight", ["mats"])
    line = gc.edit("maps/boss_fight/mat.yaml", "tokens: [immobilised, dazzled,", "tokens: [immobilised, dazled,")
    code, problems = build(gc)[:2]
    assert code == 1 and has_problem(problems, "TOKEN-UNKNOWN", "mat.yaml", line)
    gc2 = copy(tmp_path / "b", "dino_battles", ["mats"])
    line = gc2.edit("maps/dino_battles/mat.yaml", "card: poker", "card: pokr")
    code, problems = build(gc2)[:2]
    assert code == 1 and has_problem(problems, "BOARD-CARD-SIZE", "mat.yaml", line)


def test_a_track_end_read_from_cards_names_its_field_as_text(tmp_path):
    """``to: {cards: [hp]}`` (a list where a field name belongs) is a problem at its line, not a crash."""
    gc = copy(tmp_path, "dino_battles", ["mats"])
    line = gc.edit("maps/dino_battles/mat.yaml", "to: {cards: hp, type: dinosaur}", "to: {cards: [hp], type: dinosaur}")
    code, problems = build(gc)[:2]
    assert code == 1 and has_problem(problems, "YAML-TYPE", "mat.yaml", line)
    gc.edit("maps/dino_battles/mat.yaml", "to: {cards: [hp], type: dinosaur}", "to: {cards: hp, type: dinosaur}")
    assert build(gc)[0] == 0


# --------------------------------------------------------------------------- map content rules

PILLARS = "maps/boss_fight/pillars.yaml"


def pillars_only(tmp_path: Path, keep: str = "pillars") -> GameCopy:
    """A Boss Fight copy whose only map is the Hall of Pillars, or ``keep`` (fast to build)."""
    gc = copy(tmp_path, "boss_fight", ["maps"])
    for key in {"arena", "catacombs", "keep", "pillars"} - {keep}:
        gc.path(f"maps/boss_fight/{key}.yaml").unlink()
    return gc


def test_legal_maps_have_no_problems(built):
    g = game("boss_fight")
    p = Problems()
    ms = bmaps.load_all(g, p)
    assert [m.key for m in ms] == ["arena", "catacombs", "keep", "pillars"]
    assert not list(p)


@pytest.mark.parametrize("old, new, rule, line_shift", [
    ("  - {at: [9, 7], terrain: obstacle}\n", "  - {at: [9, 7], terrain: obstacle}\n  - {at: [3, 1], terrain: chasm}\n",
     "MAP-DUPLICATE", 1),
    ("{at: [9, 7], terrain: obstacle}", "{at: [19, 7], terrain: obstacle}", "MAP-OFF-GRID", 0),
    ("{at: [6, 1], terrain: obstacle}", "{at: [6, 1], terrain: lava}", "MAP-TERRAIN", 0),
    ("boss: {cols: [7, 12], rows: [0, 8]}", "boss: {cols: [12, 12], rows: [0, 1]}", "BF-PLACE-1", 0),
    ("heroes: {cols: [0, 1], rows: [0, 8]}", "heroes: [[0, 0], [0, 1]]", "BF-PLACE-1", 0),
    ("heroes: {cols: [0, 1], rows: [0, 8]}", "heroes: {cols: [0, 1], rows: [0, 9]}", "MAP-OFF-GRID", 0),
])
def test_map_rule_at_file_and_line(tmp_path, old, new, rule, line_shift):
    gc = pillars_only(tmp_path)
    line = gc.edit(PILLARS, old, new)
    code, problems, _ = build(gc)
    assert code == 1
    assert has_problem(problems, rule, "pillars.yaml", line + line_shift), problems


def test_unknown_layout_symbol_names_line_and_column(tmp_path):
    gc = pillars_only(tmp_path, "arena")
    line = gc.edit("maps/boss_fight/arena.yaml", "     # . . . . . . . . . #", "     # . . . . ? . . . . #")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "MAP-TERRAIN", "arena.yaml", line)
    p = next(p for p in problems if p["rule"] == "MAP-TERRAIN")
    assert p["column"] == len("     # . . . . ") + 1


def test_an_island_of_clear_tiles_is_a_warning_naming_it(tmp_path):
    gc = pillars_only(tmp_path)
    gc.edit(PILLARS, "tiles:\n", "tiles:\n  - {at: [1, 0], terrain: obstacle}\n  - {at: [0, 1], terrain: obstacle}\n")
    code, problems, _ = build(gc)
    assert code == 0
    isl = [p for p in problems if p["rule"] == "MAP-ISLAND"]
    assert isl and isl[0]["severity"] == "warning" and "0,0" in isl[0]["message"]
    assert isl[0]["file"].endswith("pillars.yaml")


def test_map_too_large_to_tile(tmp_path):
    gc = pillars_only(tmp_path)
    gc.edit(PILLARS, "size: {cols: 13, rows: 9}", "size: {cols: 60, rows: 9}")
    line = gc.edit(PILLARS, "name: The Hall of Pillars", "name: The Hall of Pillars")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "BOARD-TOO-LARGE", "pillars.yaml", line)


def test_placement_reads_its_numbers_from_params(tmp_path):
    gc = pillars_only(tmp_path)
    line = gc.edit("maps/boss_fight/terrain.yaml", "{param: box_heroes}", "{param: box_heroez}")
    code, problems, _ = build(gc)
    assert code == 1 and has_problem(problems, "RULES-PARAM", "terrain.yaml", line)


def test_the_largest_preset_boss_and_a_full_party_start_on_every_map():
    """BF-PLACE-1 on the real content: the maps are checked against the game's own preset bosses
    (not the fallback), and the largest of them has a start on every map, with a clear tile at
    distance >= placement_distance from every boss hex for each hero of the largest party."""
    g = game("boss_fight")
    ms = bmaps.load_all(g, Problems())
    pl = ms[0].terrain.placement
    hook = gamehooks.board_hook("boss_fight", "boss_footprints")
    assert hook is not None
    presets = hook(g, Problems())
    assert presets and len(pl.footprints) == len(presets)
    assert all(label.startswith("preset boss") for label, _ in pl.footprints)
    assert (pl.hero_distance, pl.heroes) == (g.params["placement_distance"], g.params["box_heroes"])
    label, largest = max(pl.footprints, key=lambda f: len(f[1]))
    assert len(largest) > 1, label
    for m in ms:
        bzone, hzone = m.zones.get(pl.boss_zone) or None, m.zones.get(pl.hero_zone) or None
        starts = [cells for cells in boss_starts(m, largest, bzone)
                  if len(hero_starts(m, cells, pl.hero_distance, hzone)) >= pl.heroes]
        assert starts, (m.key, label)
        cells = starts[0]
        assert all(m.passable(c) for c in cells) and (bzone is None or cells <= bzone)
        for h in hero_starts(m, cells, pl.hero_distance, hzone):
            assert m.passable(h) and min(hg.distance(h, c) for c in cells) >= pl.hero_distance


def test_preset_boss_footprints_are_checked(tmp_path, monkeypatch):
    """With the game's preset bosses known, each must find a legal start (BF-PLACE-1)."""
    real = gamehooks.board_hook

    def fake(slug, name):
        if name == "boss_footprints":
            return lambda game, problems: [("preset boss 'Long Worm'", [(q, 0) for q in range(14)])]
        return real(slug, name)
    monkeypatch.setattr(gamehooks, "board_hook", fake)
    gc = copy(tmp_path, "boss_fight", ["maps"])
    gc.path("maps/boss_fight/keep.yaml").unlink()
    code, problems, _ = build(gc)
    assert code == 1
    bad = [p for p in problems if p["rule"] == "BF-PLACE-1"]
    assert bad and all("Long Worm" in p["message"] for p in bad)
    assert {Path(p["file"]).name for p in bad} == {"arena.yaml", "catacombs.yaml", "pillars.yaml"}


# --------------------------------------------------------------------------- rules on a real map


def _map(key: str):
    g = game("boss_fight")
    return next(m for m in bmaps.load_all(g, Problems()) if m.key == key)


def _h(m, col, row):
    return hg.from_offset(col, row, m.style)


@pytest.mark.parametrize("key, a, b, sees", [
    ("arena", (4, 1), (6, 9), True),          # the open pit: nothing in between
    ("arena", (5, 5), (5, 6), True),          # neighbours always see each other
    ("catacombs", (2, 2), (8, 5), False),     # burial room to crypt: solid rock between
    ("catacombs", (8, 5), (5, 5), True),      # across the crypt floor
    ("catacombs", (2, 5), (2, 3), True),      # across the chasm beside the gallery: sight crosses a chasm
])
def test_line_of_sight_on_the_maps(key, a, b, sees):
    m = _map(key)
    assert hg.line_of_sight(_h(m, *a), _h(m, *b), m.blocks) is sees


def test_a_long_boss_cannot_squeeze_out_of_the_crypt():
    """BF-MOVE-1: every boss hex must end on a clear tile; the corridors are one hex wide."""
    m = _map("catacombs")
    worm = hg.footprint([hg.Hex(q, 0) for q in range(4)])
    start = _h(m, 6, 5)
    assert all(m.passable(c) for c in hg.place(worm, start))
    ends = hg.reachable_placements(worm, start, 12, m.passable)
    rooms = {h for c in ((2, 2), (14, 2), (2, 8), (14, 8)) for h in hg.hex_range(_h(m, *c), 1)}
    assert ends and not any(set(hg.place(worm, a, r)) <= rooms for a, r in ends)
    # …while a hero walks there
    assert _h(m, 2, 2) in hg.reachable(_h(m, 8, 5), 20, m.passable)


def test_the_zone_board_kind_names_no_game_or_sport():
    """The framework's board of zones in a row (``board:`` files) prints only the words its file
    gives: the rink's hockey words live in maps/bones_on_ice/rink.yaml."""
    src = (ROOT / "cardgen" / "boards" / "zoneboard.py").read_text(encoding="utf-8")
    words = re.compile(r"\b(goal\w*|goalie\w*|skater\w*|puck|rink\w*|ice|hockey|face-?off|crease|defensive|"
                       r"attack)\b", re.I)
    assert not words.findall(src), sorted(set(words.findall(src)))


def test_the_rink_prints_the_game_words_from_its_board_file():
    m, board, _ = _rink()
    texts = {t.text for t in _texts(board.items)}
    assert {"GOAL", "FACE-OFF", "SPOT", "Team A Goalie", "Team B skater"} <= texts, texts
    assert (m.end_label, m.centre_labels, m.keeper_label, m.slot_label) == ("GOAL", ["FACE-OFF", "SPOT"],
                                                                             "Goalie", "skater")
