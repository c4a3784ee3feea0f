"""Bones on Ice — the rule an action the state does not allow breaks (the catalogue's words).

Each check is a predicate over the same state the legal actions come from; an action that breaks
several rules names each (one problem per rule). What the log records is then played as recorded:
a skater who is not the carrier and shoots takes the puck first (the slip is named once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardgen.games.bones_on_ice.diagnose import diagnose, dice_slips
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.words import chaos_name, label, short, zone_name
from cardgen.play.api import Action
from cardgen.play.dice import die_slip, off_die
from cardgen.play.replay import Finding

if TYPE_CHECKING:
    from cardgen.games.bones_on_ice.instep import InStep

COST = {"move": "move", "shoot": "shoot", "pass": "pass", "tactical_move": "tactical_move",
        "intercept": "interception"}
WHAT = {"move": "a Move", "shoot": "a Shoot", "pass": "a Pass", "tactical_move": "a Tactical Move",
        "intercept": "an Interception attempt"}


def why_not(st: BoiState, a: Action, ev: dict[str, Any], step: InStep) -> list[Finding]:
    check = CHECKS.get(a.kind)
    found = check(st, a, ev) if check is not None else []
    return found or [Finding("BOI-ROUND-1",
                             f"'{ev['kind']}' does not come here (round {st.round}, {st.phase})")]


def _mid(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    """A Mid-Game action: who may act (BOI-MID-1), what it costs (BOI-STAM-1)."""
    sk = st.piece(a["skater"])
    p = st.s.pieces[sk]
    out = []
    if p.role not in st.r.acting_roles:
        if a.kind == "tactical_move":
            out.append(Finding("BOI-SETUP-2",
                               f"{short(st, sk)} is a Goalie: Goalies stay in their own Defensive Zone",
                               "skater"))
        else:
            out.append(Finding("BOI-MID-1",
                               f"{short(st, sk)} is a Goalie: the Goalie takes no action in the Mid-Game",
                               "skater"))
    elif st.active is not None and p.team != st.active:
        out.append(Finding("BOI-MID-1", f"{short(st, sk)} plays for the {label(st, p.team)}; only the "
                           f"{label(st, st.active)} (who won the Face-Off) act in this Mid-Game", "skater"))
    elif st.acted[sk] >= 1 + st.extra[sk]:
        out.append(Finding("BOI-MID-1",
                           f"{short(st, sk)} already acted in this Mid-Game (one action per skater)",
                           "skater"))
    return out


def _pay(st: BoiState, team: int, amount: int, what: str, field: str | None = None) -> list[Finding]:
    if 0 < amount and st.stamina[team] < amount:
        return [Finding("BOI-STAM-1", f"the {label(st, team)} pay {amount} Stamina for {what} but have only "
                        f"{st.stamina[team]}", field)]
    return []


def _carrier(st: BoiState, sk: int, rule: str, verb: str) -> list[Finding]:
    if st.puck == sk:
        return []
    holder = f"{short(st, st.puck)} has it" if st.puck is not None else "nobody has it"
    st.puck = sk  # as recorded: the log's skater has the puck
    return [Finding(rule, f"only the puck carrier {verb}; {short(st, sk)} does not have the puck ({holder})",
                    "skater")]


def _adjacent(st: BoiState, sk: int, zone: str, rule: str, what: str) -> list[Finding]:
    p = st.s.pieces[sk]
    dest = st.r.pos(p.team, st.r.zones.index(zone))
    if abs(dest - st.pos[sk]) == 1:
        return []
    return [Finding(rule, f"{short(st, sk)} is in the {zone_name(st, p.team, st.pos[sk])}: {what} goes to an "
                    f"adjacent zone, not the {zone_name(st, p.team, dest)}", "zone")]


def _cost(st: BoiState, a: Action) -> list[Finding]:
    team = st.s.pieces[st.piece(a["skater"])].team
    return _pay(st, team, st.r.costs[COST[a.kind]], WHAT[a.kind])


def move(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    sk = st.piece(a["skater"])
    return [*_mid(st, a, ev), *_carrier(st, sk, "BOI-MID-2", "moves with the puck"),
            *_adjacent(st, sk, a["zone"], "BOI-MID-2", "a Move"), *_cost(st, a)]


def shoot(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    sk = st.piece(a["skater"])
    return [*_mid(st, a, ev), *_carrier(st, sk, "BOI-MID-3", "shoots"), *_cost(st, a)]


def pass_(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    sk, to = st.piece(a["skater"]), st.piece(a["to"])
    out = [*_mid(st, a, ev), *_carrier(st, sk, "BOI-MID-4", "passes")]
    P = st.s.pieces
    if P[to].team != P[sk].team or to == sk:
        out.append(Finding("BOI-MID-4", f"a Pass goes to a teammate; {short(st, to)} is "
                           f"{'the passer' if to == sk else 'an opponent'}", "to"))
    elif abs(st.pos[to] - st.pos[sk]) > 1:
        team = P[sk].team
        out.append(Finding("BOI-MID-4",
                           f"{short(st, to)} is in the {zone_name(st, team, st.pos[to])}, {short(st, sk)} "
                           f"in the {zone_name(st, team, st.pos[sk])}: a Pass goes to a teammate in the "
                           "same or an adjacent zone", "to"))
    return out + _cost(st, a)


def tactical(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    sk = st.piece(a["skater"])
    out = _mid(st, a, ev)
    if st.puck == sk:
        out.append(Finding("BOI-MID-5",
                           f"{short(st, sk)} has the puck: a Tactical Move is for a skater without it (the "
                           "carrier Moves)", "skater"))
    return out + _adjacent(st, sk, a["zone"], "BOI-MID-5", "a Tactical Move") + _cost(st, a)


def defend(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    roll = st.roll
    assert roll is not None
    d, against = st.piece(a["skater"]), roll["a"]
    what = "block the shot" if roll["kind"] == "shoot" else "defend"
    P = st.s.pieces
    if P[d].team == P[against].team:
        return [Finding("BOI-MID-6",
                        f"{short(st, d)} is {short(st, against)}'s teammate; the opponent picks one of its "
                        f"own skaters to {what}", "defender")]
    return [Finding("BOI-MID-6",
                    f"{short(st, d)} is the Goalie; the opponent picks a skater other than the Goalie to "
                    f"{what}", "defender")]


def intercept(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    sk = st.piece(a["skater"])
    P = st.s.pieces
    passer = st.pass_info[0] if st.pass_info else sk
    if P[sk].team == P[passer].team:
        out = [Finding("BOI-MID-6",
                       f"{short(st, sk)} is {short(st, passer)}'s teammate; the opponent intercepts",
                       "skater")]
    elif P[sk].role not in st.r.defending_roles:
        out = [Finding("BOI-MID-6",
                       f"{short(st, sk)} is the Goalie; the opponent intercepts with a skater other than "
                       "the Goalie", "skater")]
    else:
        out = []
    return out + _cost(st, a)


def boost(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    team = st.players.index(a["team"])
    out = []
    if st.no_boost:
        out.append(Finding("BOI-CHAOS-2", f"{chaos_name(st)}: no team may Boost a roll this round",
                           "boosts"))
    return out + _pay(st, team, st.r.costs["boost"], "a Boost", "boosts")


def rolls(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    slips = dice_slips(st, a)
    read = all(isinstance(v, int) or (isinstance(v, tuple) and v) for v in a["rolls"])
    return slips + (diagnose(st, a, ev) if read and "won" in dict(a.items) else [])


def faceoff(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    if a["skater"] is None:
        missing = label(st, st.current_player())
        return [Finding("BOI-FO-1",
                        f"each team picks one skater for the Face-Off; the log names none for the {missing}",
                        "skaters")]
    sk = st.piece(a["skater"])
    if st.s.pieces[sk].role not in st.r.acting_roles:
        return [Finding("BOI-FO-1",
                        f"{short(st, sk)} is a Goalie: each team picks a skater other than the Goalie for "
                        "the Face-Off", "skaters")]
    return [Finding("BOI-FO-1", f"each team picks one skater for the Face-Off; {short(st, sk)} plays for the "
                    f"{label(st, st.s.pieces[sk].team)}", "skaters")]


def round_start(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    expected = st.round + 1
    return [Finding("BOI-ROUND-1",
                    f"the log says round {a['round']} starts, but round {expected} comes next (round "
                    f"{st.round} was the last one played); the replay goes on from round {a['round']}",
                    "round")]


def chaos(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    """The Chaos die (BOI-ROLL-1) and the entry its face gives (BOI-CHAOS-1)."""
    die, r = a.get("die"), st.r
    if off_die(die, r.chaos_die):
        return [Finding("BOI-ROLL-1", die_slip("the Chaos die", die, r.chaos_die), "die")]
    rolled, stated = (r.chaos_card(die),
                      next((c for c in r.by_type.get("chaos", []) if c.id == a.get("entry")), None))
    if rolled is not None and stated is not None and rolled is not stated:
        return [Finding("BOI-CHAOS-1", f"the Chaos die shows {die}: that is {rolled.name}, not {stated.name}",
                        "entry")]
    return []


CHECKS: dict[str, Callable[[BoiState, Action, dict[str, Any]], list[Finding]]] = {"move": move,
                                                                                  "shoot": shoot,
                                                                                  "pass": pass_,
                                                                                  "tactical_move": tactical,
                                                                                  "defend": defend,
                                                                                  "intercept": intercept,
                                                                                  "boost": boost,
                                                                                  "rolls": rolls,
                                                                                  "faceoff": faceoff,
                                                                                  "round_start": round_start,
                                                                                  "chaos": chaos}


def team_spirit(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    """A Team Spirit (BOI-SPIRIT-1): once a round, paid, at its moment, naming the right skater."""
    team = st.players.index(a["team"])
    card, eff = st.spirit(team)
    if card is None or eff is None:
        return [Finding("BOI-SPIRIT-1", f"the {label(st, team)} have no Team Spirit to use")]
    out = []
    if st.spirit_uses[team] >= st.r.spirit_per_round:
        out.append(Finding("BOI-SPIRIT-1",
                           f"the {label(st, team)} already used {card.name} this round (at most "
                           f"{st.r.spirit_per_round} per round)"))
    out += _pay(st, team, int(card.get("cost") or 0), card.name)
    return out + SPIRIT_MOMENT[eff["effect"]](st, a, team, card.name)


def _bone_rush(st: BoiState, a: Action, team: int, name: str) -> list[Finding]:
    out = []
    if team != st.active or st.phase not in ("mid", "pass"):
        out.append(Finding("BOI-SPIRIT-1", f"{name} is used in the {label(st, team)}' own Mid-Game"))
    sk = st.piece(a["skater"]) if a.get("skater") is not None else None
    if sk is not None and (st.s.pieces[sk].team != team or not st.acted[sk]):
        out.append(Finding("BOI-SPIRIT-1", f"{name} names a {label(st, team)} skater that has already acted; "
                           f"{short(st, sk)} has not", "skater"))
    return out


def _cold_snap(st: BoiState, a: Action, team: int, name: str) -> list[Finding]:
    sk = st.piece(a["skater"]) if a.get("skater") is not None else None
    if sk is not None and st.s.pieces[sk].team == team:
        return [Finding("BOI-SPIRIT-1",
                        f"{name} names an opposing skater; {short(st, sk)} is a {label(st, team)} skater",
                        "skater")]
    return []


def _dead_eye(st: BoiState, a: Action, team: int, name: str) -> list[Finding]:
    sk = st.piece(a["skater"]) if a.get("skater") is not None else None
    if sk is not None and st.s.pieces[sk].team != team:
        return [Finding("BOI-SPIRIT-1",
                        f"{name} names one of the {label(st, team)}' skaters; {short(st, sk)} is not",
                        "skater")]
    return []


def _grave_wall(st: BoiState, a: Action, team: int, name: str) -> list[Finding]:
    if st.phase not in ("mid", "window") or team == st.active or any(st.acted):
        return [Finding("BOI-SPIRIT-1",
                        f"{name} is used at the start of the opponent's Mid-Game, before its first action")]
    return []


def no_roll(st: BoiState, a: Action) -> Finding:
    """A Team Spirit for a roll that names a skater who makes none (its effect is not applied)."""
    roll = st.roll
    assert roll is not None
    team = st.players.index(a["team"])
    card, eff = st.spirit(team)
    name = card.name if card is not None else a["team"]
    what = "Marksmanship " if eff and eff["effect"] == "best_of" else ""
    return Finding("BOI-SPIRIT-1",
                   f"the {label(st, team)}' {name} names {short(st, st.piece(a['skater']))}, who makes no "
                   f"{what}roll in this {WHAT_ROLL.get(roll['kind'], roll['kind'])}")


WHAT_ROLL = {"faceoff": "Face-Off", "move": "Move", "shoot": "Shoot roll", "intercept": "Interception",
             "one_v_one": "1v1", "rebound": "rebound", "penalty_shot": "penalty shot", "shootout": "shootout"}
SPIRIT_MOMENT = {"extra_action": _bone_rush, "opponent_die": _cold_snap, "best_of": _dead_eye,
                 "defense_everywhere": _grave_wall}
CHECKS["team_spirit"] = team_spirit
