"""Bones on Ice — the consequences a log states (Stamina, score, shootout goals, the Chaos
entry, the 1v1's shooter) compared with the state's, each then taken as recorded."""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.state import BoiState
from cardgen.games.bones_on_ice.words import label
from cardgen.play.replay import Finding
from cardgen.play.resync import slip_settled

STAMINA_RULE = {"chaos": "BOI-CHAOS-2", "recovery": "BOI-REC-1"}
SCORED = ("recovery", "one_v_one", "penalty_shot")


def claims(st: BoiState, ev: dict[str, Any], offsets: dict[Any, int]) -> list[Finding]:
    """The stated Score and Stamina of ``ev``; a value the table wrote wrong once and then played
    on from the right one is one problem (``offsets``: :func:`cardgen.play.resync.slip_settled`)."""
    kind = ev["kind"]
    out = []
    if isinstance(ev.get("score"), dict) and (kind in SCORED or kind == "shootout"):
        out += scores(st, ev["score"], kind == "shootout", offsets)
    if isinstance(ev.get("stamina"), dict):
        out += _stamina(st, ev["stamina"], STAMINA_RULE.get(kind, "BOI-STAM-2"), offsets)
    return out


def _claim(rule: str, what: str, stated: Any, have: Any, field: str,
           offsets: dict[Any, int]) -> list[Finding]:
    if stated is None or slip_settled(offsets, what, stated, have):
        return []
    return [Finding(rule, f"the log says {what} is {stated!r}, but the rules give {have!r}", field)]


def _stamina(st: BoiState, stated: dict[str, Any], rule: str, offsets: dict[Any, int]) -> list[Finding]:
    r, out = st.r, []
    for key, v in stated.items():
        t = st.players.index(key)
        if not isinstance(v, int) or isinstance(v, bool):
            continue
        if not r.st_min <= v <= r.st_max:
            out.append(Finding("BOI-STAM-1",
                               f"the log gives the {label(st, t)} {v} Stamina; Stamina stays within "
                               f"{r.st_min}–{r.st_max}", "stamina"))
        out += _claim(rule, f"the {label(st, t)}' Stamina", v, st.stamina[t], "stamina", offsets)
        st.stamina[t] = v
        if v <= r.st_min:
            st.touched[t] = True
    return out


def scores(st: BoiState, stated: dict[str, Any], shootout: bool, offsets: dict[Any, int]) -> list[Finding]:
    out = []
    for key, v in stated.items():
        t = st.players.index(key)
        have = st.so if shootout else st.score
        out += _claim("BOI-END-2" if shootout else "BOI-1V1-1",
                      f"the {label(st, t)}' {'shootout goals' if shootout else 'score'}", v, have[t], "score",
                      offsets)
        if isinstance(v, int) and not isinstance(v, bool):
            have[t] = v
    return out
