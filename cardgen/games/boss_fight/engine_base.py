"""Boss Fight rules engine — what the engine and its rule groups (:mod:`.rules_setup`,
:mod:`.view`, :mod:`.rules_rounds`, :mod:`.rules_cards`, :mod:`.rules_move`,
:mod:`.rules_combat`) share: the rules read from params.yaml, the map, the fighters and the game
as it goes (all set by :class:`.engine.Engine`). Each group calls the others' steps through the
declarations here; the engine's own definitions come first in its method order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from cardgen.boards.mapmodel import HexMap
from cardgen.content.model import Card
from cardgen.content.playlog import Event
from cardgen.core.hexgrid import Hex
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.builds import Build
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.sweep import Sweep
from cardgen.play.lookup import Names
from cardgen.play.referee import BaseEngine


class EngineBase(BaseEngine):
    """The engine's shared rules, state and steps (see :class:`.engine.Engine`)."""

    # -- the rules, from params.yaml ------------------------------------------------------------
    first_draw: int
    draws: dict[str, int]
    actions: dict[str, int]
    attack_cap: int
    status_names: dict[str, str]
    draw_status: dict[str, int]
    action_status: dict[str, int]
    short_statuses: list[str]
    no_move: list[str]
    poison: str
    poison_damage: int
    poison_cure: set[int]
    die: int
    miss: int
    rest: int
    distance: int
    legs_table: list[float]
    formula: dict[str, int]
    heal_cap: str
    attack_names: dict[str, str]
    combat_stats: list[str]
    stat_names: dict[str, str]
    stat_short: dict[str, str]
    cards: dict[str, Card]
    # -- the table: read from the header by SetupRules.start (the map is loaded before any event) --
    fighters: dict[str, Fighter]
    order_keys: list[str]
    map: HexMap
    rubble: set[Hex]
    boss_build: Build | None
    party_build: Build | None
    _names: Names[Fighter]
    # -- the game as it goes --------------------------------------------------------------------
    phase: str
    round: int
    order: list[str]
    start_agility: dict[str, int]
    acted: set[str]
    due: dict[str, int]
    drawn: Counter[str]
    draw_at: dict[str, Loc]             # each character's last round draw this round (a short one is reported there)
    turns_begun: bool
    current: Fighter | None
    turn_loc: Loc | None
    used_actions: int
    need: int
    attacks: int
    attack_limit: int
    winner: str | None
    end_loc: Loc | None
    deaths: list[str]
    state_at: int
    died_here: list[str]
    pictures: bool
    sight_memo: dict[Any, Any]

    # -- the rule groups' steps, which the others take (defined in the module named) -------------

    def boss(self) -> Fighter:
        raise NotImplementedError           # rules_setup

    def heroes(self) -> list[Fighter]:
        raise NotImplementedError           # rules_setup

    def _fighter(self, value: Any, loc: Loc | None, fname: str) -> Fighter:
        raise NotImplementedError           # rules_setup

    def _card(self, value: Any, loc: Loc | None, fname: str, types: tuple[str, ...] | None = None) -> Card:
        raise NotImplementedError           # rules_setup

    def _status(self, value: Any, loc: Loc | None, fname: str) -> str:
        raise NotImplementedError           # rules_setup

    def _hex(self, raw: Any, loc: Loc | None) -> Hex:
        raise NotImplementedError           # rules_setup

    def _off(self, h: Hex) -> str:
        raise NotImplementedError           # rules_setup

    def _offs(self, hexes: Iterable[Hex]) -> str:
        raise NotImplementedError           # rules_setup

    def _claim_cells(self, ev: Event, f: Fighter, rule: str) -> None:
        raise NotImplementedError           # rules_setup

    def _end_placement(self, ev: Event) -> None:
        raise NotImplementedError           # rules_setup

    def _clear(self, h: Hex) -> bool:
        raise NotImplementedError           # view

    def ground(self, shape: list[Hex], over: bool = False) -> Sweep:
        raise NotImplementedError           # view

    def _obstacles(self) -> set[Hex]:
        raise NotImplementedError           # view

    def _where(self, h: Hex) -> str:
        raise NotImplementedError           # view

    def occupant(self, h: Hex, but: Fighter | None = None) -> Fighter | None:
        raise NotImplementedError           # view

    def enemies_of(self, f: Fighter) -> list[Fighter]:
        raise NotImplementedError           # view

    def _dist(self, a: Fighter, b: Fighter) -> int | None:
        raise NotImplementedError           # view

    def sees(self, a: Fighter, b: Fighter, obstacles: set[Hex] | None = None) -> bool:
        raise NotImplementedError           # view

    def _look(self, f: Fighter) -> None:
        raise NotImplementedError           # view

    def _legs_factor(self) -> float:
        raise NotImplementedError           # view

    def _legs_factor_text(self) -> str:
        raise NotImplementedError           # view

    def stat(self, f: Fighter, key: str) -> int:
        raise NotImplementedError           # view

    def _state(self, title: str) -> None:
        raise NotImplementedError           # view

    def _new_round(self, ev: Event, first: bool = False) -> None:
        raise NotImplementedError           # rules_rounds

    def _pool(self, f: Fighter, cid: str) -> int:
        raise NotImplementedError           # rules_rounds

    def _enter_turn(self, f: Fighter, ev: Event) -> None:
        raise NotImplementedError           # rules_rounds

    def _hp_claim(self, g: Fighter, stated: Any, loc: Loc | None, rule: str | None = None) -> None:
        raise NotImplementedError           # rules_rounds

    def _action(self, ev: Event, f: Fighter, attack: bool = False) -> None:
        raise NotImplementedError           # rules_rounds

    def _after_action(self, ev: Event, f: Fighter) -> None:
        raise NotImplementedError           # rules_rounds

    def _play(self, ev: Event, f: Fighter, kind: str, fname: str = "card") -> Card:
        raise NotImplementedError           # rules_cards

    def _card_or_text(self, value: Any, loc: Loc | None, fname: str) -> str:
        raise NotImplementedError           # rules_cards

    def _settle(self, f: Fighter, ev: Event) -> None:
        raise NotImplementedError           # rules_combat

    def _inflict(self, t: Fighter, s: str, ev: Event) -> None:
        raise NotImplementedError           # rules_combat

    def _heal(self, t: Fighter, n: int) -> int:
        raise NotImplementedError           # rules_combat
