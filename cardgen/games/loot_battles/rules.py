"""Loot & Battles — the rules as functions over the state (stats, rolls, damage, turn order), every
number read once from ``rules/loot_battles/params.yaml`` or a card (a missing one: ``LOG-GAME``
naming it); what the state asks often is cached here by what decides it (``docs/engines-loot_battles.md``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.content.playlog import LogError
from cardgen.core.problems import Loc, did_you_mean
from cardgen.core.record import record
from cardgen.games.loot_battles.state import Enemy, Fighter, Player
from cardgen.games.loot_battles.vocab import UNIQUE_EFFECTS
from cardgen.play.api import Action, Made
from cardgen.play.params import ParamError, Params


@record(frozen=True, slots=True)
class Roll:
    """An attack roll's items read once: its dice (0: never misses), the ids it marks used (and as a
    set), the most hits, whether it never misses, its heals on a hit, its damage when nothing
    doubles it."""
    items: list[Card]
    dice: int
    used: list[str]
    hits: int
    never: bool
    heals: list[int]
    plain: int | None
    marks: frozenset[str]


class Rules:
    """The game's numbers and cards, and the rules over fighters."""

    def __init__(self, game: Game, p: Params):
        self.p = p
        self.params_file = p.file
        try:
            self.n_min, self.n_max = p.int("players.min"), p.int("players.max")
            self.win_table: Mapping[Any, Any] = p.mapping("battles_to_win")
            self.first_loot = list(p.list("first_encounter_loot"))
            self.n_drawn = p.int("encounters_drawn")
            self.target_die = p.int("target_die")
            self.attack_die = p.int("attack_die")
            self.dodge_loss = p.int("dodge_loss_on_miss")
            self.equip_limits = dict(p.mapping("equip_limits"))
            self.hands = p.int("hands")
            self.hands_used = dict(p.mapping("hands_used"))
            self.final_loot = p.bool("final_battle_loot", False)
            self.max_rounds = p.int("simulate.max_rounds", 0)      # 0: no cap (simulated play only)
        except ParamError as e:
            raise self._missing(e) from None
        self.cards = game.cards_by_id
        self.by_type: dict[str, list[Card]] = {}
        for c in game.cards:
            self.by_type.setdefault(c.type, []).append(c)
        self.enemy_cards = {c.id: c for c in self.by_type.get("enemy", [])}
        #: the full decks (card → copies), shuffled back from
        self.deck = {k: Counter({c.id: c.copies for c in self.by_type.get(k, [])})
                     for k in ("encounter", "loot")}
        #: each card's category and the hands it takes (LB-EQUIP-1, read once: the equip phase asks often)
        self.category = {c.id: c.get("category") for c in game.cards}
        self.hands_of = {c.id: int(self.hands_used.get(c.get("category"), 0)) for c in game.cards}
        self.by_category: dict[Any, list[str]] = {}     # LB-EQUIP-1 asks only a card's category
        for c in game.cards:
            self.by_category.setdefault(c.get("category"), []).append(c.id)
        self._effects: dict[str, Mapping[str, Any]] = {}
        self._fx: dict[tuple[str, str], Any] = {}       # (card, effect) → value (None: none)
        #: the playable state's attacks by (player, class, rolls used, kit): Melee only, the rolls
        #: left, and the attacks made of them by targets allowed (play_fight.py)
        self.roll_specs: dict[tuple, Any] = {}
        self.made: dict[tuple, dict[tuple, list[Action]]] = {}   # (player, rolls) → attacks by targets
        self._groups: dict[tuple, dict[int, list[Card]]] = {}     # (class, kit) → attack groups
        self._healers: dict[tuple, list[Card]] = {}               # kit → Healing spells
        self._foe: dict[str, tuple[int, int]] = {}
        self._enemies: dict[tuple[str, int], Enemy] = {}
        self._kit_stats: dict[tuple, tuple[int, int]] = {}      # kit → its Armor and Dodge
        self._reach: dict[tuple, tuple[int, bool]] = {}
        self._rolls: dict[tuple, Roll] = {}
        self._kit_choices: dict[tuple, tuple[dict[str, Action], list[Action]]] = {}
        self._kit_fx: dict[tuple, list[Any]] = {}
        #: actions by (kind, *fields), and a fair die's outcomes by (kind, sides): made once
        self.acts: Made[Action] = Made(lambda key: Action.make(key[0], **dict(key[1:])))
        self.dice: Made[list[tuple[Action, float]]] = Made(
            lambda key: [(self.acts[(key[0], ("value", f))], 1.0 / key[1]) for f in range(1, key[1] + 1)])
        self.attack_dice = self.dice[("die", self.attack_die)]        # a blow's dice (asked at every roll)

    # -- actions, made once (they are immutable; the playable state asks for them often) -----

    def act(self, kind: str, **fields: Any) -> Action:
        """``Action.make(kind, **fields)``, made once (every field hashable)."""
        return self.acts[(kind, *fields.items())]

    def one(self, kind: str, field: str, value: Any) -> Action:
        """``kind(field=value)``: a draw, an enemy's turn, a ``ready``."""
        return self.acts[(kind, (field, value))]

    def attack(self, player: str, targets: str | tuple[str, ...], with_: tuple[str, ...] | None) -> Action:
        """``attack`` of one target (a name) or several (a tuple), with these items."""
        aim = ("target" if isinstance(targets, str) else "targets", targets)
        return self.acts[("attack", ("player", player), aim, ("with", with_))]

    def kit_choices(self, player: str, kit: tuple[str, ...], pool: list[str]) -> list[Action]:
        """A player's ``equip`` (of the cards in the pool LB-EQUIP-1 lets them add) and ``unequip``
        choices (read once per player and kit, then filtered by the cards in the pool)."""
        key = (player, *kit)
        held = self._kit_choices.get(key)
        if held is None:
            if len(self._kit_choices) > 100_000:
                self._kit_choices.clear()
            held = self._kit_choices[key] = self._addable(player, kit)
        adds, drops = held
        return [*[adds[c] for c in pool if c in adds], *drops]

    def _addable(self, player: str, kit: tuple[str, ...]) -> tuple[dict[str, Action], list[Action]]:
        """Every card a player holding ``kit`` may add (its ``equip``), and the ``unequip``s."""
        held = Counter(self.category[i] for i in kit if i in self.cards)
        hands = sum(self.hands_of[i] for i in kit if i in self.cards)
        adds = {c: self.acts[("equip", ("player", player), ("card", c))]
                for cards in self.by_category.values() if self.may_add(held, hands, cards[0]) for c in cards}
        return adds, [self.acts[("unequip", ("player", player), ("card", c))] for c in dict.fromkeys(kit)]

    def foe(self, card: Card) -> tuple[int, int]:
        """An enemy card's dice and damage (read once per card)."""
        out = self._foe.get(card.id)
        if out is None:
            out = self._foe[card.id] = (int(card.get("attack") or 1), int(card.get("damage") or 0))
        return out

    def draws(self, deck: Mapping[str, int]) -> list[tuple[Action, float]]:
        """A draw from a deck of known composition: each card with its share (in card id order)."""
        total = sum(deck.values())
        if not total:
            return []
        return [(self.one("draw", "card", c), n / total) for c, n in sorted(deck.items()) if n > 0]

    def _missing(self, e: ParamError) -> LogError:
        return LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1), "add it to the rules parameters")

    # -- the cards ------------------------------------------------------------------------

    def effect(self, card: Card, name: str) -> Any:
        """A unique card's effect parameter (``unique_effects.<card>.<name>``), or None."""
        key = (card.id, name)
        if key in self._fx:
            return self._fx[key]
        if card.get("rank") != "unique":
            self._fx[key] = None
            return None
        effects = self._effects.get(card.id)
        if effects is None:
            try:
                effects = self.p.raw(f"unique_effects.{card.id}")
            except ParamError as e:
                raise self._missing(e) from None
            if not isinstance(effects, Mapping):
                raise LogError("LOG-GAME", f"'unique_effects.{card.id}' in {self.params_file.name} must be a mapping",
                               getattr(effects, "loc", None) or Loc(str(self.params_file), 1, 1))
            for k in effects:
                if k not in UNIQUE_EFFECTS:
                    raise LogError("LOG-GAME", f"unknown effect '{k}' in 'unique_effects.{card.id}'",
                                   effects.at(k) if hasattr(effects, "at") else Loc(str(self.params_file), 1, 1),
                                   did_you_mean(str(k), UNIQUE_EFFECTS) or f"known: {', '.join(UNIQUE_EFFECTS)}")
            self._effects[card.id] = effects
        self._fx[key] = v = effects.get(name)
        return v

    def enemy_count(self, card: Card, reinforcement: bool) -> int:
        """LB-SETUP-4: a +N on a reinforcement adds N enemies."""
        extra = int(card.get("reinforcement") or 0) if reinforcement else 0
        return int(card.get("count") or 0) + extra

    def new_enemy(self, ecard: Card, i: int, front: str) -> Enemy:
        """The ``i``-th enemy of a card placed in front of ``front`` (a copy of one read once)."""
        was = self._enemies.get((ecard.id, i))
        if was is None:
            was = self._enemies[(ecard.id, i)] = Enemy(
                name=f"{ecard.id}#{i + 1}", card=ecard, max_health=int(ecard.get("health") or 0),
                max_armor=int(ecard.get("armor") or 0), max_dodge=int(ecard.get("dodge") or 0))
            was.recover()
        return was.copy(front)

    # -- a player's stats and attacks -------------------------------------------------------

    def new_player(self, name: str, cls: Card, equipment: list[str] | None = None) -> Player:
        """A player of class ``cls`` holding ``equipment``, at full Health, Armor and Dodge."""
        base = {k: int(cls.get(k) or 0) for k in ("health", "armor", "dodge")}
        p = Player(name=name, cls=cls, base=base, max_health=base["health"], equipment=list(equipment or ()))
        self.refresh(p, full=True)
        p.recover()
        return p

    def items(self, p: Player) -> list[Card]:
        return [self.cards[i] for i in p.equipment if i in self.cards]

    def end_of_round(self, players: list[Player], enemies: list[Enemy]) -> None:
        """The end of a round: every standing player's and enemy's Armor restored, and each item's
        ``heal_per_round`` healed (up to full Health)."""
        for p in players:
            if p.ko:
                continue
            p.armor = p.max_armor
            for heal in self.kit_effects(p, "heal_per_round"):
                if p.health < p.max_health:
                    p.health = min(p.max_health, p.health + int(heal))
        for e in enemies:
            e.armor = e.max_armor

    def may_add(self, held: Mapping[Any, int], hands: int, card: str) -> bool:
        """LB-EQUIP-1: a player holding ``held`` (items by category) with ``hands`` in use may
        equip ``card``: at most the limit of a category, and no more hands than a player has."""
        limit = self.equip_limits.get(self.category[card])
        if limit is not None and held.get(self.category[card], 0) + 1 > int(limit):
            return False
        return hands + self.hands_of[card] <= self.hands

    def refresh(self, p: Player, full: bool) -> None:
        """Recompute a player's Armor and Dodge from class and equipment (Dodge never below 0)."""
        old_a, old_d = p.max_armor, p.max_dodge
        key = tuple(p.equipment)
        plus = self._kit_stats.get(key)
        if plus is None:
            items = self.items(p)
            plus = self._kit_stats[key] = (sum(int(c.get("armor") or 0) for c in items),
                                           sum(int(c.get("dodge") or 0) for c in items))
        p.max_armor = max(0, p.base["armor"] + plus[0])
        p.max_dodge = max(0, p.base["dodge"] + plus[1])
        if full:
            p.armor, p.dodge = p.max_armor, p.max_dodge
        else:
            p.armor = max(0, p.armor + p.max_armor - old_a)
            p.dodge = max(0, p.dodge + p.max_dodge - old_d)

    def attack_items(self, p: Player) -> list[Card]:
        return [c for c in self.items(p) if c.get("damage") is not None]

    def healers(self, p: Player) -> list[Card]:
        """LB-HEAL-1: the Healing spells a player holds (a Health value and no damage)."""
        key = tuple(p.equipment)
        out = self._healers.get(key)
        if out is None:
            out = self._healers[key] = [c for c in self.items(p)
                                        if c.get("health") is not None and c.get("damage") is None]
        return out

    def dice_of(self, c: Card | None, p: Player) -> int:
        """How many dice an item (None: the class attack) rolls; 0 when it never misses."""
        if c is None:
            return int(p.cls.get("attack") or 1) if p.cls else 1
        if self.effect(c, "never_misses"):
            return 0
        return int(c.get("attack") or (p.cls.get("attack") if p.cls else None) or 1)

    def groups(self, p: Player) -> dict[int, list[Card]]:
        """LB-ATK-2: the attack items by their number of dice (one roll per group; cached by kit)."""
        key = (p.cls.id if p.cls else None, *p.equipment)
        out = self._groups.get(key)
        if out is None:
            out = {}
            for c in self.attack_items(p):
                out.setdefault(self.dice_of(c, p), []).append(c)
            self._groups[key] = out
        return out

    def reach(self, items: list[Card]) -> tuple[int, bool]:
        """A roll's hits (the most of its items') and whether it never misses (cached by items)."""
        key = tuple(c.id for c in items)
        out = self._reach.get(key)
        if out is None:
            out = self._reach[key] = (max((int(c.get("hits") or 1) for c in items), default=1),
                                      any(self.effect(c, "never_misses") for c in items))
        return out

    def melee_only(self, p: Player) -> bool:
        items = self.attack_items(p)
        types = {c.get("damage_type") for c in items} if items else {p.cls.get("damage_type") if p.cls else None}
        return types == {"melee"}

    def roll(self, p: Player, with_: tuple[str, ...] | None) -> Roll:
        """An attack roll of ``p``'s with these items (None: the class attack), read once per class."""
        key = (p.cls.id if p.cls else None, with_)
        out = self._rolls.get(key)
        if out is None:
            items = [self.cards[i] for i in with_ or ()]
            heals = [int(h) for c in items if (h := self.effect(c, "heal_on_hit"))]
            dice = self.dice_of(items[0], p) if items else self.dice_of(None, p)
            used = [c.id for c in items] or ["class"]
            out = self._rolls[key] = Roll(items, dice, used, *self.reach(items), heals,
                                          self._plain_damage(items, p), frozenset(used))
        return out

    def _plain_damage(self, items: list[Card], p: Player) -> int | None:
        """The damage of a blow with ``items`` when no effect doubles it (None: one may)."""
        if any(self.effect(c, "double_damage_at") for c in items):
            return None
        return self.damage(items, None, Fighter(name=""), p, explain=False)[0]

    def damage(self, items: list[Card], total: int | None, t: Fighter, p: Player,
               explain: bool = True) -> tuple[int, str]:
        """LB-ATK-4: the weapons' damage, plus the class damage when its type matches the attack's;
        with the arithmetic in words (``explain``: the playable state needs only the number)."""
        cls_dmg = int(p.cls.get("damage") or 0) if p.cls else 0
        cls_type = p.cls.get("damage_type") if p.cls else None
        cls_name = p.cls.name if p.cls else "class"
        if not items:
            return cls_dmg, f"{cls_name} class damage {cls_dmg}, no weapon" if explain else ""
        dmg, parts = 0, []
        for c in items:
            d = int(c.get("damage") or 0)
            k = self.effect(c, "double_damage_at")
            if k and total is not None and total >= k * t.dodge:
                d *= 2
                if explain:
                    parts.append(f"{c.name} {d} (doubled: {total} ≥ {k} × Dodge {t.dodge})")
            elif explain:
                parts.append(f"{c.name} {d}")
            dmg += d
        if any(c.get("damage_type") == cls_type for c in items):
            dmg += cls_dmg
            return dmg, " + ".join([*parts, f"{cls_name} class {cls_dmg}"]) if explain else ""
        return dmg, " + ".join(parts) + f"; no class damage: the attack is not {cls_name}" if explain else ""

    def kit_effects(self, p: Player, name: str) -> list[Any]:
        """The values of effect ``name`` among a player's items (cached by kit)."""
        key = (name, *p.equipment)
        out = self._kit_fx.get(key)
        if out is None:
            out = self._kit_fx[key] = [v for c in self.items(p) if (v := self.effect(c, name))]
        return out

    # -- blows ------------------------------------------------------------------------------

    @staticmethod
    def hurt(t: Fighter, dmg: int) -> None:
        """LB-DMG-1: damage removes Armor first, the rest Health."""
        a = min(t.armor, dmg)
        t.armor -= a
        t.health = max(0, t.health - (dmg - a))
        if isinstance(t, Player) and t.restored is not None:
            t.restored["health"] = max(0, t.restored["health"] - (dmg - a))

    def miss(self, t: Fighter) -> None:
        """LB-ATK-3: a miss lowers the target's Dodge (not below 0)."""
        t.dodge = max(0, t.dodge - self.dodge_loss)
        if isinstance(t, Player) and t.restored is not None:
            t.restored["dodge"] = max(0, t.restored["dodge"] - self.dodge_loss)

    # -- the table --------------------------------------------------------------------------

    @staticmethod
    def order(players: list[Player], leader: int) -> list[Player]:
        """LB-RND-1: the active players from the Leader leftwards."""
        n = len(players)
        return [players[(leader + i) % n] for i in range(n) if not players[(leader + i) % n].ko]

    @staticmethod
    def left_of(players: list[Player], p: Player) -> Player | None:
        """The next active player to the left of ``p`` (None when nobody is active)."""
        i = players.index(p)
        n = len(players)
        for k in range(1, n + 1):
            q = players[(i + k) % n]
            if not q.ko:
                return q
        return None

    def default_numbers(self, players: list[Player]) -> dict[str, list]:
        """LB-TGT-1: the header's numbers, else 1…d dealt round the table among the active players."""
        if any(p.numbers is not None for p in players):
            return {p.name: list(p.numbers or []) for p in players}
        active = [p for p in players if not p.ko] or players
        held: dict[str, list] = {p.name: [] for p in active}
        for n in range(1, self.target_die + 1):
            held[active[(n - 1) % len(active)].name].append(n)
        return held

    def battles_to_win(self, n: int) -> int | None:
        v = self.win_table.get(n)
        return int(v) if isinstance(v, int) else None
