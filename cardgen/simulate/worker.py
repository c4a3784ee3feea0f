"""Playing games where the work is done (this process, a worker process, a Dask worker).

A task is a chunk of game indices of one rules variant. Game ``i`` of a run seeded ``S`` plays
setup ``i mod #setups`` with the agents' seating ``(i div #setups) mod #rotations``, its chance
and agents drawing from ``random.Random(game_seed(S, i))``: a game's record depends on
nothing but ``(S, i)``, never on the chunk or the worker that plays it.

Every game is replayed through the rules before it counts (:mod:`.verify`): one they reject
is an engine error with its seed. Each game comes back as a small JSON-ready record: its
status (finished, unfinished at the step cap, error), steps, returns, lengths, the cards each
seat drew and played, the game's own measures, and, for every k-th game and every game that
did not finish, its playtest log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.core.record import record
from cardgen.play import coverage
from cardgen.play.api import GameState
from cardgen.play.mcts import SEARCH, for_game, parse_budget
from cardgen.play.package import GamePackage, Player
from cardgen.play.playout import as_jsonl, play, random_agent
from cardgen.simulate.spec import RANDOM, agent_at
from cardgen.simulate.verify import verify

#: measures keys with a meaning to the simulation (see docs/simulate.md)
RESERVED = ("cards_played", "cards_drawn", "sides", "length")
#: action fields that name cards (their values, when card ids, are played or drawn cards)
CARD_FIELDS = ("card", "cards")
#: draws of a seat kept in order (the controlled card comparison looks at the first few)
MAX_EARLY = 40
#: state attributes read as game lengths, when the measures give no ``length``
LENGTH_ATTRS = (("rounds", "round"), ("turns", "turn"))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: ``seed × 2³² + index``."""
    return (seed << 32) + index


@record(frozen=True)
class Context:
    """What every task of a run shares (shipped once to each worker)."""

    package: GamePackage
    games: tuple[Game, ...]               # one per rules variant
    setups: tuple[dict[str, Any], ...]
    agents: tuple[str, ...]
    rotations: int
    seed: int
    max_steps: int
    log_every: int
    triggers: tuple[tuple[coverage.Trigger, ...], ...] = ()     # per variant: its rule counters


@record(frozen=True)
class Task:
    variant: int
    start: int
    stop: int


def make_agent(package: GamePackage, game: Game, name: str) -> Player:
    """The agent a checked name stands for (see ``spec.check_agent``)."""
    if name == RANDOM:
        return random_agent
    base, colon, budget = name.partition(":")
    if colon and base in SEARCH and name not in package.agents:
        return for_game(package, game, parse_budget(budget))
    return package.agents[name](game)


def agent_weight(package: GamePackage, name: str) -> float:
    """The playouts a move of agent ``name`` (a time budget counted as a thousand playouts a
    second); 0 for a plain agent."""
    base, colon, budget = name.partition(":")
    if colon and base in SEARCH and name not in package.agents:
        b = parse_budget(budget)
        return b.playouts or 1000 * b.seconds
    return 0.0


def search_weight(ctx: Context) -> float:
    """How much search a game of the run holds, to play the heaviest runs first: the playouts a
    move of its agents averaged over them (they share the seats: ``mcts:1000`` in every seat
    weighs twice ``mcts:1000`` against random); 0 when no search agent plays."""
    return sum(agent_weight(ctx.package, n) for n in ctx.agents) / max(1, len(ctx.agents))


def _agents(ctx: Context, game: Game) -> dict[str, Player]:
    return {name: make_agent(ctx.package, game, name) for name in sorted(set(ctx.agents) | {RANDOM})}


def _card_ids(value: Any, cards: Mapping[str, Any]) -> list[str]:
    if isinstance(value, str):
        return [value] if value in cards else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str) and v in cards]
    return []


def _cards_from_history(state: GameState, seats: dict[int, int], cards: Mapping[str, Any]
                        ) -> tuple[list[dict[str, int]], list[dict[str, int]]]:
    """Played: card fields of the actions each seat's agent chose; drawn: card fields of chance
    outcomes whose ``player`` field names a seat."""
    n = len(state.players)
    played: list[Counter[str]] = [Counter() for _ in range(n)]
    drawn: list[Counter[str]] = [Counter() for _ in range(n)]
    index = {name: i for i, name in enumerate(state.players)}
    fields = set(CARD_FIELDS)
    for k, action in enumerate(state.history):
        ids: list[str] = []
        player = None
        for f, v in action.items:
            if f in fields:
                ids += _card_ids(v, cards)
            elif f == "player":
                player = v
        if not ids:
            continue
        if k in seats:
            played[seats[k]].update(ids)
        elif isinstance(player, str) and player in index:
            drawn[index[player]].update(ids)
    return [dict(c) for c in played], [dict(c) for c in drawn]


def _draw_order(state: GameState, seats: dict[int, int], cards: Mapping[str, Any]) -> list[list[str]]:
    """Per seat, the card ids of the chance outcomes that name it (``player``), in order — its
    draws as the shuffle dealt them (the first :data:`MAX_EARLY`)."""
    index = {name: i for i, name in enumerate(state.players)}
    out: list[list[str]] = [[] for _ in state.players]
    for k, action in enumerate(state.history):
        if k in seats:
            continue
        who = action.get("player")
        if isinstance(who, str) and who in index and len(out[index[who]]) < MAX_EARLY:
            for f in CARD_FIELDS:
                out[index[who]] += _card_ids(action.get(f), cards)
            del out[index[who]][MAX_EARLY:]
    return out


def first_mover(state: GameState, seats: dict[int, int]) -> int | None:
    """The seat that moved first: the game's own word (``result()['first_mover']``, a player
    name) when it gives one, else the player of the game's first non-chance action."""
    named = state.result().get("first_mover")
    if isinstance(named, str) and named in state.players:
        return state.players.index(named)
    return seats[min(seats)] if seats else None


def _per_seat(value: Any, players: list[str]) -> list[dict[str, Any]] | None:
    """A per-seat list given as a list (seat order) or a mapping by player name."""
    if isinstance(value, Mapping):
        return [dict(value.get(p) or {}) for p in players]
    if isinstance(value, (list, tuple)) and len(value) == len(players):
        return [dict(v or {}) for v in value]
    return None


def _lengths(state: GameState, given: Any, steps: int) -> dict[str, float]:
    out: dict[str, float] = {"steps": steps}
    if isinstance(given, Mapping):
        out.update({str(k): v for k, v in given.items() if isinstance(v, (int, float)) and not isinstance(v, bool)})
        return out
    for name, attr in LENGTH_ATTRS:
        for a in (name, attr):
            v = getattr(state, a, None)
            if isinstance(v, int) and not isinstance(v, bool):
                out[name] = v
                break
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {str(k): _jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, set, frozenset)):
        return [_jsonable(x) for x in v]
    if isinstance(v, (str, int, float, bool)) or v is None:
        return v
    return str(v)


def play_one(ctx: Context, variant: int, index: int, agents: dict[str, Player], cards: Mapping[str, Any]
             ) -> dict[str, Any]:
    """Play game ``index`` of ``variant``; never raises for an engine's error (it is recorded)."""
    game = ctx.games[variant]
    seed = game_seed(ctx.seed, index)
    n_setups = len(ctx.setups)
    rec: dict[str, Any] = {"index": index, "seed": seed, "setup": index % n_setups,
                           "rotation": (index // n_setups) % ctx.rotations}
    rng = random.Random(seed)
    state: GameState | None = None
    seats: dict[int, int] = {}
    try:
        assert ctx.package.new_state is not None        # checked when the run was made
        state = ctx.package.new_state(game, ctx.setups[rec["setup"]])
        st = state

        def chosen(p: int) -> None:
            seats[len(st.history)] = p
        names = [agent_at(ctx.agents, rec["rotation"], p) for p in range(len(state.players))]
        rec["agents"] = names
        played = play(state, [agents[a] for a in names], rng, ctx.max_steps, ctx.package.determinize, chosen)
        rec["steps"] = played.steps
        verify(ctx.package, game, ctx.setups[rec["setup"]], state, index)     # the rules accept it, or an error
        if not played.finished:
            rec["status"] = "unfinished"
        else:
            rec["status"] = "finished"
            rec["returns"] = [float(r) for r in state.returns()]
            m = dict(ctx.package.measures(state) or {}) if ctx.package.measures else {}
            rec["length"] = _lengths(state, m.get("length"), played.steps)
            p_cards = _per_seat(m.get("cards_played"), state.players)
            d_cards = _per_seat(m.get("cards_drawn"), state.players)
            if p_cards is None or d_cards is None:
                hp, hd = _cards_from_history(state, seats, cards)
                p_cards, d_cards = p_cards if p_cards is not None else hp, d_cards if d_cards is not None else hd
            rec["played"], rec["drawn"] = p_cards, d_cards
            rec["draw_order"] = _draw_order(state, seats, cards)
            rec["first_mover"] = first_mover(state, seats)
            if ctx.triggers and ctx.triggers[variant]:
                rec["rules"] = coverage.count(list(ctx.triggers[variant]), state, m)
            sides = _per_seat(m.get("sides"), state.players)
            if sides is not None:
                rec["sides"] = [{str(k): [str(x) for x in v] if isinstance(v, (list, tuple)) else str(v)
                                 for k, v in s.items()} for s in sides]
            rec["measures"] = _jsonable({k: v for k, v in m.items() if k not in RESERVED})
        rec["players"] = list(state.players)
    except Exception as e:  # noqa: BLE001 - (NoLegalAction, Rejected too) one game's engine error must not stop the run
        rec["status"] = "error"
        rec["error"] = f"{type(e).__name__}: {e}"
        if state is not None:
            rec.setdefault("players", list(state.players))
    if ctx.log_every and (index % ctx.log_every == 0 or rec["status"] != "finished") and state is not None:
        try:
            rec["log"] = as_jsonl(state, expect=rec["status"] == "finished")
        except Exception as e:  # noqa: BLE001
            rec["log_error"] = f"{type(e).__name__}: {e}"
    return rec


def play_chunk(ctx: Context, task: Task) -> tuple[Task, list[dict[str, Any]]]:
    """Play games ``task.start … task.stop-1`` of one variant, in order."""
    game = ctx.games[task.variant]
    agents = _agents(ctx, game)
    cards = game.cards_by_id
    return task, [play_one(ctx, task.variant, i, agents, cards) for i in range(task.start, task.stop)]
