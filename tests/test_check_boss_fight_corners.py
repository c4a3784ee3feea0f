"""Boss Fight checker corners (issue 20): the rule actually broken is the one reported, at its
line, each with its legal twin — a defence roll of 6 (BF-CMB-1), poison after a successful cure
roll (BF-STATUS-2), the ``players`` header (BF-PLAYERS-1), a multi-hex boss through a gap
narrower than itself (BF-MOVE-1), a party of five heroes with no points limit (legal), card text
putting a boss that was never placed (BF-PLACE-1, no engine failure)."""

from __future__ import annotations

from cardgen.content import collection_files as cols
from cardgen.core.problems import Problems
from cardgen.games.boss_fight import analyse
from tests import checklogs
from tests.checklogs import ev
from tests.playkit import game
from tests.test_check_boss_fight import BASE, BUILDS, GAME, SMALL

MISS = "target: boss, defence: 6, hit: false}"


def test_a_defence_roll_of_6_is_a_miss_whatever_damage_is_written(tmp_path):
    checklogs.assert_break_and_twin(GAME, tmp_path, BASE, "BF-CMB-1", MISS, "target: boss, defence: 6, damage: 0}",
                                    "target: boss, defence: 6, damage: 2}", "target: boss, defence: 6", BUILDS)


def test_only_the_miss_is_reported_not_the_damage(tmp_path):
    text = BASE.replace(MISS, "target: boss, defence: 6, damage: 2, hp_left: 29}")
    code, probs, _ = checklogs.check(GAME, checklogs.write(tmp_path, text, "log.yaml", BUILDS))
    line = text[:text.index("defence: 6, damage: 2")].count("\n") + 1
    assert [p["rule"] for p in checklogs.errors(probs) if p["line"] == line] == ["BF-CMB-1"], probs


CURE = "{kind: turn, character: tormund, poison_roll: 2}"
LAST = "{kind: end_turn, character: tormund, hp: {tormund: 10}}"


def test_poison_charged_after_a_successful_cure_roll(tmp_path):
    old = CURE + SMALL.split(CURE)[1]
    rest = SMALL.split(CURE)[1].replace(LAST, "{kind: end_turn, character: tormund, hp: {tormund: %d}}")
    checklogs.assert_break_and_twin(GAME, tmp_path, SMALL, "BF-STATUS-2", old,
                                    "{kind: turn, character: tormund, poison_roll: 5}" + rest % 12,
                                    "{kind: turn, character: tormund, poison_roll: 5}" + rest % 10,
                                    "kind: end_turn, character: tormund, hp: {tormund: 10}", BUILDS)


def test_poison_as_an_effect_after_the_cure(tmp_path):
    old = "  - {kind: end_turn, character: tormund, hp: {tormund: 10}}\n"
    cured = SMALL.replace(CURE, "{kind: turn, character: tormund, poison_roll: 6}")
    checklogs.assert_break_and_twin(GAME, tmp_path, cured, "BF-STATUS-2", old,
                                    "  - {kind: end_turn, character: tormund, hp: {tormund: 12}}\n",
                                    ev("kind: effect, character: tormund, source: Poisoned, damage: 1"),
                                    "source: Poisoned", BUILDS)


HEAD = "party: lantern_company\n"


def test_the_players_header_seats_one_boss_player_and_the_party(tmp_path):
    good = HEAD + "players: {ana: [boss], bo: [aldric, wren], cy: [maelis]}\n"
    for bad in ("players: {ana: [boss, aldric], bo: [wren, maelis]}\n",          # the boss player plays a hero
                "players: {ana: [boss], bo: [aldric, wren]}\n",                   # nobody plays maelis
                "players: {a: [boss], b: [aldric], c: [wren], d: [maelis], e: [], f: []}\n",   # six players
                "players: {ana: [aldric], bo: [wren, maelis]}\n"):               # nobody plays the boss
        checklogs.assert_break_and_twin(GAME, tmp_path, BASE, "BF-PLAYERS-1", HEAD, good, HEAD + bad, "players:",
                                        BUILDS)


GAP = """\
game: boss_fight
map: catacombs
boss: bone_colossus
party: lantern_company
events:
  - {kind: place, character: boss, at: [1, 9], rotate: 1}
  - {kind: place, character: aldric, at: [12, 3]}
  - {kind: place, character: wren, at: [12, 4]}
  - {kind: place, character: maelis, at: [12, 5]}
  - {kind: round, number: 1}
  - {kind: draw, character: boss, cards: [walk, walk, walk, basic_attack]}
  - {kind: draw, character: wren, count: 4}
  - {kind: draw, character: aldric, count: 4}
  - {kind: draw, character: maelis, count: 4}
  - {kind: move, character: boss, card: walk, to: [3, 8], rotate: 4}
allow:
  - {rule: BF-PLACE-1, reason: "the boss stands beside the gap"}
  - {rule: BF-INIT-1, reason: "only the boss's move is tested"}
"""


def test_a_multi_hex_boss_does_not_pass_a_gap_narrower_than_itself(tmp_path):
    old = "to: [3, 8], rotate: 4}"
    checklogs.assert_break_and_twin(GAME, tmp_path, GAP, "BF-MOVE-1", old, "to: [1, 9], rotate: 1}", old,
                                    "to: [3, 8]", BUILDS, notes=True)
    # the same way written hex by hex: each step of the path is checked, not only where it ends
    for path in ("[[2, 8], [3, 8]]", "[[2, 9], [3, 8]]", "[[1, 8], [2, 8], [3, 8]]"):
        checklogs.assert_break_and_twin(GAME, tmp_path, GAP, "BF-MOVE-1", old, "to: [1, 9], rotate: 1}",
                                        f"path: {path}, rotate: 4}}", "path:", BUILDS, notes=True)


# Issue 33: the Bone Colossus (at least three hexes wide whichever way it turns) walked by the
# crystal at its tip (anchor [2, -1]) through a one-hex gap in a wall of obstacle tokens. On
# every hex of the way it fits in some facing, so checking each hex alone (or only the end)
# passed it; walking the path it spells out hex by hex (the ruling: a step keeps its facing or
# turns it 60°) it cannot get its body through. The legal twin: the same walk where the gap is
# three wide.
WALL = "rubble: [[1, 5], [2, 5], [3, 5], [4, 5], [6, 5], [7, 5]]"
THROUGH = """\
game: boss_fight
map: arena
boss: bone_colossus
party: lantern_company
events:
  - {kind: place, character: boss, at: [6, 4], rotate: 2}
  - {kind: place, character: aldric, at: [9, 8]}
  - {kind: place, character: wren, at: [2, 8]}
  - {kind: place, character: maelis, at: [9, 7]}
  - {kind: effect, character: boss, source: stomp, WALL}
  - {kind: round, number: 1}
  - {kind: draw, character: boss, cards: [stomp, walk, lumber, basic_attack]}
  - {kind: draw, character: wren, count: 4}
  - {kind: draw, character: aldric, count: 4}
  - {kind: draw, character: maelis, count: 4}
  - {kind: move, character: boss, card: stomp, anchor: [2, -1], path: [[5, 4], [5, 5], [5, 6]], rotate: 0}
allow:
  - {rule: BF-INIT-1, reason: "only the boss's move is tested"}
""".replace("WALL", WALL)


def test_a_boss_does_not_walk_through_a_one_hex_gap_it_fits_on_hex_by_hex(tmp_path):
    wide = "rubble: [[1, 5], [2, 5], [3, 5], [7, 5]]"
    checklogs.assert_break_and_twin(GAME, tmp_path, THROUGH, "BF-MOVE-1", WALL, wide, WALL, "kind: move",
                                    BUILDS, notes=True)
    # the same move given only by where it ends is read leniently (some way where the whole boss
    # fits in some facing on every hex): the stricter reading rejected moves of legal games
    to = THROUGH.replace("path: [[5, 4], [5, 5], [5, 6]]", "to: [5, 6]")
    code, probs, _ = checklogs.check(GAME, checklogs.write(tmp_path, to, "to.yaml", BUILDS))
    assert not checklogs.errors(probs), probs


FIVE = """\
party:
  name: The Five
  points_limit: none
  heroes:
""" + "".join(f"""    - id: {h}
      cards: {{walk: 10, basic_attack: 10, run: 10}}
""" for h in ("aldric", "wren", "maelis", "tormund", "vex"))


def test_a_party_of_five_heroes_with_no_points_limit_is_legal(tmp_path):
    path = tmp_path / "five.yaml"
    path.write_text(FIVE, encoding="utf-8")
    probs = Problems()
    kind, body, _ = cols.load_collection_file(path, game(GAME), probs)
    b = analyse(game(GAME), kind, body, probs)
    assert b is not None and len(b.characters) == 5
    assert not [p for p in probs.errors if p.rule == "BF-PLAYERS-1"], [p.text() for p in probs.errors]


BOSS_PLACED = "  - {kind: place, character: boss, at: [5, 5]}\n"
# BASE's header and heroes' places, the boss never placed, then card text that puts it on a hex
UNPLACED = (BASE[:BASE.index("  - {kind: round")].replace(BOSS_PLACED, "")
            + "  - {kind: effect, source: heavy_attack, target: boss, to: [5, 6]}\n")


def test_an_effect_puts_the_boss_by_its_anchor_even_before_it_is_placed(tmp_path):
    """The boss never placed (BF-PLACE-1), then card text puts it on a hex: it stands there by its
    anchor, as a placed boss moved the same way does (this was a TypeError, CHECK-INTERNAL)."""
    code, probs, final = checklogs.check(GAME, checklogs.write(tmp_path, UNPLACED))
    assert {p["rule"] for p in checklogs.errors(probs)} == {"BF-PLACE-1"}, probs
    placed = UNPLACED.replace("events:\n", "events:\n" + BOSS_PLACED)
    _, probs2, final2 = checklogs.check(GAME, checklogs.write(tmp_path, placed, "placed.yaml"))
    assert checklogs.errors(probs2) == [], probs2
    assert final is not None and final2 is not None
    assert [5, 6] in final["characters"]["boss"]["cells"]
    assert final["characters"]["boss"]["cells"] == final2["characters"]["boss"]["cells"]
