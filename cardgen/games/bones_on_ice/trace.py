"""Bones on Ice — the trace of a replayed log (``cardgen check --trace``): each event as the table
saw it (the dice with every bonus, who took the puck), the rink and the score at each Recovery."""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.diagnose import Side
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.words import chaos_name, label, short, zone_name

#: (initiator's side, defender's side, outcome 'a'/'d'/None) of each roll of an event
Rolled = list[tuple[Side, Side, str | None]]


def score_text(st: BoiState) -> str:
    return f"{label(st, 0)} {st.score[0]} – {st.score[1]} {label(st, 1)}"


def stamina_text(st: BoiState) -> str:
    return ", ".join(
        f"{label(st, t)} {st.stamina[t]}" + (" (Exhausted)" if st.touched[t] else "") for t in (0, 1)
    )


def rink_text(st: BoiState, puck: int | None) -> str:
    r, parts, n = st.r, [], len(st.r.zones)
    for pos in range(n):
        if pos in (0, n - 1):
            owner = 0 if pos == 0 else 1
            name = f"{label(st, owner)}' {r.zone_names.get(r.zones[0], r.zones[0])}"
        else:
            name = str(r.zone_names.get(r.zones[pos], r.zones[pos]))
        here = [("●" if i == puck else "") + short(st, i) for i in range(len(st.pos)) if st.pos[i] == pos]
        parts.append(f"{name}: {', '.join(here) or '—'}")
    return " | ".join(parts)


def state_lines(st: BoiState, title: str, puck: int | None) -> list[str]:
    holder = f"{short(st, puck)} ({label(st, st.s.pieces[puck].team)})" if puck is not None else "none"
    return [f"      {title}: {score_text(st)} · Stamina {stamina_text(st)} · puck: {holder}",
            f"        rink: {rink_text(st, puck)}"]


def describe(st: BoiState, ev: dict[str, Any], rolled: Rolled, pre: BoiState) -> list[str]:
    """The trace lines of ``ev`` (``rolled``: its rolls; ``pre``: the table before it)."""
    kind = ev["kind"]
    if kind == "round_start":
        return [f"— round {st.round}{' (Chaos)' if st.round in st.r.chaos_rounds else ''} —"]
    if kind == "recovery":
        return recovery(st, pre.puck)
    if kind in ROLLS and rolled:
        return [line for sa, sd, w in rolled for line in ROLLS[kind](st, ev, sa, sd, w, pre)]
    write = OTHER.get(kind)
    return write(st, ev, pre) if write is not None else [kind]


def _vs(sa: Side, sd: Side) -> str:
    return f"{sa.text()} vs {sd.text()}"


def faceoff(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None, pre: BoiState) -> list[str]:
    first, second = (sd, sa) if (ev.get("skaters") or [None])[0] == st.s.pieces[sd.sk].id else (sa, sd)
    if w is None:
        return [f"Face-Off: {_vs(first, second)} — tie, re-roll"]
    won = sa if w == "a" else sd
    return [f"Face-Off: {_vs(first, second)} → {won.name}: the {label(st, won.team)} have the puck"]


def move(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None, pre: BoiState) -> list[str]:
    team = sa.team
    frm = zone_name(st, team, pre.pos[sa.sk])
    to = str(st.r.zone_names.get(ev["zone"], ev["zone"]))
    if w == "a":
        return [f"{sa.name} moves {frm} → {to} past {sd.name}: {_vs(sa, sd)} → through"]
    return [f"{sa.name} tries {frm} → {to}, {sd.name} defends: {_vs(sa, sd)} → stopped, {sd.name} takes "
            f"the puck; the {label(st, team)}' Mid-Game ends"]


def shoot(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None, pre: BoiState) -> list[str]:
    where = zone_name(st, sa.team, pre.pos[sa.sk])
    head = f"{sa.name} shoots from the {where}, {sd.name} blocks: {_vs(sa, sd)} →"
    if w == "a":
        return [f"{head} through to the 1v1"]
    if st.r.blocked_shot == "blocker":
        return [f"{head} blocked, {sd.name} takes the puck; the {label(st, sa.team)}' Mid-Game ends"]
    return [f"{head} blocked, {sa.name} keeps the puck"]


def intercept(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None,
              pre: BoiState) -> list[str]:
    if w == "d":
        return [f"{sd.name} intercepts: {_vs(sa, sd)} → intercepted, {sd.name} takes the puck; the "
                f"{label(st, sa.team)}' Mid-Game ends"]
    to = short(st, st.puck) if st.puck is not None else "?"
    return [f"{sd.name} intercepts: {_vs(sa, sd)} → the pass reaches {to}"]


def shot(what: str) -> Any:
    def write(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None,
              pre: BoiState) -> list[str]:
        head = what if what != "shootout" else f"shootout round {min(_shots(pre)) + 1}"
        if w == "a":
            goal = f"GOAL! {score_text(st)}" if what != "shootout" else "GOAL"
            out = [f"{head}: {_vs(sa, sd)} → {goal}"]
        else:
            out = [f"{head}: {_vs(sa, sd)} → SAVE by {sd.name}"]
        return out + (shootout_end(st) if what == "shootout" else [])
    return write


def shootout_end(st: BoiState) -> list[str]:
    """After a shootout round: the goals so far, and the winner once it is decided."""
    n = _shots(st)
    if n[0] != n[1] or n[0] < st.r.shootout_rounds:
        return []
    out = [f"      shootout after {n[0]} round(s): {label(st, 0)} {st.so[0]} – {st.so[1]} {label(st, 1)}"]
    if st.phase == "over":
        out.append(f"      the {label(st, st.winner)} win (shootout)" if st.winner is not None
                   else "      the game ends in a draw")
    return out


def rebound(st: BoiState, ev: dict[str, Any], sa: Side, sd: Side, w: str | None, pre: BoiState) -> list[str]:
    if w == "a":
        return [f"rebound: {_vs(sa, sd)} → {sa.name} keeps the puck"]
    return [f"rebound: {_vs(sa, sd)} → {sd.name} covers the puck; the {label(st, sa.team)}' Mid-Game ends"]


def _shots(st: BoiState) -> list[int]:
    return [sum(1 for t, _ in st.shots if t == k) for k in (0, 1)]


def recovery(st: BoiState, puck: int | None) -> list[str]:
    r = st.r
    gains = ", ".join(
        f"{label(st, t)} +{r.exhausted_recovery if st.touched[t] else r.recovery}" for t in (0, 1)
    )
    out = [f"Recovery: {gains}", *state_lines(st, f"end of round {st.round}", puck)]
    if st.phase == "over":
        out.append(f"      the {label(st, st.winner)} win (regulation)"
                   if st.winner is not None
                   else "      the game ends in a draw")
    elif st.phase == "shootout":
        first = st.last_fo if st.last_fo is not None else 0
        out.append(f"      tied {st.score[0]}–{st.score[1]} after round {r.rounds}: shootout of "
                   f"{r.shootout_rounds} rounds, the {label(st, first)} shoot first")
    return out


def tactical(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    sk = st.piece(ev["skater"])
    team = st.s.pieces[sk].team
    frm, to = zone_name(st, team, pre.pos[sk]), zone_name(st, team, st.pos[sk])
    return [f"{short(st, sk)} skates {frm} → {to} (Tactical Move); {label(st, team)} Stamina "
            f"{st.stamina[team]}"]


def pass_(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    sk, to = st.piece(ev["skater"]), st.piece(ev["to"])
    team = st.s.pieces[sk].team
    return [f"{short(st, sk)} passes to {short(st, to)} ({zone_name(st, team, st.pos[to])}); "
            f"{label(st, team)} Stamina {st.stamina[team]}"]


def chaos(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    if st.entry_id is None:
        return [f"Chaos die {ev.get('die')}: no entry"]
    eff, name = st.effect, chaos_name(st)
    kind = eff.get("effect")
    text = f"Chaos die {ev.get('die')}: {name}"
    if kind == "penalty_shot":
        text += f" — penalty shot for the {' then the '.join(label(st, t) for t in st.penalty_queue)}"
    elif kind == "scramble":
        text += " — every skater but the Goalies is scrambled after the Face-Off"
    elif kind == "recover":
        who = [t for t in (0, 1) if eff.get("who", "all") == "all" or _trailing(st, t, eff)]
        text += (f" — {' and '.join(label(st, t) for t in who)} recover {eff.get('amount')} Stamina "
                 f"({stamina_text(st)})" if who else " — nobody")
    elif kind == "win_faceoff":
        text += (
            f" — the {label(st, st.power_play)} win the Face-Off without a roll"
            if st.power_play is not None
            else " — level score: the Face-Off is rolled as usual"
        )
    elif kind == "no_boost":
        text += " — no Boosts this round"
    elif kind == "roll_bonus":
        text += (
            f" — the {label(st, st.roll_bonus[0])} add {st.roll_bonus[1]} to every roll this round"
            if st.roll_bonus is not None
            else " — level score: nobody"
        )
    return [text]


def _trailing(st: BoiState, t: int, eff: dict[str, Any]) -> bool:
    if st.score[0] == st.score[1]:
        return eff.get("level") == "both"
    return st.score[t] < st.score[1 - t]


def scramble(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    rolled = [(st.piece(sid), v) for sid, v in (ev.get("rolls") or {}).items()]
    moved = [f"{short(st, i)} {v}→{zone_name(st, st.s.pieces[i].team, st.pos[i])}" for i, v in rolled
             if st.s.pieces[i].role != st.r.goalie_role]
    return ["scramble: " + ", ".join(moved), f"        rink: {rink_text(st, st.puck)}"]


def team_spirit(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    team = st.players.index(ev["team"])
    card, eff = st.spirit(team)
    if card is None or eff is None:
        return ["team_spirit"]
    text = f"the {label(st, team)} use {card.name} ({card.get('cost')} Stamina, now {st.stamina[team]})"
    sk = short(st, st.piece(ev["skater"])) if ev.get("skater") is not None else "?"
    return [text
            + {
                "extra_action": f": {sk} acts once more",
                "opponent_die": f": {sk} rolls a d{eff.get('die')} in the next roll",
                "best_of": f": {sk} rolls {eff.get('dice')} dice and keeps the higher",
                "defense_everywhere": ": Defense Bonus in every zone until this Mid-Game ends",
            }.get(eff["effect"], "")]


def penalty_power_play(st: BoiState, ev: dict[str, Any], pre: BoiState) -> list[str]:
    """A Face-Off with no roll (Power Play)."""
    holder = st.puck if st.puck is not None else 0
    return [f"Face-Off: {chaos_name(st)} gives it to {short(st, holder)}: the "
            f"{label(st, st.s.pieces[holder].team)} have the puck"]


ROLLS = {"faceoff": faceoff, "move": move, "shoot": shoot, "intercept": intercept, "one_v_one": shot("1v1"),
         "penalty_shot": shot("penalty shot"), "shootout": shot("shootout"), "rebound": rebound}
OTHER = {"tactical_move": tactical, "pass": pass_, "chaos": chaos, "scramble": scramble,
         "team_spirit": team_spirit, "faceoff": penalty_power_play}
