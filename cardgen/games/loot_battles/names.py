"""Loot & Battles: the names a log writes — cards, players and enemies — as the state's ids.

A log may name a card by id or by name and an enemy as ``rats#2``, ``Rats 2`` or just ``2``; the
state's actions use ids. A name that stands for nothing is ``LOG-FIELD`` (the log cannot be
read as meant), with "did you mean" where a name is near.
"""

from __future__ import annotations

import re
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import LogError
from cardgen.games.loot_battles.rules import Rules
from cardgen.games.loot_battles.state import Encounter
from cardgen.play.lookup import Names, NotFound, log_name


class LogNames:
    """The names of one game's cards and one table's players."""

    def __init__(self, rules: Rules, players: list[str]):
        self.rules = rules
        self.players = Names("player", [(p, p) for p in players])
        self._cards: dict[tuple[str, ...], Names[Card]] = {}

    def card(self, value: Any, kinds: tuple[str, ...], field: str) -> str:
        """The id of a card of one of ``kinds`` named ``value`` (id or name)."""
        names = self._cards.get(kinds)
        if names is None:
            names = self._cards[kinds] = Names(" or ".join(kinds) + " card",
                                               [(c.id, c) for k in kinds for c in self.rules.by_type.get(k, [])],
                                               lambda c: [c.name])
        try:
            return names.find(value).id
        except NotFound as e:
            msg = (f"'{field}': {e.message}" if "could be" in e.message
                   else f"'{field}' names no {' or '.join(kinds)} card: {value!r}")
            raise LogError("LOG-FIELD", msg, None, e.hint) from None

    def player(self, value: Any, field: str) -> str:
        return log_name(self.players, value, field, hint=f"players: {', '.join(self.players.keys())}")

    @staticmethod
    def enemy(value: Any, enc: Encounter, field: str) -> str:
        """The name of the enemy of ``enc`` a log calls ``value`` (``rats#2``, ``Rats 2``, ``2``)."""
        s = str(value).strip()
        if "#" in s:
            prefix, _, num = s.rpartition("#")
        else:
            m = re.fullmatch(r"(.*?)\s*(\d+)", s)
            prefix, num = (m.group(1), m.group(2)) if m else (s, "")
        prefix = prefix.strip().lower()
        ecard = enc.enemies[0].card if enc.enemies else None
        names = {""}
        if ecard is not None:
            names |= {ecard.id.lower(), ecard.name.lower(), ecard.name.lower() + "s", ecard.id.lower().rstrip("s")}
        if prefix not in names or not num.isdigit() or not 1 <= int(num) <= len(enc.enemies):
            refs = f"{enc.enemies[0].name} … {enc.enemies[-1].name}" if enc.enemies else "none"
            raise LogError("LOG-FIELD", f"'{field}' names no enemy of this Encounter: {value!r} (enemies: {refs})",
                           None)
        return enc.enemies[int(num) - 1].name

    def event(self, state: Any, ev: dict[str, Any]) -> dict[str, Any]:
        """``ev`` with every name it writes as the state's id (raises ``LogError`` for a name
        that stands for nothing)."""
        out = dict(ev)
        kind = ev["kind"]
        for f in ("player", "by", "to") + (("target",) if kind in ("heal", "enemy_attack") else ()):
            if ev.get(f) is not None:
                out[f] = self.player(ev[f], f)
        one, many = {"encounter_chosen": ("encounter", ()), "encounter_drawn": ("pick", ("cards",)),
                     "reinforcements_drawn": (None, ("cards",)), "equip": ("card", ()), "unequip": ("card", ()),
                     "loot_drawn": (None, ("cards",)), "heal": ("with", ())}.get(kind, (None, ()))
        kinds = ("encounter",) if kind.startswith(("encounter", "reinforcements")) else ("loot",)
        if one is not None and ev.get(one) is not None:
            out[one] = self.card(ev[one], kinds, one)
        for f in many:
            if ev.get(f) is not None:
                out[f] = [self.card(x, kinds, f) for x in ev[f]]
        if kind == "attack" and ev.get("with"):
            ids = [self.card(x, ("loot", "class"), "with") for x in ev["with"]]
            out["with"] = [i for i in ids if self.rules.cards[i].type != "class"]
        enc = state.encounter()
        if enc is not None and enc.placed:
            if kind == "enemy_attack":
                out["enemy"] = self.enemy(ev["enemy"], enc, "enemy")
            if kind == "attack":
                for f in ("target", "targets"):
                    if ev.get(f) is not None:
                        refs = ev[f] if f == "targets" else [ev[f]]
                        names = [self.enemy(x, enc, f) for x in refs]
                        out[f] = names if f == "targets" else names[0]
        return out
