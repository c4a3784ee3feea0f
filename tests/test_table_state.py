"""The game's state on the table: Health, HP and K.O. tracks on the mats sized from the cards and
params, the Initiative spot, each Bones on Ice team's Spirit slot and Exhausted box, and the
quick-reference sheets whose numbers follow params.yaml."""

from __future__ import annotations

from cardgen import boards
from cardgen.boards import mats as bmats
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT, pdf_pages


def _mat(slug: str, root=ROOT, k: int = 0):
    g = load_game(root, slug, Problems())
    p = Problems()
    mat, scenes = boards._boards(g, p)["mats"][k]
    assert not p.has_errors, [x.text() for x in p]
    return g, mat, scenes[0]


def _track(mat, label: str):
    (g,) = [g for row in mat.rows for g in row if g.label == label]
    return g, bmats._track_rows(g)


def _numbers(scene) -> list[str]:
    return [it.text for it in scene.items if type(it).__name__ == "Text"]


def test_boss_fight_mat_tracks_hero_and_boss_health():
    g, mat, scene = _mat("boss_fight")
    top = max(c.fields["health"] for c in g.cards if c.type == "hero")
    _, rows = _track(mat, "Hero Health")
    assert rows == [("", list(range(0, top + 1)))]                       # 0 … the largest hero Health
    assert {"Hero Health", str(top)} <= set(_numbers(scene))
    _, mat, scene = _mat("boss_fight", k=1)                              # the Boss mat
    _, rows = _track(mat, "Boss Health")
    assert [cap for cap, _ in rows] == ["×10", "×1"] and rows[1][1] == list(range(10))
    assert {"Boss Health", "×10", "×1"} <= set(_numbers(scene))


def test_dino_battles_mat_tracks_hp_kos_and_initiative():
    g, mat, scene = _mat("dino_battles")
    top = max(c.fields["hp"] for c in g.cards if c.type == "dinosaur")
    _, rows = _track(mat, "Active Dinosaur HP")
    assert rows[0] == ("×10", list(range(0, top // 10 + 1))) and rows[1] == ("×1", list(range(10)))
    _, rows = _track(mat, "K.O.s scored")
    assert rows == [("", list(range(0, g.params["kos_to_win"] + 1)))]
    (ini,) = [g for row in mat.rows for g in row if g.label == "Initiative"]
    assert [t.id for t in ini.tokens] == ["initiative"]


def test_a_track_follows_params(game_copy):
    gc = game_copy("dino_battles")
    gc.edit("rules/dino_battles/params.yaml", "kos_to_win: 3", "kos_to_win: 4")
    _, mat, _ = _mat("dino_battles", gc.root)
    assert _track(mat, "K.O.s scored")[1] == [("", [0, 1, 2, 3, 4])]


def test_a_track_end_that_no_card_has_is_reported(game_copy):
    gc = game_copy("dino_battles")
    line = gc.edit("maps/dino_battles/mat.yaml", "to: {cards: hp, type: dinosaur}", "to: {cards: hp, type: dinosaurs}")
    code, probs = gc.validate()
    assert code == 1 and any(p["file"].endswith("maps/dino_battles/mat.yaml") and p["line"] == line
                             for p in probs), probs


def test_each_rink_team_has_a_spirit_slot_and_an_exhausted_box():
    g = load_game(ROOT, "bones_on_ice", Problems())
    (board, (scene,)), = boards._boards(g, Problems())["board"]
    assert [s["label"] for s in board.side_slots] == ["Spirit", "Exhausted"]
    texts = _numbers(scene)
    for team in ("Team A", "Team B"):
        assert f"{team} Spirit" in texts and f"{team} Exhausted" in texts


def test_the_quick_reference_reads_its_numbers_from_params(game_copy):
    gc = game_copy("dino_battles")
    gc.edit("rules/dino_battles/params.yaml", "poison_hp: 10", "poison_hp: 15")
    g = load_game(gc.root, "dino_battles", Problems())
    p = Problems()
    out = boards.build_reference(type("Laid", (), {"game": g})(), problems=p)
    assert not p.has_errors
    text = " ".join(pdf_pages(out["reference.pdf"]))
    assert "Poisoned Dinosaurs lose 15 HP" in " ".join(text.split())
