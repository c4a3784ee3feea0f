"""Bone Wars referee — attacks, blocks, dice and the stated consequences (BW-ATK-2…10,
BW-CREATE-6, BW-END-1): each event checked against the table, the combat computed on it
(:meth:`.table.Table.resolve_blocked`), the arithmetic traced, and what the log states
compared with it, then kept as recorded."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core.record import record
from cardgen.games.bone_wars.referee_base import RefereeBase
from cardgen.games.bone_wars.rules import Blocked, Monster, blocked_combat, can_meet, meet_reason
from cardgen.games.bone_wars.table import Combat, Outcome
from cardgen.games.bone_wars.vocab import NO_BLOCK
from cardgen.play.resync import in_step, unslipped


@record
class Fight:
    """The last blocked attack, for the claims that follow it."""

    out: Outcome
    a: Monster
    b: Monster
    ra: int
    rb: int
    res: Blocked
    before: int             # the blocker's HP left before the hit


class CombatReferee(RefereeBase):
    """The Destruction Phase and claim handlers of :class:`.engine.Engine`."""

    fight: Fight | None = None
    blow: tuple[Outcome, str] | None = None     # the last damage to a player, and its arithmetic

    def on_attack(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        target = self._find_player(ev["target"], ev.at("target"), "target")
        own = not self._out_of_turn(ev, p)
        if own:
            self._turn_actor(ev, p)
            self._creation(ev)
        else:       # the log goes on with the current player's turn: one slip, and in step after it
            self.ref.violation("BW-TURN-1", f"{p} attacks during {self.s.current}'s turn {self.s.turn}: turns go "
                               f"clockwise ({', '.join(self.s.players)}), and {p}'s own turn starts with a draw",
                               ev.at("player"))
        if not self.s.alive(m) and not self._back_from_slip(m):
            self.ref.violation("BW-ATK-8", f"{m.name} was destroyed (line {m.gone.line if m.gone else '?'}) and "
                               "cannot attack", ev.at("monster"))
            self.s.restore(m)
        if m.owner != p:
            self.ref.violation("BW-ATK-2", f"{m.name} is {m.owner}'s monster; {p} attacks with their own",
                               ev.at("monster"))
        if m.attacked == self.s.turn:
            self.ref.violation("BW-ATK-2", f"{m.name} already attacked this turn (each monster attacks at most "
                               "once per turn)", ev.at("monster"))
        elif m.born == self.s.turn or m.replaced == self.s.turn:
            if not m.has("haste"):
                how = "was created" if m.born == self.s.turn else "had a part replaced"
                self.ref.violation("BW-CREATE-6", f"{m.name} {how} this turn and has no "
                                   f"{self.rules.trait('haste')}: it cannot attack until "
                                   f"{p}'s next turn", ev.at("monster"))
        if target == m.owner:
            self.ref.violation("BW-ATK-2", f"{p} attacks an opponent, not themselves", ev.at("target"))
        elif self.s.out.get(target) is not None:
            self.ref.violation("BW-ATK-2", f"{target} is out of the game (line {self.s.out[target].line}); attacks "
                               "go to an opponent still in the game", ev.at("target"))
        able = self.s.attack(p, m, target, ev.loc, own).able
        self._t(ev, f"{m.name} (Str {m.str}, Atk {m.atk}) attacks {target}"
                    + ("" if able else f"; {target} has no monster able to block it"))

    def _close_combat(self, ev: Event) -> None:
        """An attack left unresolved when another event comes."""
        c = self.s.combat
        self.s.combat = None
        if c is None:
            return
        a = c.attacker.name
        if c.stage == "block":
            self.ref.violation("BW-ATK-3", f"{c.defender}'s answer to {a}'s attack (line {c.where.line}) is not "
                               "recorded: a 'block' (a monster, or none) and the dice or 'take_damage'", ev.loc)
        elif c.stage == "roll":
            assert c.blocker is not None        # a blocked attack
            self.ref.violation("BW-ATK-6", f"the dice of {a} against {c.blocker.name} (line {c.where.line}) are not "
                               "recorded: a 'roll' with attacker and blocker", ev.loc)
        else:
            self.ref.violation("BW-ATK-10", f"{c.defender} neither takes {a}'s damage nor rolls (line "
                               f"{c.where.line}): a 'take_damage' or a 'roll' with defender", ev.loc)

    def _no_combat(self, ev: Event, rule: str) -> None:
        self.ref.violation(rule, f"'{ev.kind}' with no attack to answer", ev.loc)

    def on_block(self, ev: Event) -> None:
        c = self.s.combat
        if c is None or c.stage != "block":
            self._no_combat(ev, "BW-ATK-3")
            return
        p = self._find_player(ev["player"], ev.at("player"), "player")
        if p != c.defender:
            self.ref.violation("BW-ATK-3", f"{c.attacker.name} attacks {c.defender}; {p} does not defend",
                               ev.at("player"))
        name = ev["monster"]
        if name is None or str(name).strip().lower() == NO_BLOCK:
            if c.able:
                c.stage = "declined"
                self._t(ev, f"{c.defender} does not block (could with {', '.join(b.name for b in c.able)}): "
                            "takes the damage")
            else:
                c.stage = "choice"
                self._t(ev, f"{c.defender} does not block")
            return
        b = self._find_monster(name, ev.at("monster"), "monster")
        if not self.s.alive(b) and not self._back_from_slip(b):
            self.ref.violation("BW-ATK-8", f"{b.name} was destroyed (line {b.gone.line if b.gone else '?'}) and "
                               "cannot block", ev.at("monster"))
            self.s.restore(b)
        if b.owner != c.defender:
            self.ref.violation("BW-ATK-3", f"{c.defender} blocks with a monster they control; {b.name} is "
                               f"{b.owner}'s", ev.at("monster"))
        if not can_meet(c.attacker, b):
            self.ref.violation("BW-ATK-4", f"{b.name} cannot block {c.attacker.name}: "
                               f"{meet_reason(self.rules, c.attacker, b)}", ev.at("monster"))
        if b.tapped and not b.has("vigilant"):
            self.ref.violation("BW-ATK-5", f"{b.name} attacked (turn {b.attacked}) and cannot block until "
                               f"{b.owner}'s next turn (it is not {self.rules.trait('vigilant')})",
                               ev.at("monster"))
        c.blocker = b
        c.stage = "roll"
        self._t(ev, f"{c.defender} blocks with {self.brief(b)}")

    def on_roll(self, ev: Event) -> None:
        c = self.s.combat
        if c is None:
            self._no_combat(ev, "BW-ATK-6")
            return
        if c.stage == "roll":
            if ev["attacker"] is None or ev["blocker"] is None:
                self.ref.violation("BW-ATK-6", f"a blocked attack rolls two d{self.rules.die}s: record 'attacker' "
                                   "and 'blocker'", ev.loc)
                self.s.combat = None
                return
            die = self.rules.die
            self.ref.die(ev["attacker"], die, "BW-ATK-6", ev.at("attacker"), f"the attacker's d{die}")
            self.ref.die(ev["blocker"], die, "BW-ATK-6", ev.at("blocker"), f"the blocker's d{die}")
            self._resolve_blocked(ev, c, ev["attacker"], ev["blocker"])
            return
        if ev["defender"] is None:
            if ev["attacker"] is not None and c.stage == "block":
                self.ref.violation("BW-ATK-3", f"the dice are rolled but {c.defender} named no blocker", ev.loc)
            else:
                self.ref.violation("BW-ATK-10", "an unblocked defender's roll is recorded as 'defender'", ev.loc)
            self.s.combat = None
            return
        if c.stage == "block":
            c.stage = "declined" if c.able else "choice"
        if c.stage == "declined":
            self.ref.violation("BW-ATK-10", f"{c.defender} could block with {', '.join(b.name for b in c.able)}: "
                               "a defender who declines to block takes the damage (no roll)", ev.at("defender"))
        self.ref.die(ev["defender"], self.rules.die, "BW-ATK-10", ev.at("defender"), f"the defender's d{self.rules.die}")
        self._resolve_unblocked(ev, c, ev["defender"])

    def on_take_damage(self, ev: Event) -> None:
        c = self.s.combat
        p = self._find_player(ev["player"], ev.at("player"), "player")
        if c is None:
            self._no_combat(ev, "BW-ATK-10")
            return
        if c.stage == "roll":
            assert c.blocker is not None        # a blocked attack
            self.ref.violation("BW-ATK-6", f"{c.defender} blocked with {c.blocker.name}: a blocked attack is "
                               "settled by the dice", ev.loc)
            self.s.combat = None
            return
        if c.stage == "block":
            c.stage = "declined" if c.able else "choice"
        if p != c.defender:
            self.ref.violation("BW-ATK-10", f"{c.attacker.name} attacks {c.defender}, not {p}", ev.at("player"))
        self._resolve_unblocked(ev, c, None)
        self._player_claims(ev, c.defender, ev["damage"], ev["hp_left"], "damage", "hp_left")

    def _fight_text(self, a: Monster, b: Monster, ra: int, rb: int, res: Blocked) -> tuple[str, str]:
        """The dice arithmetic of a blocked attack and its result, as the trace and messages say it."""
        r = self.rules
        pen_text = f" − {res.penalty} ({r.trait('intimidating')})" if res.penalty else ""
        at, bt = res.attack_total, res.block_total
        dice = f"{a.name} {ra} + {a.str}{pen_text} = {at} vs {b.name} {rb} + {b.def_} = {bt}"
        how = ("blocked, no damage" if bt > at else "hit" if at > bt
               else f"tie, half damage ({a.atk} ÷ {r.tie_div}, rounded {r.tie_round})")
        return dice, how

    def _resolve_blocked(self, ev: Event, c: Combat, ra: int, rb: int) -> None:
        """BW-ATK-6, 7, 8, 9: d20 + Str (− Intimidating) against d20 + Def, on the table."""
        a, b = c.attacker, c.blocker
        assert b is not None
        out, res, before, over = self.s.resolve_blocked(c, ra, rb, ev.loc)
        dice, how = self._fight_text(a, b, ra, rb, res)
        self.fight = Fight(out, a, b, ra, rb, res, before)
        at, bt = res.attack_total, res.block_total
        if bt > at:
            self._t(ev, f"{dice}: blocked, no damage")
            return
        self._t(ev, f"{dice}: {how}; {b.name} takes {res.damage} ({b.hp_left} of {b.hp} HP left)")
        if b.name in out.destroyed:
            self._t(ev, f"{b.name} is destroyed; its parts go to the discard pile")
            if over:
                hp = self.s.hp[b.owner]
                self.blow = (out, f"{a.name} tramples: {res.damage} damage − {b.name}'s {before} HP left = {over}; "
                                  f"{hp + over} − {over} = {hp}")
                self._t(ev, f"{a.name} tramples: {b.owner} takes the {over} left over: {hp} HP")
        for p in out.eliminated:
            self._trace_out(p, ev)

    def _resolve_unblocked(self, ev: Event, c: Combat, roll: int | None) -> None:
        """BW-ATK-10: take the Atk, or roll a d20 higher than the attacker's Str for no damage."""
        a = c.attacker
        out, saved = self.s.resolve_unblocked(c, roll, ev.loc)
        d, hp = c.defender, self.s.hp[c.defender]
        rolled = f"{d} rolls {roll} against {a.name}'s Str {a.str}: " if roll is not None else ""
        if saved:
            self.blow = (out, f"{rolled}no damage")
            self._t(ev, f"{rolled}no damage")
            return
        self.blow = (out, f"{rolled + 'not higher; ' if rolled else ''}{a.name}'s Atk {a.atk}: "
                          f"{hp + a.atk} − {a.atk} = {hp}")
        if roll is not None:
            self._t(ev, f"{rolled}not higher")
        self._t(ev, f"{d} takes {a.atk} from {a.name}: {hp} HP")
        for p in out.eliminated:
            self._trace_out(p, ev)

    # -- stated consequences ------------------------------------------------------------------

    def _player_claims(self, ev: Event, p: str, amount: Any, hp: Any, f_amount: str, f_hp: str) -> None:
        out = self.s.last
        rule = (out.player_rule.get(p) if out else None) or \
               ("BW-ATK-9" if out is not None and out.blocked else "BW-ATK-10")
        computed = out.player_dmg.get(p, 0) if out else 0
        bad_amount = amount is not None and amount != computed
        bad_hp = hp is not None and not in_step(self.ref, f"{p}'s HP", hp, self.s.hp[p])
        how = f" ({self.blow[1]})" if self.blow is not None and self.blow[0] is out and out is not None else ""
        if bad_amount and bad_hp:        # one slip, one problem
            self.ref.violation(rule, f"the log says {p} takes {amount} and has {hp} HP, but the rules give "
                               f"{computed} and {self.s.hp[p]} HP{how}", ev.at(f_amount))
        elif bad_amount:
            self.ref.violation(rule, f"the log says the damage to {p} is {amount!r}, but the rules give "
                               f"{computed!r}{how}", ev.at(f_amount))
        elif bad_hp:
            self.ref.violation(rule, f"the log says {p}'s HP is {hp!r}, but the rules give {self.s.hp[p]!r}{how}",
                               ev.at(f_hp))
        before = self.s.hp[p]
        if hp is not None:                      # as recorded
            self.s.hp[p] = hp
        elif amount is not None:
            self.s.hp[p] -= amount - computed
        if self.s.hp[p] != before:
            self._t(ev, f"as recorded: {p} has {self.s.hp[p]} HP")
        if amount is not None and out is not None:
            out.player_dmg[p] = amount
        self._settle_player(p, ev)

    def _settle_player(self, p: str, ev: Event) -> None:
        if self.s.hp[p] <= 0 and self.s.out.get(p) is None:
            self._eliminate(p, ev)
            if self.s.last is not None:
                self.s.last.eliminated.append(p)
        elif self.s.hp[p] > 0 and self.s.out.get(p) is not None and self.s.last is not None \
                and p in self.s.last.eliminated:
            self.s.last.eliminated.remove(p)
            self.s.uneliminate(p)
            self._t(ev, f"{p} stays in the game (as recorded): {self.s.hp[p]} HP")

    def on_damage(self, ev: Event) -> None:
        mon, pl = ev["monster"], ev["player"]
        if (mon is None) == (pl is None):
            raise LogError("LOG-FIELD", "a 'damage' event names either a 'monster' or a 'player'", ev.loc)
        if pl is not None:
            p = self._find_player(pl, ev.at("player"), "player")
            self._player_claims(ev, p, ev["amount"], ev["hp_left"], "amount", "hp_left")
            return
        m = self._find_monster(mon, ev.at("monster"), "monster")
        out = self.s.last
        computed = out.monster_dmg.get(m.name, 0) if out else 0
        amount, hp = ev["amount"], ev["hp_left"]
        self._monster_claims(ev, m, amount, hp, computed)
        before = m.damage
        if hp is not None:                      # as recorded (HP left wins over the amount)
            if hp != m.hp_left:
                m.damage = m.hp - hp
        elif amount is not None:
            m.damage += amount - computed
        if m.damage != before and self.s.alive(m) and m.damage < m.hp:
            self._t(ev, f"as recorded: {self.brief(m)}")
        if amount is not None and out is not None:
            out.monster_dmg[m.name] = amount
        if self.s.alive(m) and m.damage >= m.hp:
            self.s.destroy(m, ev.loc)
            if out is not None:
                out.destroyed.append(m.name)
            self._t(ev, f"{m.name} is destroyed (as recorded: {m.damage} damage, {m.hp} HP)")
        elif not self.s.alive(m) and m.damage < m.hp and out is not None and m.name in out.destroyed:
            out.destroyed.remove(m.name)
            self.s.restore(m)
            self._t(ev, f"{m.name} stays on the table (as recorded): {self.brief(m)}")

    def _monster_claims(self, ev: Event, m: Monster, amount: int | None, hp: int | None, computed: int) -> None:
        """BW-ATK-7 (or BW-ATK-6 when the stated damage is the one without an Intimidating
        blocker's penalty): one problem for one slip, with the dice arithmetic."""
        bad_amount = amount is not None and amount != computed
        bad_hp = hp is not None and not in_step(self.ref, f"{m.name}'s HP left", hp, m.hp_left)
        if not (bad_amount or bad_hp):
            return
        f = self.fight if self.fight is not None and self.fight.out is self.s.last and self.fight.b is m else None
        said = " and ".join(x for x in (f"takes {amount}" if amount is not None else "",
                                        f"has {hp} HP left" if hp is not None else "") if x)
        rules_say = " and ".join(x for x in (f"{computed}" if amount is not None else "",
                                             f"{m.hp_left} HP left" if hp is not None else "") if x)
        where = ev.at("amount") if bad_amount else ev.at("hp_left")
        if f is None:
            self.ref.violation("BW-ATK-7", f"the log says {m.name} {said}, but the rules give {rules_say}", where)
            return
        dice, how = self._fight_text(f.a, f.b, f.ra, f.rb, f.res)
        if f.res.penalty:
            alt = blocked_combat(replace(self.rules, penalty=0), f.a, f.b, f.ra, f.rb)
            if (amount is None or amount == alt.damage) and (hp is None or hp == max(0, f.before - alt.damage)):
                dice0, how0 = self._fight_text(f.a, f.b, f.ra, f.rb, alt)
                self.ref.violation("BW-ATK-6", f"the log says {m.name} {said}: that is {f.a.name}'s attack without "
                                   f"{m.name}'s {self.rules.trait('intimidating')} penalty ({dice0}: {how0}); with "
                                   f"it, {dice}: {how}", where)
                return
        self.ref.violation("BW-ATK-7", f"the log says {m.name} {said}, but the rules give {rules_say} "
                           f"({dice}: {how})", where)

    def on_destroyed(self, ev: Event) -> None:
        m = self._find_monster(ev["monster"], ev.at("monster"), "monster")
        alt = unslipped(self.ref, f"{m.name}'s HP left", m.hp_left)
        if self.s.alive(m) and alt is not None and alt <= 0:       # the HP left stated was the slip
            self.s.destroy(m, ev.loc)
            self._t(ev, f"{m.name} is destroyed (back in step with the log)")
        elif self.s.alive(m):
            self.ref.violation("BW-ATK-8", f"{m.name} has {m.damage} damage and {m.hp} HP: a monster "
                               "is destroyed when its damage reaches its HP", ev.at("monster"))
            self.s.destroy(m, ev.loc)
            self._t(ev, f"{m.name} is destroyed (as recorded)")

    def on_eliminated(self, ev: Event) -> None:
        p = self._find_player(ev["player"], ev.at("player"), "player")
        alt = unslipped(self.ref, f"{p}'s HP", self.s.hp[p])
        if self.s.out.get(p) is None and alt is not None and alt <= 0:     # the HP stated was the slip
            self._eliminate(p, ev)
        elif self.s.out.get(p) is None:
            self.ref.violation("BW-END-1", f"{p} has {self.s.hp[p]} HP: a player is removed at 0 HP or less",
                               ev.at("player"))
            self._eliminate(p, ev)
