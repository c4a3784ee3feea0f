"""Bones on Ice — the table a log's header sets up, and what the header gets wrong
(BOI-SETUP-1: two teams, no skater on both; BOI-CARD-2: each line-up's roles; BOI-STAM-1: the
starting Stamina). A team or skater name that matches nothing is a ``LOG-FIELD`` at its team."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.content.playlog import LogError
from cardgen.core.problems import did_you_mean
from cardgen.games.bones_on_ice.rules import Rules, RulesError, start_stamina
from cardgen.games.bones_on_ice.state import BoiState, Roster, Setup
from cardgen.play.lookup import NotFound

Slip = tuple[str, str, str | None]


def new_state(game: Game, header: Mapping[str, Any]) -> BoiState:
    """The game's start for ``header`` (a state that writes its log: the replay compares it)."""
    teams = header.get("teams") or []
    for i, entry in enumerate(teams):
        if not isinstance(entry, Mapping) or entry.get("team") is None:
            raise _at(
                LogError("LOG-FIELD",
                         "each team is a mapping with its 'team' (id or name) and optionally 'skaters'",
                         None),
                f"teams[{i}]",
            )
    for i, entry in enumerate(teams[:2]):
        _named(game, entry, f"teams[{i}]")
    try:
        setup = Setup.cached(game, {"teams": [dict(t) for t in teams[:2]]})
    except NotFound as e:
        raise _at(LogError("LOG-FIELD", f"the header {e.message}", None, e.hint), "teams") from None
    except RulesError as e:
        raise LogError("LOG-GAME", e.message, e.loc, "add it to the rules parameters") from None
    if len(set(setup.teams)) < len(setup.teams):
        raise _at(
            LogError("LOG-FIELD", f"both teams are the {setup.teams[0]}: two different teams play", None),
            "teams[1]",
        )
    return BoiState(setup, log=True)


def _named(game: Game, entry: Mapping[str, Any], key: str) -> None:
    """A header team whose team or skaters name no card: ``LOG-FIELD`` at its entry."""
    ro = Roster.of(Rules.read(game))
    if not ro.teams.knows(entry.get("team")):
        keys = ro.teams.keys()
        want = str(entry.get("team")).strip().lower()
        raise _at(
            LogError("LOG-FIELD", f"'team' names no team of the cards: {entry.get('team')!r}", None,
                     did_you_mean(want, keys) or f"teams: {', '.join(keys)}"),
            key,
        )
    ids = [c.id.lower() for c in ro.skaters]
    ids += [c.id.lower().removeprefix(f"{c.get('team')}_") for c in ro.skaters]
    for n in entry.get("skaters") or []:
        if not ro.cards.knows(n):
            raise _at(
                LogError("LOG-FIELD", f"'skaters' names no skater card: {n!r}", None,
                         did_you_mean(str(n).strip().lower(), ids)),
                key,
            )


def _at(e: LogError, key: str) -> LogError:
    e.key = key  # type: ignore[attr-defined]  # where StateEngine places it
    return e


def problems(r: Rules, header: Mapping[str, Any]) -> list[Slip]:
    teams = header.get("teams") or []
    out: list[Slip] = []
    if len(teams) != r.n_teams:
        out.append(("BOI-SETUP-1",
                    f"{len(teams)} team(s); Bones on Ice is played by exactly {r.n_teams} teams",
                    f"teams[{r.n_teams}]" if len(teams) > r.n_teams else "teams"))
    taken: dict[str, str] = {}
    for i, entry in enumerate(teams[: r.n_teams]):
        if not isinstance(entry, Mapping):
            continue
        key, cards = _line_up(r, entry)
        if key is None:
            continue
        label = key.replace("_", " ").title()
        start = start_stamina(r, Roster.of(r).spirits.get(key))
        if isinstance(entry.get("stamina"), int) and entry["stamina"] != start:
            out.append(("BOI-STAM-1",
                        f"the log says the {label}' starting Stamina is {entry['stamina']!r}, but "
                        f"the rules give {start!r}", f"teams[{i}]"))
        for c in cards:
            if c.id in taken:
                out.append(("BOI-SETUP-1", f"{c.name} plays for both the {taken[c.id]} and the {label}",
                            f"teams[{i}]"))
            taken[c.id] = label
        have = Counter(str(c.get("role")) for c in cards)
        if any(have.get(role, 0) != n for role, n in r.team_roles.items()) or len(cards) != sum(
            r.team_roles.values()
        ):
            want = ", ".join(f"{n} {role}" for role, n in r.team_roles.items())
            got = ", ".join(f"{n} {role}" for role, n in have.items()) or "empty"
            out.append(("BOI-CARD-2", f"the {label}' line-up is {got}; a team has {want}", f"teams[{i}]"))
    return out


def playable(r: Rules, header: Mapping[str, Any]) -> bool:
    """Two teams, each with a skater who acts and a Goalie (else no game is replayed)."""
    teams = header.get("teams") or []
    if len(teams) < r.n_teams:
        return False
    for entry in teams[: r.n_teams]:
        if not isinstance(entry, Mapping):
            return True  # new_state names it
        _key, cards = _line_up(r, entry)
        roles = {str(c.get("role")) for c in cards}
        if _key is not None and (not roles & set(r.acting_roles) or r.goalie_role not in roles):
            return False
    return True


def _line_up(r: Rules, entry: Mapping[str, Any]) -> tuple[str | None, list[Card]]:
    """A header team's key and skater cards (None: a name new_state reports)."""
    ro = Roster.of(r)
    key = ro.teams.get(entry.get("team"))
    if key is None:
        return None, []
    names = entry.get("skaters")
    cards = [ro.cards.get(n) for n in names] if names is not None else ro.team_cards(key)
    if None in cards:
        return None, []
    return key, [c for c in cards if c is not None]
