"""Bones on Ice referee, part 2: contested rolls — Boosts, zone bonuses, Team Spirit dice,
ties — and, when the log's winner differs, the rule the table most likely missed."""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.games.bones_on_ice.model import Side, Skater, Team
from cardgen.games.bones_on_ice.ref_core import EngineCore
from cardgen.games.bones_on_ice.rules import tie_winner, zone_mods
from cardgen.games.bones_on_ice.vocab import STAT_NAMES


class EngineRolls(EngineCore):
    """Rolls and their diagnosis."""

    # -- rolls --------------------------------------------------------------------------------

    def _side(self, sk: Skater, stat: str) -> Side:
        return Side(sk, stat, sk.dice.get(stat, 0))

    def _contest(self, ev: Event, kind: str, a: Side, d: Side, tie: str, base: str, what: str,
                 stated: Team | None) -> tuple[Side | None, str]:
        """Resolve a contested roll: a (initiator) against d. Returns (winner or None on a re-roll tie, text)."""
        for team, eff, target, _e in self.pending:
            side = a if target is a.skater else d if target is d.skater else None
            name = team.spirit_name
            if eff["effect"] == "opponent_die" and side is not None:
                side.sides = int(eff["die"])
            elif eff["effect"] == "best_of" and side is not None and side.stat == eff["stat"]:
                side.best_of = int(eff["dice"])
            else:
                self.ref.violation("BOI-SPIRIT-1", f"the {team.label}' {name} names {target.short}, who makes no "
                                   f"{'Marksmanship ' if eff['effect'] == 'best_of' else ''}roll in this {what}",
                                   ev.loc)
        self.pending = []
        rolls = ev.get("rolls")
        if rolls is not None:
            if len(rolls) != 2:
                raise LogError("LOG-FIELD", f"'rolls' of a '{ev.kind}' event holds two values: "
                               f"[{a.skater.short.lower()}, {d.skater.short.lower()}]", ev.at("rolls"))
            for side, raw in ((a, rolls[0]), (d, rolls[1])):
                side.raw = raw
                side.value = self._roll_value(ev, side, raw)
        elif stated is None:
            field_name = "goal" if "goal" in self.EVENTS[ev.kind] else "winner"
            raise LogError("LOG-FIELD", f"a '{ev.kind}' event needs its 'rolls' or a stated '{field_name}'", ev.loc)
        # Boosts (BOI-STAM-2), zone bonuses (BOI-ZONE-1/2/3), Chaos roll bonus (BOI-CHAOS-2)
        boosts = ev.get("boosts") or []
        per: Counter = Counter()
        for b in boosts:
            t = self._find_team(b, ev, "boosts")
            per[t.idx] += 1
            if per[t.idx] > self.r.boost_per_roll:
                self.ref.violation("BOI-STAM-2", f"the {t.label} Boost this roll {per[t.idx]} times; a team Boosts "
                                   f"a roll at most {self.r.boost_per_roll} time(s)", ev.at("boosts"))
            if self.no_boost:
                self.ref.violation("BOI-CHAOS-2", f"{self.chaos_name}: no team may Boost a roll this round",
                                   ev.at("boosts"))
            self._spend(t, self.r.costs["boost"], "a Boost", ev, ev.at("boosts"))
            (a if t is a.team else d).mods.append(("Boost", self.r.boost_bonus, "BOI-STAM-2"))
        za, zd, zrule = zone_mods(self.r, kind, a.stat, a.team.idx,
                                  self.shot_zone if kind == "one_on_one" else a.skater.zone, d.stat, d.team.idx,
                                  d.skater.zone, d.team.idx in self.defense_everywhere)
        if za:
            a.mods.append(("Attack Bonus", za, "BOI-ZONE-1"))
        if zd:
            d.mods.append(("Defense Bonus" if zrule == "BOI-ZONE-2" else d.team.spirit_name, zd, zrule))
        if self.roll_bonus is not None:
            t, amount = self.roll_bonus
            for side in (a, d):
                if side.team is t:
                    side.mods.append((self.chaos_name, amount, "BOI-CHAOS-2"))
        winner = self._winner(a, d, tie)
        text = f"{a.text()} vs {d.text()}"
        if a.value is None or d.value is None:        # a die not read: the stated winner, else the rules'
            if stated is not None:
                winner = a if stated is a.team else d if stated is d.team else None
            return winner, text
        if stated is not None and (winner is None or stated is not winner.team):
            self._diagnose(ev, a, d, tie, base, what, stated, winner)
            winner = a if stated is a.team else d
        return winner, text

    def _roll_value(self, ev: Event, side: Side, raw: Any) -> int | None:
        what = f"{side.skater.short}'s {STAT_NAMES.get(side.stat, side.stat)} d{side.sides}"
        if isinstance(raw, list):
            if not side.best_of:
                self.ref.violation("BOI-ROLL-1", f"{what} is rolled once; the log gives {raw}", ev.at("rolls"))
            elif len(raw) != side.best_of:
                self.ref.violation("BOI-SPIRIT-1", f"{what} is rolled {side.best_of} times, keeping the higher; the "
                                   f"log gives {raw}", ev.at("rolls"))
            vals = [v for v in raw if self.ref.die(v, side.sides, "BOI-ROLL-1", ev.at("rolls"), what)]
            return max(vals) if vals else None
        if side.best_of:
            self.ref.violation("BOI-SPIRIT-1", f"{what} is rolled {side.best_of} times, keeping the higher; record "
                               f"every value, e.g. [3, 9]", ev.at("rolls"))
        if self.ref.die(raw, side.sides, "BOI-ROLL-1", ev.at("rolls"), what):
            return raw
        return raw if isinstance(raw, int) and not isinstance(raw, bool) else None

    @staticmethod
    def _winner(a: Side, d: Side, tie: str, skip_a: int | None = None, skip_d: int | None = None) -> Side | None:
        ta, td = a.total(skip_a), d.total(skip_d)
        if ta is None or td is None:
            return d if tie != "reroll" else None
        w = tie_winner(ta, td, tie)
        return a if w == "a" else d if w == "d" else None

    def _diagnose(self, ev: Event, a: Side, d: Side, tie: str, base: str, what: str, stated: Team,
                  winner: Side | None) -> None:
        """The log's winner differs from the rules': name the rule the table most likely missed."""
        loc = ev.at("goal") if "goal" in ev.fields else ev.at("winner")
        rules_say = f"the rules give it to the {winner.team.label}" if winner else "it is a tie, re-rolled"
        detail = f"({a.text()} vs {d.text()})"
        for side in (a, d):
            for i, (label, amount, rule) in enumerate(side.mods):
                alt = self._winner(a, d, tie, i if side is a else None, i if side is d else None)
                if alt is not None and alt.team is stated:
                    self.ref.violation(rule, f"the log gives the {what} to the {stated.label}; with "
                                       f"{side.skater.short}'s +{amount} {label} {rules_say} {detail}", loc)
                    return
        ta, td = a.total(), d.total()
        if ta == td:
            if tie == "reroll":
                self.ref.violation("BOI-ROLL-2", f"the {what} is tied {detail}: a tied Face-Off is re-rolled", loc)
            else:
                who = winner.skater.short if winner else "?"
                self.ref.violation(base, f"the log gives the {what} to the {stated.label}, but a tie goes to "
                                   f"{who} ({'the Goalie' if base == 'BOI-1V1-1' else 'the defender'}) {detail}", loc)
            return
        self.ref.violation(base, f"the log gives the {what} to the {stated.label}, but the higher roll wins: "
                           f"{rules_say} {detail}", loc)

    def _stated_winner(self, ev: Event) -> Team | None:
        return self._find_team(ev["winner"], ev, "winner") if ev.get("winner") is not None else None

    def _stated_goal(self, ev: Event, shooter: Team) -> Team | None:
        g = ev.get("goal")
        return None if g is None else shooter if g else self._other(shooter)

    def _shot_on_goal(self, ev: Event, sk: Skater, kind: str, what: str, base: str) -> bool:
        """A shot against the opposing Goalie; returns whether it scores."""
        opp = self._other(sk.team)
        goalie = opp.goalie(self.r.goalie_role) or opp.skaters[0]
        a, d = self._side(sk, "marksmanship"), self._side(goalie, "reflexes")
        stated = self._stated_goal(ev, sk.team)
        w, text = self._contest(ev, kind, a, d, self.r.ties["one_on_one"], base, what, stated)
        goal = w is not None and w.skater is sk
        if goal and kind != "shootout":
            sk.team.score += 1
        self._t(ev, f"{what}: {text} → " + (f"GOAL! {self._score_text()}" if goal and kind != "shootout"
                                             else "GOAL" if goal else f"SAVE by {goalie.short}"))
        return goal
