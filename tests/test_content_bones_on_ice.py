"""Bones on Ice content rules (BOI-CARD-1 … 3): each broken at its line, each with a legal twin;
the rules numbers printed on the cards come from params.yaml; the seed's mis-decoded sign never
reaches the content."""

import json
from pathlib import Path

import pytest

from cardgen.builder.pipeline import validate as lay_out_game
from cardgen.core.fonts import METRICS
from cardgen.core.problems import Problems
from cardgen.scene import Text
from tests.conftest import ROOT, has_problem, problems_json, run_cli

GAME = "bones_on_ice"
FEMURS = "cards/bones_on_ice/team_femurs.yaml"
CHAOS = "cards/bones_on_ice/chaos.yaml"
PARAMS = "rules/bones_on_ice/params.yaml"
CONSTRAINTS = "rules/bones_on_ice/constraints.yaml"
MOJIBAKE = "\u00e2\u2030\u00a5"       # how the seed's ≥ was mis-decoded

SULLY = "role: attacker, reflexes: d8, marksmanship: d12"
FRANK = "role: defender, reflexes: d8, marksmanship: d6"
RATTLEBONES = "role: goalie, reflexes: d12, marksmanship: d4"
EXTRA_SPIRIT = ('  - {id: femurs_spirit_2, name: Second Snap, type: spirit, team_name: Frostbite Femurs, '
                'color: "#2a6fb0", cost: 1, text: "Another one."}\n')


def line_of(rel: str, needle: str) -> int:
    text = (ROOT / rel).read_text(encoding="utf-8")
    assert needle in text, needle
    return text[: text.index(needle)].count("\n") + 1


def test_published_content_is_clean():
    code, probs = problems_json("validate", GAME)
    assert code == 0, probs
    assert probs == []


def test_cards_match_the_catalogue():
    code, out = run_cli("cards", GAME, "--format", "json")
    assert code == 0
    cards = json.loads(out)["cards"]
    by_type: dict[str, int] = {}
    for c in cards:
        by_type[c["type"]] = by_type.get(c["type"], 0) + c["copies"]
    assert by_type["spirit"] >= 4                      # at least 4 teams to choose from
    assert by_type["skater"] == 4 * by_type["spirit"]
    assert by_type["chaos"] == 6
    assert by_type["action"] == 6                      # move, shoot, pass, interception, tactical move, boost


# (rule, file, old, new): each edit breaks exactly that rule at the edited line.
BREAKS = [
    ("BOI-CARD-1", FEMURS, SULLY, "role: forward, reflexes: d8, marksmanship: d12"),
    ("BOI-CARD-1", FEMURS, SULLY, "role: attacker, reflexes: d7, marksmanship: d12"),
    ("BOI-CARD-1", FEMURS, SULLY, "role: attacker, reflexes: d8, marksmanship: d20"),
    ("BOI-CARD-2", FEMURS, FRANK, "role: attacker, reflexes: d8, marksmanship: d6"),       # 2 Attackers, 1 Defender
    ("BOI-CARD-2", FEMURS, RATTLEBONES, "role: defender, reflexes: d12, marksmanship: d4"),  # no Goalie, 3 Defenders
    ("BOI-CARD-2", FEMURS, "name: Cold Snap, type: spirit,", "name: Cold Snap, type: spirit, team: femurz,"),
    ("BOI-CARD-2", FEMURS, "  - {id: femurs_sully,", EXTRA_SPIRIT + "  - {id: femurs_sully,"),
    ("BOI-CARD-3", CHAOS, "face: 6, event: bonus", "face: 5, event: bonus"),            # two entries on face 5
    ("BOI-CARD-3", CHAOS, "face: 6, event: bonus", "face: 7, event: bonus"),            # a face a d6 lacks
    ("BOI-CARD-3", CHAOS, "face: 6, event: bonus", "face: 0, event: bonus"),            # no face 0 either
]
IDS = ["role", "die-reflexes", "die-marksmanship", "two-attackers", "no-goalie", "spirit-off-team",
       "second-spirit", "face-twice", "face-7", "face-0"]


@pytest.mark.parametrize("rule,rel,old,new", BREAKS, ids=IDS)
def test_rule_broken_at_its_line(game_copy, rule, rel, old, new):
    g = game_copy(GAME)
    line = g.edit(rel, old, new)
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, rule, rel.split("/")[-1], line), probs
    # a skater with a bad role or die is left out of its team, so its team is short too
    allowed = {rule, "BOI-CARD-2"} if rule == "BOI-CARD-1" else {rule}
    allowed |= {"BOARD-TABLE"} if rule == "BOI-CARD-3" else set()   # the rink prints the Chaos Table too
    assert {p["rule"] for p in probs} <= allowed, probs


def test_stat_dice_are_read_from_params(game_copy):
    """Without d12 in params.yaml stat_dice, every skater with a d12 breaks BOI-CARD-1 at its line."""
    g = game_copy(GAME)
    g.edit(PARAMS, "stat_dice: [d4, d6, d8, d10, d12]", "stat_dice: [d4, d6, d8, d10]")
    code, probs = g.validate()
    assert code == 1
    assert has_problem(probs, "BOI-CARD-1", "team_femurs.yaml", line_of(FEMURS, SULLY))
    assert has_problem(probs, "BOI-CARD-1", "team_femurs.yaml", line_of(FEMURS, RATTLEBONES))


def test_chaos_table_lacks_a_required_kind(game_copy):
    """No penalty shot among the entries: reported at the constraint that demands one."""
    g = game_copy(GAME)
    g.edit(CHAOS, "face: 1, event: penalty_shot", "face: 1, event: hazard")
    code, probs = g.validate()
    assert code == 1
    line = line_of(CONSTRAINTS, "groups_of: [penalty_shot, scramble, bonus]")
    assert has_problem(probs, "BOI-CARD-3", "constraints.yaml", line), probs
    assert any("penalty_shot" in p["message"] for p in probs)


def test_chaos_die_is_read_from_params(game_copy):
    """A d8 Chaos die in params.yaml wants eight entries: the six cards no longer suffice."""
    g = game_copy(GAME)
    g.edit(PARAMS, "  die: 6", "  die: 8")
    code, probs = g.validate()
    assert code == 1 and has_problem(probs, "BOI-CARD-3", "constraints.yaml"), probs


def test_chaos_faces_follow_the_die_in_params(game_copy):
    """With a d8 in params.yaml, faces 7 and 8 are legal and all eight are needed."""
    g = game_copy(GAME)
    g.edit(PARAMS, "  die: 6", "  die: 8")
    g.edit(CHAOS, "face: 6, event: bonus", "face: 8, event: bonus")
    code, probs = g.validate()
    assert code == 1 and {p["rule"] for p in probs} <= {"BOI-CARD-3", "BOARD-TABLE"}, probs
    assert not [p for p in probs if p["file"].endswith("chaos.yaml")], probs     # face 8 is a face of a d8
    assert any("6 groups" in p["message"] and "exactly 8" in p["message"] for p in probs), probs


def test_team_composition_is_read_from_params(game_copy):
    """Three Defenders per team in params.yaml: every team is now one short."""
    g = game_copy(GAME)
    g.edit(PARAMS, "  defender: 2", "  defender: 3")
    code, probs = g.validate()
    assert code == 1
    assert sum(p["rule"] == "BOI-CARD-2" for p in probs) >= 4, probs


@pytest.mark.parametrize("rule", sorted({b[0] for b in BREAKS}))
def test_rule_legal_twin(game_copy, rule):
    code, probs = game_copy(GAME).validate()
    assert code == 0 and not [p for p in probs if p["rule"] == rule]


# Legal edits next to the breaking ones: other allowed dice, roles swapped within a team,
# a fifth complete team, the chaos faces renumbered.
FIFTH_TEAM = """defaults: {team: ghouls, set: core}
cards:
  - {id: ghouls_spirit, name: Howl, type: spirit, team_name: Glacier Ghouls, color: "#446688", cost: 1, text: "Boo."}
  - {id: ghouls_a, name: Ghoul A, type: skater, role: attacker, reflexes: d4, marksmanship: d12}
  - {id: ghouls_d1, name: Ghoul B, type: skater, role: defender, reflexes: d10, marksmanship: d6}
  - {id: ghouls_d2, name: Ghoul C, type: skater, role: defender, reflexes: d6, marksmanship: d10}
  - {id: ghouls_g, name: Ghoul D, type: skater, role: goalie, reflexes: d12, marksmanship: d4}
"""


def test_legal_twins_pass(game_copy):
    g = game_copy(GAME)
    g.edit(FEMURS, SULLY, "role: attacker, reflexes: d4, marksmanship: d10")          # BOI-CARD-1
    g.edit(FEMURS, FRANK, "role: goalie, reflexes: d8, marksmanship: d6")             # BOI-CARD-2: roles swapped
    g.edit(FEMURS, RATTLEBONES, "role: defender, reflexes: d12, marksmanship: d4")
    g.write("cards/bones_on_ice/team_ghouls.yaml", FIFTH_TEAM)                       # BOI-CARD-2: a fifth team
    g.edit(CHAOS, "face: 1, event: penalty_shot", "face: 6, event: penalty_shot")     # BOI-CARD-3: faces swapped
    g.edit(CHAOS, "face: 6, event: bonus", "face: 1, event: bonus")
    code, probs = g.validate()
    assert code == 0, probs
    assert probs == []


def _texts_of(root: Path, card_id: str) -> str:
    probs = Problems()
    laid = lay_out_game(root, GAME, probs)
    assert laid is not None and not probs.errors, [str(p) for p in probs.errors]
    for group in laid.groups.values():
        for pl in group:
            if pl.card_id == card_id:
                return " ".join(t.text for t in pl.front if isinstance(t, Text))
    raise AssertionError(card_id)


def test_costs_and_numbers_on_cards_come_from_params(game_copy):
    g = game_copy(GAME)
    before = _texts_of(g.root, "action_pass")
    assert "1" in before.split()
    g.edit(PARAMS, "  pass: 1\n", "  pass: 7\n")
    g.edit(PARAMS, "  interception: 1\n", "  interception: 5\n")
    g.edit(PARAMS, "  bonus: 2 ", "  bonus: 4 ")
    g.edit(PARAMS, "  rounds: [5, 10, 15]", "  rounds: [4, 8, 12]")
    g.edit(PARAMS, "  recovery: 8 ", "  recovery: 9 ")
    assert "7" in _texts_of(g.root, "action_pass").split()
    assert "5" in _texts_of(g.root, "action_pass")
    assert "+4" in _texts_of(g.root, "action_boost")
    assert "4, 8 and 12" in _texts_of(g.root, "chaos_thin_ice")
    assert "recovers 9" in _texts_of(g.root, "summary_round")


def test_roster_and_team_name_are_read_from_the_cards(game_copy):
    g = game_copy(GAME)
    g.edit(FEMURS, "name: Slapshot Sully", "name: Wristshot Wally")
    g.edit(FEMURS, "team_name: Frostbite Femurs", "team_name: Frostbite Phalanges")
    assert "Wristshot Wally" in _texts_of(g.root, "femurs_spirit")
    assert "Frostbite Phalanges" in _texts_of(g.root, "femurs_frank")


def test_no_mojibake_in_the_content():
    files = [*(ROOT / "rules" / GAME).glob("*.yaml"), *(ROOT / "cards" / GAME).rglob("*.yaml"),
             *(ROOT / "templates" / GAME).glob("*.yaml")]
    assert files
    for f in files:
        assert MOJIBAKE not in f.read_text(encoding="utf-8"), f


def test_rulings_are_listed_with_ids():
    from cardgen.core.yamlsrc import load_yaml
    params = load_yaml(ROOT / PARAMS, Problems())
    ids = [r["id"] for r in params["rulings"]]
    assert {"BOI-CARD-3", "BOI-SETUP-2", "BOI-STAM-2", "BOI-MID-1", "BOI-1V1-1", "BOI-END-2"} <= set(ids)
    assert len(ids) == len(set(ids))
    assert all(isinstance(r["text"], str) and r["text"] for r in params["rulings"])


def test_the_rink_cards_lines_of_text_do_not_run_into_each_other():
    """Issue 32: the "Rink and Rolls" card printed DEFENSIVE ZONENEUTRAL ZONE — three centred
    labels wider than their zones. No two lines of text on the card's front overlap."""
    probs = Problems()
    laid = lay_out_game(ROOT, GAME, probs)
    assert laid is not None
    front = next(pl.front for group in laid.groups.values() for pl in group if pl.card_id == "summary_rink")
    lines = [t for t in front if isinstance(t, Text) and t.text.strip()]
    assert any(t.text == "NEUTRAL" for t in lines)

    def extent(t: Text) -> tuple[float, float]:
        w = METRICS.width_mm(t.text, t.font, t.size)
        left = t.x - (w / 2 if t.align == "center" else w if t.align == "right" else 0)
        return left, left + w
    for i, a in enumerate(lines):
        for b in lines[i + 1:]:
            if abs(a.y - b.y) < 0.5 * max(a.size, b.size) * 0.3528:       # the same line, within half a size
                (l1, r1), (l2, r2) = extent(a), extent(b)
                assert r1 <= l2 or r2 <= l1, f"{a.text!r} runs into {b.text!r}"


# A team's own starting Stamina: a Team Spirit card's `stamina` (a project addition; left out, the
# shared params.yaml stamina.start), bounded by the Stamina track (stamina.min … stamina.max).
SPIRIT_COST = 'color: "#2a6fb0", cost: 3,'


@pytest.mark.parametrize("value", [21, -1, "lots"])
def test_a_team_s_own_starting_stamina_off_the_track_is_one_problem_at_its_line(game_copy, value):
    g = game_copy(GAME)
    line = g.edit(FEMURS, SPIRIT_COST, f'{SPIRIT_COST[:-1]}, stamina: {value},')
    code, probs = g.validate()
    assert code == 1
    # the card type names the rule
    assert [(p["rule"], p["line"]) for p in probs] == [("BOI-STAM-1", line)], probs


def test_a_team_s_own_starting_stamina_legal_twin_is_printed_on_its_spirit_card(game_copy):
    g = game_copy(GAME)
    assert "STARTS WITH" not in _texts_of(g.root, "femurs_spirit")        # the shipped teams: the shared 20
    g.edit(FEMURS, SPIRIT_COST, f'{SPIRIT_COST[:-1]}, stamina: 20,')
    assert "STARTS WITH" not in _texts_of(g.root, "femurs_spirit")        # the shared number: nothing to say
    g.edit(FEMURS, "stamina: 20,", "stamina: 18,")
    code, probs = g.validate()
    assert (code, probs) == (0, [])
    assert "STARTS WITH 18 STAMINA" in _texts_of(g.root, "femurs_spirit")
    assert "STARTS WITH" not in _texts_of(g.root, "titans_spirit")
    g.edit(PARAMS, "  max: 20\n", "  max: 24\n")                               # the track's bounds are params
    g.edit(FEMURS, "stamina: 18,", "stamina: 24,")
    assert g.validate() == (0, [])
