"""Boss Fight's table — what the table and its rule groups (:mod:`.rules_setup`, :mod:`.view`,
:mod:`.rules_rounds`, :mod:`.rules_cards`, :mod:`.rules_move`, :mod:`.rules_combat`) share: the
rules read from params.yaml, the map, the fighters and the game as it goes (all set by
:class:`.table.Table`), the rules' reading of params and the trace. Each group calls the others'
steps through the declarations here; the table's own definitions come first in its method order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any, Protocol

from cardgen.boards.mapmodel import HexMap
from cardgen.content.model import Card
from cardgen.content.playlog import Event
from cardgen.core.hexgrid import Hex
from cardgen.core.problems import Loc
from cardgen.games.boss_fight.builds import Build
from cardgen.games.boss_fight.slips import Slips
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.sweep import Sweep
from cardgen.play.lookup import Names
from cardgen.play.referee import ReadsRules, Traces


class _CardStep(Protocol):
    def __call__(self, value: Any, loc: Loc | None, fname: str, types: tuple[str, ...] | None = None) -> Card: ...


class _GroundStep(Protocol):
    def __call__(self, shape: list[Hex], over: bool = False) -> Sweep: ...


class _OccupantStep(Protocol):
    def __call__(self, h: Hex, but: Fighter | None = None) -> Fighter | None: ...


class _NewRoundStep(Protocol):
    def __call__(self, ev: Event, first: bool = False) -> None: ...


class _HpClaimStep(Protocol):
    def __call__(self, g: Fighter, stated: Any, loc: Loc | None, rule: str | None = None) -> None: ...


class _ActionStep(Protocol):
    def __call__(self, ev: Event, f: Fighter, attack: bool = False) -> None: ...


class _PlayStep(Protocol):
    def __call__(self, ev: Event, f: Fighter, kind: str, fname: str = "card") -> Card: ...


class TableBase(ReadsRules, Traces):
    """The table's shared rules, state and steps (see :class:`.table.Table`)."""

    ref: Slips

    def __init__(self, game: Any, header: dict[str, Any], header_locs: dict[str, Loc], ref: Slips) -> None:
        self.game, self.params, self.header = game, game.params, header
        self.header_locs, self.ref = header_locs, ref
        self.over = False
        self.end_rule = "BF-END-1"
        self._read_rules(game)

    @property
    def tracing(self) -> bool:      # type: ignore[override]  # the checker's: off in play
        return self.ref.tracing

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
    plays: dict[str, tuple[Any, int, str | None]]
    # -- the table: read from the header by SetupRules.start (the map is loaded before any event) --
    fighters: dict[str, Fighter]
    order_keys: list[str]
    map: HexMap
    rubble: frozenset[Hex]             # replaced, never changed: copies share it
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
    looked: tuple | None

    # -- the rule groups' steps, which the others take: declared here (each defined in the module
    #    named), so the groups type-check against one another without stubs --------------------
    boss: Callable[[], Fighter]                           # rules_setup
    heroes: Callable[[], list[Fighter]]                   # rules_setup
    _fighter: Callable[[Any, Loc | None, str], Fighter]   # rules_setup
    _card: _CardStep                                      # rules_setup
    _status: Callable[[Any, Loc | None, str], str]        # rules_setup
    _hex: Callable[[Any, Loc | None], Hex]                # rules_setup
    _off: Callable[[Hex], str]                            # rules_setup
    _offs: Callable[[Iterable[Hex]], str]                 # rules_setup
    _claim_cells: Callable[[Event, Fighter, str], None]   # rules_setup
    _end_placement: Callable[[Event], None]               # rules_setup
    _clear: Callable[[Hex], bool]                         # view
    ground: _GroundStep                                   # view
    _obstacles: Callable[[], frozenset[Hex]]              # view
    _where: Callable[[Hex], str]                          # view
    occupant: _OccupantStep                               # view
    enemies_of: Callable[[Fighter], list[Fighter]]        # view
    _dist: Callable[[Fighter, Fighter], int | None]       # view
    sees: Callable[[Fighter, Fighter], bool]              # view
    _look: Callable[[Fighter], None]                      # view
    _legs_factor: Callable[[], float]                     # view
    _legs_factor_text: Callable[[], str]                  # view
    stat: Callable[[Fighter, str], int]                   # view
    _state: Callable[[str], None]                         # view
    _new_round: _NewRoundStep                             # rules_rounds
    _pool: Callable[[Fighter, str], int]                  # rules_rounds
    _enter_turn: Callable[[Fighter, Event], None]         # rules_rounds
    _hp_claim: _HpClaimStep                               # rules_rounds
    _action: _ActionStep                                  # rules_rounds
    _after_action: Callable[[Event, Fighter], None]       # rules_rounds
    _play: _PlayStep                                      # rules_cards
    _card_or_text: Callable[[Any, Loc | None, str], str]  # rules_cards
    _settle: Callable[[Fighter, Event], None]             # rules_combat
    _inflict: Callable[[Fighter, str, Event], None]       # rules_combat
    _heal: Callable[[Fighter, int], int]                  # rules_combat
