"""Bones on Ice — the log's words as the state's ids: skaters, teams and zones by every name
they answer to (a name that matches nothing is a ``LOG-FIELD`` at its field), and the names a
message gives them (``Sully``, ``Femurs``, ``Attack Zone``)."""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import LogError
from cardgen.core.problems import did_you_mean
from cardgen.games.bones_on_ice.state import BoiState
from cardgen.play.lookup import Names, NotFound

STAT_NAMES = {"reflexes": "Reflexes", "marksmanship": "Marksmanship"}


class Words:
    """The names of one game's table (its two teams and their skaters)."""

    def __init__(self, state: BoiState):
        self.state = state
        P = state.s.pieces
        self.skaters = Names("skater of the two teams", ((p.id, i) for i, p in enumerate(P)),
                             lambda i: (P[i].aliases[0], short(state, i)))
        self.teams = Names("team (or skater) of this game", ((k, t) for t, k in enumerate(state.players)),
                           lambda t: (state.s.names[t], label(state, t)))
        for i, p in enumerate(P):  # a skater's name stands for its team (e.g. in 'boosts')
            if p.id not in self.teams:
                self.teams.add(p.id, p.team, (p.aliases[0], short(state, i)))

    def skater(self, value: Any, field: str) -> int:
        """The skater ``value`` names (its index)."""
        return _find(self.skaters, value, field)

    def team(self, value: Any, field: str) -> int:
        return _find(self.teams, value, field)

    def zone(self, value: Any, field: str) -> str:
        """The zone key ``value`` names (named from the acting team's goal)."""
        r = self.state.r
        s = str(value).strip().lower()
        for z in r.zones:
            names = {z.lower(), str(r.zone_names.get(z, z)).lower()}
            names |= {n.removesuffix(" zone") for n in names}
            if s in names or s.removesuffix(" zone") in names:
                return z
        raise LogError("LOG-FIELD",
                       f"'{field}' names no zone: {value!r} (zones, from the acting team's goal: "
                       f"{', '.join(r.zones)})", None, did_you_mean(s, r.zones))

    def chaos(self, value: Any) -> str:
        """The Chaos Table card ``value`` names (its id)."""
        s = str(value).strip().lower()
        cards = self.state.r.by_type.get("chaos", [])
        c = next((c for c in cards if s in (c.id.lower(), c.name.lower())), None)
        if c is None:
            raise LogError("LOG-FIELD", f"'entry' names no Chaos Table card: {value!r}", None,
                           did_you_mean(s, [c.id for c in cards]))
        return c.id


def _find(names: Names[int], value: Any, field: str) -> int:
    """What ``value`` names, or the LOG-FIELD error with the lookup's own words after the field
    (an ambiguous name lists what it could be)."""
    try:
        return names.find(value)
    except NotFound as e:
        raise LogError("LOG-FIELD", f"'{field}' {e.message}", None, e.hint) from None


def short(state: BoiState, i: int) -> str:
    """A skater's short name: its card id without the team prefix (``Sully``)."""
    p = state.s.pieces[i]
    prefix = f"{state.players[p.team]}_"
    s = p.id[len(prefix) :] if p.id.startswith(prefix) else p.id
    return s.replace("_", " ").title()


def chaos_name(st: BoiState) -> str:
    """This round's Chaos Table entry as printed ("Chaos" when none is drawn)."""
    card = next((c for c in st.r.by_type.get("chaos", []) if c.id == st.entry_id), None)
    return card.name if card is not None else "Chaos"


def label(state: BoiState, team: int) -> str:
    return state.players[team].replace("_", " ").title()


def zone_name(state: BoiState, team: int, pos: int) -> str:
    """A rink position as ``team`` names it (``Attack Zone``)."""
    z = state.r.rel(team, pos)
    return str(state.r.zone_names.get(z, z))
