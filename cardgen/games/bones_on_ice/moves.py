"""Bones on Ice — every decision a game can offer, made once per setup (the hot path of legal
actions builds no :class:`~cardgen.play.api.Action`: it picks them from these tables)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardgen.core.record import record
from cardgen.play.api import Action

if TYPE_CHECKING:
    from cardgen.games.bones_on_ice.rules import Rules


def act(kind: str, **fields: Any) -> Action:
    """An action of scalar fields (no freezing needed)."""
    return Action(kind, tuple(fields.items()))


@record(frozen=True)
class Moves:
    """The actions of one setup: by team, by skater (its index), by rink position."""

    start: tuple[int, ...]                          #: each skater's Face-Off position
    acting: tuple[tuple[int, ...], ...]             #: by team: the skaters who act in a Mid-Game
    faceoff: tuple[tuple[Action, ...], ...]         #: by team
    defend: tuple[tuple[Action, ...], ...]
    intercept: tuple[tuple[Action, ...], ...]
    shootout: tuple[tuple[Action, ...], ...]
    boost: tuple[tuple[Action, Action], ...]        #: by team: (no Boost, Boost)
    move: tuple[tuple[Action, ...], ...]            #: [skater][position]: a Move there
    tactical: tuple[tuple[Action, ...], ...]
    shoot: tuple[Action, ...]                       #: [skater]
    passes: tuple[tuple[Action | None, ...], ...]   #: [passer][receiver] (None: not a teammate)
    spirit: tuple[tuple[Action, ...], ...]          #: [team][skater]: its Team Spirit on (by) the skater
    window: tuple[tuple[Action, Action], ...]       #: by team: (none, its Team Spirit) as a Mid-Game starts
    recovery: Action
    no_intercept: Action
    rounds: tuple[tuple[Action, float], ...]        #: [n - 1]: the chance node that starts round n
    chaos: tuple[tuple[Action, float], ...]         #: the Chaos die's outcomes

    @classmethod
    def of(cls, r: Rules, keys: Sequence[str], pieces: Sequence[Any]) -> Moves:
        n, zones = range(len(pieces)), range(len(r.zones))

        def by_team(kind: str, roles: Sequence[str]) -> tuple[tuple[Action, ...], ...]:
            return tuple(tuple(act(kind, skater=p.id) for p in pieces if p.team == t and p.role in roles)
                         for t in range(len(keys)))
        return cls(
            start=tuple(r.start_pos(p.team, p.role) for p in pieces),
            acting=tuple(tuple(i for i in n if pieces[i].team == t and pieces[i].role in r.acting_roles)
                         for t in range(len(keys))),
            faceoff=by_team("faceoff", r.acting_roles), defend=by_team("defend", r.defending_roles),
            intercept=by_team("intercept", r.defending_roles), shootout=by_team("shootout", r.shooter_roles),
            boost=tuple((act("boost", team=k, boost=False), act("boost", team=k, boost=True)) for k in keys),
            move=tuple(tuple(act("move", skater=p.id, zone=r.rel(p.team, z)) for z in zones) for p in pieces),
            tactical=tuple(tuple(act("tactical_move", skater=p.id, zone=r.rel(p.team, z)) for z in zones)
                           for p in pieces),
            shoot=tuple(act("shoot", skater=p.id) for p in pieces),
            passes=tuple(tuple(act("pass", skater=p.id, to=q.id) if q.team == p.team and q is not p else None
                               for q in pieces) for p in pieces),
            spirit=tuple(tuple(act("team_spirit", team=k, skater=p.id) for p in pieces) for k in keys),
            window=tuple((act("no_spirit", team=k), act("team_spirit", team=k)) for k in keys),
            recovery=act("recovery"), no_intercept=act("no_intercept"),
            rounds=tuple((act("round_start", round=k), 1.0) for k in range(1, r.rounds + 1)),
            chaos=tuple((Action.make("chaos", die=v, entry=card.id if card else None), 1.0 / r.chaos_die)
                        for v in range(1, r.chaos_die + 1) for card in (r.chaos_card(v),)))
