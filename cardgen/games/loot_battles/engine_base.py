"""Loot & Battles referee — what the engine and its event handlers (:mod:`.engine_setup`,
:mod:`.engine_round`, :mod:`.engine_attack`, :mod:`.engine_end`) share: the rules and the table
as replayed, the log's names read (cards, players, enemies) and the state's trace. Each handler
group calls the others' steps through the declarations here."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.games.loot_battles.names import LogNames
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import Battle, Encounter, Enemy, Fighter, Player
from cardgen.play.lookup import Names, NotFound
from cardgen.play.referee import BaseEngine


class EngineBase(BaseEngine):
    """The replay's state and the helpers every handler group uses."""

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "LB-END-1"
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        self.rules = r = Rules(game, self.p)
        self.n_min, self.n_max, self.win_table = r.n_min, r.n_max, r.win_table
        self.first_loot, self.n_drawn = r.first_loot, r.n_drawn
        self.target_die, self.attack_die, self.dodge_loss = r.target_die, r.attack_die, r.dodge_loss
        self.equip_limits, self.hands, self.hands_used = r.equip_limits, r.hands, r.hands_used
        self.cards, self.by_type, self.enemy_cards = r.cards, r.by_type, r.enemy_cards
        self._card_names: dict[tuple[str, ...], Names[Card]] = {}
        # state
        self.players: list[Player] = []
        self.by_name: dict[str, Player] = {}
        self.player_names: Names[Player] = Names("player", [])
        self.leader = 0
        self.target: int | None = None
        self.battles_won = 0
        self.battles_started = 0
        self.battle: Battle | None = None
        self.first_done = False
        self.winner: str | None = None
        self.loot_due = 0
        self.loot_for = ""
        self.loot_out: Counter = Counter()
        self.loot_unknown = 0
        self.pool: Counter = Counter()
        self.pool_unknown = 0
        self.enc_out: Counter = Counter()
        self.enc_unknown = 0
        self.last_encounter: Encounter | None = None    # ended, awaiting an optional encounter_end
        self.round_ack = False
        self.last_battle: dict | None = None            # ended, awaiting an optional battle_end
        self.rounds_marked = False                      # the log writes round_end markers
        self.after_end = 0                              # the line of the first event after the end
        self.battles_shift = 0                          # the log's Battles won minus the replay's

    # -- names in the log -------------------------------------------------------------------

    def _card_lookup(self, kinds: tuple[str, ...]) -> Names[Card]:
        names = self._card_names.get(kinds)
        if names is None:
            names = Names(" or ".join(kinds) + " card",
                          [(c.id, c) for k in kinds for c in self.by_type.get(k, [])], lambda c: [c.name])
            self._card_names[kinds] = names
        return names

    def _find_card(self, value: Any, kinds: tuple[str, ...], ev: Event, fname: str) -> Card:
        """A card of one of ``kinds`` by id or name, with "did you mean"."""
        try:
            return self._card_lookup(kinds).find(value)
        except NotFound as e:
            msg = (f"'{fname}': {e.message}" if "could be" in e.message
                   else f"'{fname}' names no {' or '.join(kinds)} card: {value!r}")
            raise LogError("LOG-FIELD", msg, ev.at(fname), e.hint) from None

    def _find_player(self, value: Any, ev: Event | None, fname: str, loc: Loc | None = None) -> Player:
        try:
            return self.player_names.find(value)
        except NotFound as e:
            hint = e.hint if e.hint and e.hint.startswith("did you mean") else f"players: {', '.join(self.by_name)}"
            raise LogError("LOG-FIELD", f"'{fname}' names no player: {value!r}", loc or (ev.at(fname) if ev else None),
                           hint) from None

    def _find_enemy(self, value: Any, enc: Encounter, ev: Event, fname: str) -> Enemy:
        """The enemy of ``enc`` the log calls ``value`` (read as the contract reads it: ``LogNames.enemy``)."""
        try:
            name = LogNames.enemy(value, enc, fname)
        except LogError as e:
            e.loc = ev.at(fname)
            raise
        return next(e for e in enc.enemies if e.name == name)

    def _state_lines(self, title: str, enc: Encounter | None) -> None:
        self.ref.trace(f"      {title}")
        self.ref.trace("        players: " + " · ".join(p.brief() for p in self.players))
        if enc is not None:
            alive = enc.alive()
            self.ref.trace("        enemies: " + (" · ".join(f"{e.brief()} →{e.front}" for e in alive)
                                                  if alive else "none left"))

    @property
    def battle_now(self) -> Battle:
        """The Battle under way (asked only while one is)."""
        assert self.battle is not None
        return self.battle

    # -- the handler groups' steps, which the others take (defined in the module named) --------

    def _combat(self, ev: Event) -> Encounter | None:
        raise NotImplementedError           # engine_round

    def _report_missing(self, enc: Encounter, upto: Player | None, ev: Event, why: str) -> None:
        raise NotImplementedError           # engine_round

    def _close_upto(self, enc: Encounter, p: Player) -> None:
        raise NotImplementedError           # engine_round

    def _end_of_round_effects(self, enc: Encounter, ev: Event) -> None:
        raise NotImplementedError           # engine_round

    def _end_round(self, enc: Encounter, ev: Event, why: str, claims: bool = False) -> None:
        raise NotImplementedError           # engine_round

    def _player_action(self, ev: Event, p: Player, enc: Encounter, kind: str) -> None:
        raise NotImplementedError           # engine_round

    def _enemy_down(self, e: Fighter, ev: Event) -> None:
        raise NotImplementedError           # engine_round

    def _after_blow(self, enc: Encounter, ev: Event) -> None:
        raise NotImplementedError           # engine_round

    def _knock_out(self, p: Player, enc: Encounter, ev: Event) -> None:
        raise NotImplementedError           # engine_round

    def _lose(self, ev: Event) -> None:
        raise NotImplementedError           # engine_round

    def _marked_rounds(self, enc: Encounter) -> bool:
        raise NotImplementedError           # engine_round

    def _restored_slip(self, t: Fighter, stat: str, stated: Any, ev: Event, fname: str) -> bool:
        raise NotImplementedError           # engine_attack

    def _end_encounter(self, enc: Encounter, ev: Event) -> None:
        raise NotImplementedError           # engine_end

    def _loot_left(self) -> int:
        raise NotImplementedError           # engine_end

    def _force_end(self, enc: Encounter, ev: Event, why: str) -> None:
        raise NotImplementedError           # engine_end
