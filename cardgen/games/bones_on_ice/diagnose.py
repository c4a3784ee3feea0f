"""Bones on Ice — a roll's dice checked (BOI-ROLL-1, Dead Eye's dice: BOI-SPIRIT-1) and, when the
log's winner differs from the rules', the rule the table most likely missed: a bonus it forgot
(Boost, zone bonus, Grave Wall, a Chaos bonus), a tie, or the higher roll."""

from __future__ import annotations

from typing import Any

from cardgen.core.record import record
from cardgen.games.bones_on_ice.rules import tie_winner, zone_mods
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.transitions import TIES, ZONE_ROLL
from cardgen.games.bones_on_ice.words import STAT_NAMES, label, short
from cardgen.play.api import Action
from cardgen.play.dice import die_slip, off_die
from cardgen.play.replay import Finding

WHAT = {"faceoff": "Face-Off", "move": "Move", "shoot": "Shoot roll", "intercept": "Interception",
        "one_v_one": "1v1", "rebound": "rebound", "penalty_shot": "penalty shot",
        "shootout": "shootout round"}
BASE = {"faceoff": "BOI-FO-1", "move": "BOI-ROLL-2", "shoot": "BOI-ROLL-2", "intercept": "BOI-ROLL-2"}


@record
class Side:
    """One side of a roll: who rolls which die, the value, and what is added to it."""

    sk: int
    name: str
    team: int
    sides: int
    card_die: int
    raw: Any
    value: int
    mods: list[tuple[str, int, str]]  # (label, amount, rule)

    def total(self, without: int | None = None) -> int:
        return self.value + sum(m[1] for i, m in enumerate(self.mods) if i != without)

    def text(self) -> str:
        shown = f"{list(self.raw)}" if isinstance(self.raw, list | tuple) else f"{self.value}"
        if self.sides != self.card_die:
            shown += f" (d{self.sides})"
        if not self.mods:
            return f"{self.name} {shown}"
        return f"{self.name} {shown}" + "".join(f"+{m[1]} {m[0]}" for m in self.mods) + f" = {self.total()}"


def dice_slips(st: BoiState, a: Action) -> list[Finding]:
    """The dice a roll shows that its dice cannot (BOI-ROLL-1), or Dead Eye's count (BOI-SPIRIT-1)."""
    roll = st.roll
    assert roll is not None
    out = []
    for i, raw in enumerate(a["rolls"]):
        sk, stat = (roll["a"], roll["a_stat"]) if i == 0 else (roll["d"], roll["d_stat"])
        sides, best = roll["sides"][i], roll["best"][i]
        what = f"{short(st, sk)}'s {STAT_NAMES.get(stat, stat)} d{sides}"
        if isinstance(raw, tuple):
            if best == 1:
                out.append(Finding("BOI-ROLL-1", f"{what} is rolled once; the log gives {list(raw)}",
                                   "rolls"))
            elif len(raw) != best:
                out.append(Finding("BOI-SPIRIT-1",
                                   f"{what} is rolled {best} times, keeping the higher; the log gives "
                                   f"{list(raw)}", "rolls"))
            out += [_face(what, v, sides) for v in raw if off_die(v, sides)]
        else:
            if best > 1:
                out.append(Finding("BOI-SPIRIT-1",
                                   f"{what} is rolled {best} times, keeping the higher; record every "
                                   "value, e.g. [3, 9]", "rolls"))
            if off_die(raw, sides):
                out.append(_face(what, raw, sides))
    return out


def _face(what: str, v: Any, sides: int) -> Finding:
    return Finding("BOI-ROLL-1", die_slip(what, v, sides), "rolls")


def sides_of(st: BoiState, a: Action) -> tuple[Side, Side]:
    """The roll under way as two sides with their bonuses (Boost, zone, Chaos)."""
    roll = st.roll
    assert roll is not None
    r, P, kind = st.r, st.s.pieces, roll["kind"]
    out = []
    for i, raw in enumerate(a["rolls"]):
        sk, stat = (roll["a"], roll["a_stat"]) if i == 0 else (roll["d"], roll["d_stat"])
        value = max([x for x in raw if type(x) is int] or [0]) if isinstance(raw, tuple) else \
            raw if type(raw) is int else 0
        team = P[sk].team
        mods = [("Boost", r.boost_bonus, "BOI-STAM-2") for t in roll["boosts"] if t == team]
        out.append(Side(sk, short(st, sk), team, roll["sides"][i], P[sk].dice.get(stat, 0), raw, value, mods))
    sa, sd = out
    za, zd, zrule = zone_mods(r, ZONE_ROLL.get(kind, kind), roll["a_stat"], sa.team,
                              st.shot_pos if kind == "one_v_one" else st.pos[sa.sk], roll["d_stat"], sd.team,
                              st.pos[sd.sk], st.grave[sd.team])
    if za:
        sa.mods.append(("Attack Bonus", za, "BOI-ZONE-1"))
    if zd:
        card = st.s.spirits[sd.team]
        sd.mods.append(("Defense Bonus" if zrule == "BOI-ZONE-2" or card is None else card.name, zd, zrule))
    if st.roll_bonus is not None:
        team, amount = st.roll_bonus
        chaos = next((c.name for c in r.by_type.get("chaos", []) if c.id == st.entry_id), "Chaos")
        for side in (sa, sd):
            if side.team == team:
                side.mods.append((chaos, amount, "BOI-CHAOS-2"))
    return sa, sd


def _winner(sa: Side, sd: Side, tie: str, skip_a: int | None = None,
            skip_d: int | None = None) -> Side | None:
    w = tie_winner(sa.total(skip_a), sd.total(skip_d), tie)
    return sa if w == "a" else sd if w == "d" else None


def diagnose(st: BoiState, a: Action, ev: dict[str, Any]) -> list[Finding]:
    """The log's winner (``won`` of the dice) is not the rules': the rule the table most likely missed."""
    roll = st.roll
    assert roll is not None
    kind = roll["kind"]
    sa, sd = sides_of(st, a)
    tie = st.r.ties[TIES[kind]]
    stated = sa.team if a.get("won") == "a" else sd.team
    what = WHAT[kind] if kind != "shootout" else f"shootout round {min(_shots(st)) + 1}"
    base = BASE.get(kind, "BOI-1V1-1")
    field = "goal" if ev.get("goal") is not None else "winner"
    winner = _winner(sa, sd, tie)
    says = f"the rules give it to the {label(st, winner.team)}" if winner else "it is a tie, re-rolled"
    detail = f"({sa.text()} vs {sd.text()})"
    for side in (sa, sd):
        for i, (name, amount, rule) in enumerate(side.mods):
            alt = _winner(sa, sd, tie, i if side is sa else None, i if side is sd else None)
            if alt is not None and alt.team == stated:
                return [Finding(rule,
                                f"the log gives the {what} to the {label(st, stated)}; with {side.name}'s "
                                f"+{amount} {name} {says} {detail}", field)]
    if sa.total() == sd.total():
        if tie == "reroll":
            return [Finding("BOI-ROLL-2", f"the {what} is tied {detail}: a tied Face-Off is re-rolled",
                            field)]
        who = winner.name if winner else "?"
        return [Finding(base, f"the log gives the {what} to the {label(st, stated)}, but a tie goes to {who} "
                        f"({'the Goalie' if base == 'BOI-1V1-1' else 'the defender'}) {detail}", field)]
    return [Finding(base, f"the log gives the {what} to the {label(st, stated)}, but the higher roll wins: "
                    f"{says} {detail}", field)]


def _shots(st: BoiState) -> list[int]:
    return [sum(1 for t, _ in st.shots if t == k) for k in (0, 1)]
