"""Playable from the printouts alone: every value a table keeps track of (``tracked:`` in each game's
params.yaml) has a printed place on the printable it names and the markers that mark it; trackers are
sized from the rules' numbers; what stands on a 25 mm hex is cut as a hex that fits inside one."""

from __future__ import annotations

import io
import math
from types import SimpleNamespace

import pdfplumber
import pytest

from cardgen.boards import build_tokens, matfile, zoneboard
from cardgen.boards import maps as bmaps
from cardgen.boards import mats as bmats
from cardgen.boards import tokens as btokens
from cardgen.boards.common import board_files, fonts_of
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.scene import Polygon, Rect, Text, children
from tests.conftest import ROOT

MM = 72 / 25.4
GAMES = sorted(p.parent.name for p in ROOT.glob("rules/*/params.yaml"))


def _game(slug: str):
    g = load_game(ROOT, slug, Problems())
    assert g is not None
    return g


def _printed(g) -> dict:
    """What each board printable draws: {'mats'|'board': [(label, items of its scene)], 'tokens': {id: def}}."""
    p = Problems()
    files = board_files(g.maps_dir, p)
    defs = btokens.all_defs(g, p, files)
    fonts = fonts_of(g)
    out: dict = {"mats": [], "board": [], "tokens": defs}
    for path, doc in files["mats"]:
        for mat in matfile.load(path, doc, g, p, defs):
            out["mats"] += [(mat, bmats.scene(mat, c, g, fonts).items) for c in mat.copies]
    for path, doc in files["board"]:
        zb = zoneboard.load(path, doc, g, p)
        assert zb is not None
        out["board"].append((zb, zoneboard.scene(zb, fonts).items))
    assert not p.has_errors, [x.text() for x in p]
    return out


def _flat(items) -> list:
    out: list = []
    for it in items:
        out.append(it)
        out += _flat(children(it))
    return out


@pytest.mark.parametrize("slug", GAMES)
def test_every_tracked_value_has_a_printed_place_and_its_markers(slug):
    g = _game(slug)
    tracked = g.params.get("tracked")
    assert tracked, f"{slug}: params.yaml lists no tracked values"
    printed = _printed(g)
    for entry in tracked:
        kind, where = entry["printed"], entry["where"]
        assert kind in g.printables, f"{slug}: {entry['value']} is kept on {kind}, which the game does not print"
        if kind == "tokens":
            t = printed["tokens"].get(where)
            assert t is not None and t.count >= 1, f"{slug}: no token '{where}' for {entry['value']}"
        else:
            texts = [it.text for _, items in printed[kind] for it in _flat(items) if isinstance(it, Text)]
            assert any(where in t for t in texts), f"{slug}: {kind} prints no '{where}' for {entry['value']}"
        for marker in entry.get("markers") or []:
            t = printed["tokens"].get(marker)
            assert t is not None and t.count >= 1, f"{slug}: no marker '{marker}' for {entry['value']}"


def _group(g, label: str) -> matfile.Group:
    for mat, _items in _printed(g)["mats"]:
        for row in mat.rows:
            for grp in row:
                if grp.label == label:
                    return grp
    raise AssertionError(f"no mat group '{label}'")


def test_dino_every_bench_slot_has_an_hp_track_sized_from_the_cards():
    g = _game("dino_battles")
    bench = _group(g, "Bench HP")
    assert bench.count == g.params["bench_max"] == _group(g, "Bench").count
    top = max(c.fields["hp"] for c in g.cards if c.type == "dinosaur")
    assert bench.track == (0, top) == _group(g, "Active Dinosaur HP").track
    toks = _printed(g)["tokens"]
    dinos = g.params["players"]["max"] * (g.params["bench_max"] + g.params["active_dinosaurs"])
    assert toks["hp_tens"].count == toks["hp_units"].count == dinos
    # every track's row of boxes is drawn: bench_max tracks of tens and units under the label
    _mat, items = _printed(g)["mats"][0]
    boxes = [r for r in items if isinstance(r, Rect) and r.fill == "#ffffff" and abs(r.w - bmats.TRACK_BOX) < 1e-6]
    per_track = (top // 10 + 1) + 10
    assert len(boxes) == (bench.count + 1) * per_track + g.params["kos_to_win"] + 1


def test_bone_wars_hp_tracker_runs_from_the_starting_hp_for_every_player():
    g = _game("bone_wars")
    hp = _group(g, "Hit Points")
    assert hp.track == (0, g.params["starting_hp"]) and hp.count == g.params["players"]["max"]


def test_boss_fight_statuses_of_the_rules_are_all_tracked():
    g = _game("boss_fight")
    values = {e["value"] for e in g.params["tracked"]}
    assert set(g.params["statuses"]) <= values


def test_loot_battles_counters_replace_the_d10s():
    g = _game("loot_battles")
    toks = _printed(g)["tokens"]
    for stat in ("health", "armor", "dodge"):
        assert toks[f"{stat}_1"].count + 5 * toks[f"{stat}_5"].count >= 10 * g.params["stat_dice"]


def _hex_size(g) -> float:
    p = Problems()
    sizes = {m.size for m in bmaps.load_all(g, p, board_files(g.maps_dir, p))}
    assert len(sizes) == 1
    return sizes.pop()


def test_boss_fight_hex_tokens_fit_inside_a_map_hex():
    g = _game("boss_fight")
    flats = _hex_size(g)
    p = Problems()
    files = board_files(g.maps_dir, p)
    sheets = [btokens.load(path, doc, g, p) for path, doc in files["tokens"]]
    hexes = [t for s in sheets if s for t in s.tokens if t.shape == "hex"]
    assert {t.id for t in hexes} >= {"hero_figure", "start_tile", "boss_hex", "rubble", "death"}
    pages = [pg for s in sheets if s for pg in btokens.pages(s, g, fonts_of(g))[0]]
    cuts = [it for pg in pages for it in pg.items if isinstance(it, Polygon) and it.stroke == "#000000"]
    assert len(cuts) == 2 * sum(t.count for t in hexes)          # fronts and backs
    inscribed = flats                                            # the map hex's width across flats
    for c in cuts:
        xs, ys = [x for x, _ in c.points], [y for _, y in c.points]
        assert max(xs) - min(xs) <= inscribed + 1e-6
        assert max(ys) - min(ys) <= flats * 2 / math.sqrt(3) + 1e-6
    boss = next(t for t in hexes if t.id == "boss_hex")
    assert boss.count == sum(len(c.fields.get("footprint") or []) * c.copies for c in g.cards if c.type == "boss_piece")


def test_hex_token_counts_multiply_and_number_their_copies(tmp_path):
    g = _game("boss_fight")
    t = btokens.TokenDef("x", "X", 3, "hex", 20.0, btokens.Face("X", None, "none", "#fff", "#000"),
                         btokens.Face("X", None, "none", "#fff", "#000"), None, True)
    assert [btokens.numbered(t, t.front, k).value for k in range(3)] == ["1", "2", "3"]
    p = Problems()
    assert btokens._count({"param": "box_heroes"}, g, p, None, "x") == g.params["box_heroes"]
    assert btokens._count([{"param": "box_heroes"}, 2], g, p, None, "x", product=True) == 2 * g.params["box_heroes"]
    assert btokens._count({"cards": "nope", "type": "boss_piece"}, g, p, None, "x") is None
    assert p.has_errors


def test_boss_fight_hex_tokens_read_back_from_the_pdf_fit_a_map_hex():
    """tokens.pdf as printed: every hex cut line (an unfilled six-sided path) is at most a map hex wide
    across its flats and tall across its corners."""
    g = _game("boss_fight")
    flats = _hex_size(g)
    pdf_bytes = build_tokens(SimpleNamespace(game=g))["tokens.pdf"]
    n = 0
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for page in pdf.pages[::2]:
            for c in page.curves:
                if c.get("fill") or len(c["pts"]) < 6 or abs(c["width"] / MM - 23) > 1.5:
                    continue
                n += 1
                assert c["width"] / MM <= flats + 0.05
                assert c["height"] / MM <= flats * 2 / math.sqrt(3) + 0.05
    hexes = [t for t in _printed(g)["tokens"].values() if t.shape == "hex"]
    assert n >= sum(t.count for t in hexes)
