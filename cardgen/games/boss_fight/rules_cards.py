"""Boss Fight rules engine: hand and piles, items, sacrifices, abilities, feats and card effects (BF-ACT-2/3, BF-ABIL-1)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardgen.content.model import Card
from cardgen.content.playlog import Event, LogError
from cardgen.core.hexgrid import rotate
from cardgen.core.problems import Loc, did_you_mean
from cardgen.games.boss_fight.state import Fighter
from cardgen.games.boss_fight.table_base import TableBase
from cardgen.games.boss_fight.vocab import HIDDEN

_NAMED_TEXT = re.compile(r"\*\*([^*]+)\*\*")


class CardRules(TableBase):
    """Cards of :class:`~.table.Table`."""

    # -- cards: hand and piles (BF-ACT-2, BF-ACT-3) -----------------------------------------------------

    def _from_hand(self, f: Fighter, c: Card | None, loc: Loc | None) -> None:
        hand = f.hand
        if c is None:
            if hand.unknown > 0:
                hand.unknown -= 1
            elif hand.known:
                hand.unknown = sum(hand.known.values()) - 1      # which one is not said: forget the names
                hand.known = Counter()
            else:
                self.ref.violation("BF-ACT-2", f"{f.key} has no card in hand", loc)
            return
        if hand.known[c.id] > 0:
            hand.take(c.id)
        elif hand.unknown > 0 and self._pool(f, c.id) > 0:
            hand.unknown -= 1
        else:
            have = ", ".join(self.cards[i].name for i in sorted(hand.known.elements())) or "none named"
            more = f" and {hand.unknown} unnamed" if hand.unknown else ""
            why = (f"its deck has {f.total[c.id]}, none left to be in its hand" if f.total[c.id] else
                   f"{c.name} is not in its action deck")
            self.ref.violation("BF-ACT-2", f"{f.key} plays {c.name}, which is not in its hand ({have}{more}): {why}",
                               loc)
            if hand.unknown > 0:
                hand.unknown -= 1

    def _play(self, ev: Event, f: Fighter, kind: str, fname: str = "card") -> Card:
        c = self._card(ev[fname], ev.at(fname), fname, ("action",))
        if c.get("kind") != kind:
            kinds = self.game.params.get("action_kinds") or {}
            self.ref.violation("BF-ACT-2", f"{c.name} is {('an ' if str(kinds.get(c.get('kind'), '')).lower()[:1] in 'aeiou' else 'a ')}"
                               f"{kinds.get(c.get('kind'), c.get('kind'))} card, not {kinds.get(kind, kind)}",
                               ev.at(fname))
        self._from_hand(f, c, ev.at(fname))
        if c.get("kind") == "item":
            f.used.put(c.id)
        else:
            f.discard.put(c.id)
        return c

    def _expend(self, f: Fighter, n: int, named: Sequence[Card | None], ev: Event, what: str, loc: Loc | None) -> None:
        if f.discard.size < n:
            self.ref.violation("BF-ACT-3", f"{what} expends {n} card{'s' if n != 1 else ''} from the Discard pile, "
                               f"which holds {f.discard.size}: it cannot be used", loc)
        for i in range(n):
            c = named[i] if i < len(named) else None
            if c is not None and f.discard.known[c.id] == 0 and f.discard.unknown == 0:
                self.ref.violation("BF-ACT-3", f"{c.name} is not in {f.key}'s Discard pile: only discarded cards are "
                                   "expended", loc)
                continue
            if f.discard.take(c.id if c else None) or (c is None and f.discard.known and
                                                       f.discard.take(next(iter(f.discard.known)))):
                f.expended.put(c.id if c else next(iter([None])), 1)

    def _card_or_text(self, value: Any, loc: Loc | None, fname: str) -> str:
        """A source: any card by id or name, or a name printed in bold on a card (a feat, a piece's attack)."""
        s = str(value).strip()
        low = s.lower()
        c = self.cards.get(s) or next((x for x in self.game.cards if low in (x.id.lower(), x.name.lower())), None)
        if c is not None:
            return c.name
        for x in self.game.cards:
            names = [str(x.get(k)) for k in ("ability_name", "feat_name") if x.get(k)]
            names += _NAMED_TEXT.findall(str(x.get("text") or ""))
            if any(low == n.lower() for n in names):
                return s
        raise LogError("LOG-FIELD", f"'{fname}' names no card, feat or ability: {value!r}", loc,
                       did_you_mean(s, [x.id for x in self.game.cards]))

    # -- items, sacrifices, abilities, feats, effects -------------------------------------------------------

    def play_item(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._action(ev, f)
        c = self._play(ev, f, "item")
        if ev["attack_limit"] is not None:
            self.attack_limit = int(ev["attack_limit"])
        t = self._fighter(ev["target"], ev.at("target"), "target") if ev["target"] is not None else f
        text = f"{f.key} uses {c.name} (to the Used pile)"
        if ev["heal"] is not None and t.alive:
            got = self._heal(t, int(ev["heal"]))
            t.hp_rule = "BF-CMB-3"
            text += f": {t.key} heals {got}, {t.hp} HP"
        self._t(ev, text)
        if ev["hp_left"] is not None:
            self._hp_claim(t, ev["hp_left"], ev.at("hp_left"), "BF-CMB-3")
            t.hp = int(ev["hp_left"])
        self._after_action(ev, f)

    def play_discard(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._action(ev, f)
        c = self._card(ev["card"], ev.at("card"), "card", ("action",)) if ev["card"] not in (None, HIDDEN) else None
        self._from_hand(f, c, ev.at("card") if ev["card"] else ev.loc)
        f.discard.put(c.id if c else None)
        if self.tracing:
            self._t(ev, f"{f.key} sacrifices {c.name if c else 'a card'} (an action)")
        self._after_action(ev, f)

    def _ability(self, f: Fighter, value: Any, loc: Loc | None) -> tuple[str, str, Card | None]:
        """(key, name, ability card or None): an ability of ``f``."""
        s = str(value).strip()
        low = s.lower()
        for a in f.abilities:
            if low in (a.id.lower(), a.name.lower()):
                return a.id, a.name, a
        own = []
        if f.card is not None and f.card.get("ability_name"):
            own.append(str(f.card.get("ability_name")))
        for p in f.pieces:
            own += _NAMED_TEXT.findall(str(p.card.get("text") or ""))
        for n in own:
            if low == n.lower():
                return n, n, None
        c = next((x for x in self.game.cards if x.type == "ability" and low in (x.id.lower(), x.name.lower())), None)
        if c is not None:
            self.ref.violation("BF-ABIL-1", f"{f.key} does not have the ability {c.name}", loc)
            return c.id, c.name, c
        raise LogError("LOG-FIELD", f"'ability' names no ability of {f.key}: {value!r}", loc,
                       did_you_mean(s, [a.id for a in f.abilities] + own) or
                       f"{f.key}'s abilities: {', '.join([a.id for a in f.abilities] + own) or 'none'}")

    def play_ability(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        key, name, card = self._ability(f, ev["ability"], ev.at("ability"))
        uses = bool(ev["uses_action"]) or ev["sacrifice"] is not None
        if uses:
            self._action(ev, f)
            if ev["sacrifice"] is not None:
                c = self._card(ev["sacrifice"], ev.at("sacrifice"), "sacrifice", ("action",)) \
                    if ev["sacrifice"] != HIDDEN else None
                self._from_hand(f, c, ev.at("sacrifice"))
                f.discard.put(c.id if c else None)
        elif self.phase == "place":
            self._end_placement(ev)
        used = uses or (card is not None and card.get("usage") == "used")
        if used:
            last = f.used_abilities.get(key)
            if last is not None and self.round - last <= self.rest:
                self.ref.violation("BF-ABIL-1", f"{f.key} used {name} in round {last}: a used ability rests that round "
                                   f"and the next {self.rest}" if self.rest != 1 else
                                   f"{f.key} used {name} in round {last}: a used ability cannot be used again in that "
                                   "round or the next", ev.at("ability"))
            f.used_abilities[key] = self.round
        n = ev["expend"]
        named = [self._card(x, ev.at("expended"), "expended", ("action",)) for x in ev["expended"] or []]
        if n is None and named:
            n = len(named)
        if n:
            self._expend(f, int(n), named, ev, name, ev.at("expend") if ev["expend"] is not None else ev.loc)
        self._t(ev, f"{f.key} uses {name}" + (" (an action)" if uses else "")
                    + (f", expending {n}" if n else ""))
        if uses:
            self._after_action(ev, f)

    def play_feat(self, ev: Event) -> None:
        f = self._fighter(ev["character"], ev.at("character"), "character")
        self._enter_turn(f, ev)
        if f.side != "hero" or f.card is None:
            self.ref.violation("BF-ACT-3", f"{f.key} has no Heroic Feat: only heroes do", ev.loc)
            return
        cost = int(f.feat_cost or 0)
        named = [self._card(x, ev.at("cards"), "cards", ("action",)) for x in ev["cards"] or []]
        n = ev["count"] if ev["count"] is not None else (len(named) if named else cost)
        if n != cost:
            self.ref.violation("BF-ACT-3", f"{f.card.get('feat_name')} costs exactly {cost} cards expended; the log "
                               f"expends {n}", ev.at("count") if ev["count"] is not None else ev.at("cards"))
        self._expend(f, int(n), named, ev, f"{f.key}'s Heroic Feat {f.card.get('feat_name')}", ev.loc)
        self._t(ev, f"{f.key} uses its Heroic Feat {f.card.get('feat_name')}, expending {n} (not an action): "
                    f"discard {f.discard.size}, expended {f.expended.size}")

    def play_effect(self, ev: Event) -> None:
        if self.phase == "place":
            self._end_placement(ev)
        src = self._card_or_text(ev["source"], ev.at("source"), "source")
        f = self._fighter(ev["character"], ev.at("character"), "character") if ev["character"] is not None else \
            self.current
        t = self._fighter(ev["target"], ev.at("target"), "target") if ev["target"] is not None else f
        parts = []
        for h in ev["rubble"] or []:
            x = self._hex(h, ev.at("rubble"))
            who = self.occupant(x)
            if not self._clear(x) or who is not None:
                there = self._where(x) if who is None else f"{self._off(x)} holds {who.key}"
                self.ref.violation("BF-MAP-1", f"an obstacle token goes on a free clear tile (no piece stands on an "
                                   f"obstacle); {there} is not", ev.at("rubble"))
            self.rubble = self.rubble | {x}     # a frozenset: shared by copies, its own key
            parts.append(f"obstacle token on {self._off(x)}")
        for h in ev["clear"] or []:
            self.rubble = self.rubble - {self._hex(h, ev.at("clear"))}
            parts.append(f"obstacle token off {self._off(self._hex(h, ev.at('clear')))}")
        if t is None:
            if not parts:
                raise LogError("LOG-FIELD", "an effect names its 'target' (or whose card it is)", ev.loc)
            self._t(ev, f"{src}: {', '.join(parts)}")
            return
        if ev["expend"]:
            who = f if f is not None else t
            self._expend(who, int(ev["expend"]), [], ev, src, ev.at("expend"))
            parts.append(f"{who.key} expends {ev['expend']}")
        for x in ev["returns"] or []:
            c = self._card(x, ev.at("returns"), "returns", ("action",)) if str(x).strip() != HIDDEN else None
            self._from_hand(t, c, ev.at("returns"))
            t.deck += 1
            parts.append(f"{t.key} puts {c.name if c else 'a card'} on top of its deck")
        if ev["revive"]:
            if t.alive or t.side != "hero":
                self.ref.violation("BF-CMB-3", f"{t.key} is not dead: only a dead hero returns", ev.at("revive"))
            else:
                t.dead = None
                if t.key in self.deaths:
                    self.deaths.remove(t.key)
                t.hp = 0
                other = self.occupant(t.origin, but=t) if t.origin is not None else None
                if other is not None:
                    assert t.origin is not None         # other is only looked for there
                    self.ref.violation("BF-MOVE-1", f"{t.key} returns at {self._off(t.origin)}, where {other.key} stands",
                                       ev.at("revive"))
                parts.append(f"{t.key} returns at its death token")
        if ev["damage"] and str(src).lower() in (self.poison, self.status_names[self.poison].lower()) and \
                t.alive and self.poison not in t.statuses:
            cured = f" (its roll of {t.cure_roll} at line {t.cure_loc.line} removed it)" if t.cure_loc else ""
            self.ref.violation("BF-STATUS-2", f"{t.key} is not {self.status_names[self.poison]}{cured}: poison deals "
                               "it no damage", ev.at("damage"))
        if not t.alive and (ev["damage"] or ev["heal"] or ev["status"] or ev["to"]):
            assert t.dead is not None
            self.ref.violation("BF-CMB-3", f"{t.key} died at line {t.dead.line}: only a death token is left", ev.loc)
        else:
            if ev["damage"]:
                t.hp -= int(ev["damage"])
                t.hp_rule = "BF-CMB-2"
                parts.append(f"{t.key} takes {ev['damage']}, {t.hp} HP")
            if ev["heal"]:
                got = self._heal(t, int(ev["heal"])) if not ev["revive"] else int(ev["heal"])
                if ev["revive"]:
                    t.hp = got
                t.hp_rule = "BF-CMB-3"
                parts.append(f"{t.key} heals {got}, {t.hp} HP")
            if ev["to"] is not None:
                x = self._hex(ev["to"], ev.at("to"))
                if t.side == "hero":
                    other = self.occupant(x, but=t)
                    if not self._clear(x) or other is not None:
                        where = self._where(x) if not self._clear(x) or other is None else \
                            f"{self._off(x)}, where {other.key} stands"
                        self.ref.violation("BF-MOVE-1", f"{t.key} is put on {where}", ev.at("to"))
                    t.origin = x
                else:
                    t.origin = x - rotate(t.anchor, t.rot)      # its anchor on x (placed or not yet)
                parts.append(f"{t.key} to {self._off(x)}")
            for k, d in (ev["stats"] or {}).items():
                sk = str(k).lower()
                if sk not in t.stats:
                    byname = {v.lower(): k2 for k2, v in self.stat_names.items()}
                    sk = byname.get(sk, sk)
                if sk not in t.stats:
                    raise LogError("LOG-FIELD", f"'stats' names no statistic: {k!r}", ev.at("stats"),
                                   did_you_mean(str(k), list(t.stats)))
                t.mods.append([sk, int(d), ev["until"] or "round", t.turns + 1])
                parts.append(f"{t.key} {self.stat_short.get(sk, sk)} {int(d):+d} (until {ev['until'] or 'round'} end)")
        if parts:
            self._t(ev, f"{src}: {'; '.join(parts)}")
        for s_ in ev["status"] or []:
            self._inflict(t, self._status(s_, ev.at("status"), "status"), ev)
        for s_ in ev["cure"] or []:
            if str(s_).lower() == "all":
                t.statuses = {}
                self._t(ev, f"{t.key} is free of every status")
                continue
            k = self._status(s_, ev.at("cure"), "cure")
            if t.statuses.pop(k, None) is not None:
                self._t(ev, f"{t.key} is no longer {self.status_names[k]}")
        if ev["hp_left"] is not None:
            self._hp_claim(t, ev["hp_left"], ev.at("hp_left"))
            t.hp = int(ev["hp_left"])
        self._settle(t, ev)
