"""Bones on Ice referee, part 5: the Mid-Game actions, the 1v1 and rebound, penalty and
shootout shots, Team Spirit."""

from __future__ import annotations

from collections import Counter

from cardgen.content.playlog import Event, LogError
from cardgen.games.bones_on_ice.model import Muted, Skater
from cardgen.games.bones_on_ice.ref_chaos import EngineChaos


class EnginePlay(EngineChaos):
    """The actions of a round."""

    # -- Mid-Game (BOI-MID-1 … 7) -------------------------------------------------------------

    def _mid_check(self, ev: Event, sk: Skater, goalie_reported: bool = False) -> None:
        ph = self.phase
        ended = False
        if self.markers and ph in ("recovered", "start"):
            # in step with the markers: no round begins here; the event is applied within the
            # round as recorded, and the round's phase stays where it was (one slip, one problem)
            if not self.slipped:
                self.ref.violation("BOI-ROUND-1", f"round {self.round} is over (its Recovery was played): the "
                                   "next round starts with 'round_start' and its Face-Off" if ph == "recovered"
                                   else f"the Mid-Game follows the Face-Off; round {self.round} had none yet", ev.loc)
            self.slipped = True
            self.stray = ph
            self.ref = Muted(self.ref)  # the rest of this out-of-order event is applied, not judged
            ended = True
        elif ph in ("setup", "recovered", "start"):
            self.ref.violation("BOI-ROUND-1", "the Mid-Game follows the Face-Off; "
                               + ("no round is under way" if ph != "start" else f"round {self.round} had none"),
                               ev.loc)
            if ph != "start":
                self._begin_round(ev)
            self.active = sk.team       # a Mid-Game of this team, as recorded: a new one
            self.phase = "mid"
            self.acted, self.extra = Counter(), Counter()
            self.slipped = True
            self.ref = Muted(self.ref)  # the rest of this event is applied, not judged again
            ended = True
        elif ph == "faceoff_tie":
            self.ref.violation("BOI-ROLL-2", "the Face-Off was tied: it is re-rolled before the Mid-Game", ev.loc)
            self.active = sk.team
            self.phase = "mid"
        elif ph == "one_v_one":
            assert self.shot is not None        # the phase of a shot that got through
            self.ref.violation("BOI-MID-3", f"{self.shot.short}'s shot got through: the 1v1 comes next", ev.loc)
            self.phase = "mid"
        elif ph == "rebound":
            self.ref.violation("BOI-1V1-1", "after a Save both roll for the rebound ('rebound' event)", ev.loc)
            self.phase = "mid"
        elif ph == "mid_over":
            rule, why = self.mid_end
            who = f"the {self.active.label}'" if self.active else "the active team's"
            self.ref.violation(rule, f"{who} Mid-Game is over ({why}): no more actions this round", ev.loc)
            ended = True
            # applied as recorded: the table played on, so the Mid-Game goes on as it did (the
            # rest of this event is not judged again, and later actions are judged as usual)
            self.phase = "mid"
            self.active = sk.team
            self.ref = Muted(self.ref)
        if self.scramble_due:
            self._scramble_missed(ev)
        if self.active is None:
            self.active = sk.team
        if sk.role not in self.r.acting_roles:
            if not goalie_reported:
                self.ref.violation("BOI-MID-1", f"{sk.short} is a Goalie: the Goalie takes no action in the Mid-Game",
                                   ev.at("skater"))
        elif not ended and sk.team is not self.active:
            self.ref.violation("BOI-MID-1", f"{sk.short} plays for the {sk.team.label}; only the "
                               f"{self.active.label} (who won the Face-Off) act in this Mid-Game", ev.at("skater"))
        elif not ended and self.acted[id(sk)] >= 1 + self.extra[id(sk)]:
            self.ref.violation("BOI-MID-1", f"{sk.short} already acted in this Mid-Game (one action per skater)",
                               ev.at("skater"))
        self.acted[id(sk)] += 1
        self.mid_started = True

    def _end_mid(self, rule: str, why: str) -> None:
        self.phase = "mid_over"
        self.mid_end = (rule, why)

    def _carrier(self, ev: Event, sk: Skater, rule: str, verb: str) -> None:
        if self.puck is not sk:
            holder = f"{self.puck.short} has it" if self.puck else "nobody has it"
            self.ref.violation(rule, f"only the puck carrier {verb}; {sk.short} does not have the puck "
                               f"({holder})", ev.at("skater"))
            self.puck = sk

    def _defender(self, ev: Event, fname: str, against: Skater, what: str) -> Skater:
        d = self._find_skater(ev[fname], ev, fname)
        if d.team is against.team:
            self.ref.violation("BOI-MID-6", f"{d.short} is {against.short}'s teammate; the opponent picks one of "
                               f"its own skaters to {what}", ev.at(fname))
        elif d.role not in self.r.defending_roles:
            self.ref.violation("BOI-MID-6", f"{d.short} is the Goalie; the opponent picks a skater other than the "
                               f"Goalie to {what}", ev.at(fname))
        return d

    def on_move(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-2", "moves with the puck")
        dest = self._zone(ev["zone"], sk.team, ev, "zone")
        if abs(dest - sk.zone) != 1:
            self.ref.violation("BOI-MID-2", f"{sk.short} is in the {self._zname(sk.team, sk.zone)}: a Move goes "
                               f"to an adjacent zone, not the {self._zname(sk.team, dest)}", ev.at("zone"))
        d = self._defender(ev, "defender", sk, "defend")
        self._spend(sk.team, self.r.costs["move"], "a Move", ev)
        frm = self._zname(sk.team, sk.zone)
        w, text = self._contest(ev, "move", self._side(sk, "reflexes"), self._side(d, "reflexes"),
                                self.r.ties["contested"], "BOI-ROLL-2", "Move", self._stated_winner(ev))
        if w is not None and w.skater is sk:
            sk.zone = dest
            self._t(ev, f"{sk.short} moves {frm} → {self._zname(sk.team, dest)} past {d.short}: {text} → through")
        else:
            self.puck = d
            self._end_mid("BOI-MID-1", f"{d.short} stopped {sk.short}'s Move and took the puck")
            self._t(ev, f"{sk.short} tries {frm} → {self._zname(sk.team, dest)}, {d.short} defends: {text} → "
                    f"stopped, {d.short} takes the puck; the {sk.team.label}' Mid-Game ends")

    def on_shoot(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-3", "shoots")
        d = self._defender(ev, "defender", sk, "block the shot")
        self._spend(sk.team, self.r.costs["shoot"], "a Shoot", ev)
        w, text = self._contest(ev, "shoot", self._side(sk, "marksmanship"), self._side(d, "reflexes"),
                                self.r.ties["contested"], "BOI-ROLL-2", "Shoot roll",
                                self._stated_winner(ev))
        where = self._zname(sk.team, sk.zone)
        if w is not None and w.skater is sk:
            self.phase = "one_v_one"
            self.shot, self.shot_zone = sk, sk.zone
            self._t(ev, f"{sk.short} shoots from the {where}, {d.short} blocks: {text} → through to the 1v1")
        else:
            if self.r.blocked_shot == "blocker":
                self.puck = d
                self._end_mid("BOI-MID-7", f"{d.short} blocked the shot and took the puck")
                tail = f"{d.short} takes the puck; the {sk.team.label}' Mid-Game ends"
            else:
                tail = f"{sk.short} keeps the puck"
            self._t(ev, f"{sk.short} shoots from the {where}, {d.short} blocks: {text} → blocked, {tail}")

    def on_pass(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        self._mid_check(ev, sk)
        self._carrier(ev, sk, "BOI-MID-4", "passes")
        to = self._find_skater(ev["to"], ev, "to")
        if to.team is not sk.team or to is sk:
            self.ref.violation("BOI-MID-4", f"a Pass goes to a teammate; {to.short} is "
                               f"{'the passer' if to is sk else 'an opponent'}", ev.at("to"))
        elif abs(to.zone - sk.zone) > 1:
            self.ref.violation("BOI-MID-4", f"{to.short} is in the {self._zname(sk.team, to.zone)}, {sk.short} in "
                               f"the {self._zname(sk.team, sk.zone)}: a Pass goes to a teammate in the same or an "
                               "adjacent zone", ev.at("to"))
        self._spend(sk.team, self.r.costs["pass"], "a Pass", ev)
        self.puck = to
        self.phase = "pass" if self.phase == "mid" else self.phase
        self.pass_info = (sk, to)
        self._t(ev, f"{sk.short} passes to {to.short} ({self._zname(sk.team, to.zone)}); "
                f"{sk.team.label} Stamina {sk.team.stamina}")

    def on_intercept(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        if self.phase != "pass" or self.pass_info is None:
            self.ref.violation("BOI-MID-4", "an Interception answers a Pass, right after it; no Pass was just made",
                               ev.loc)
            if self.puck is None or self.puck.team is sk.team:
                return
            self.pass_info = (self.puck, self.puck)
        passer, receiver = self.pass_info
        self.pass_info = None
        if sk.team is passer.team:
            self.ref.violation("BOI-MID-6", f"{sk.short} is {passer.short}'s teammate; the opponent intercepts",
                               ev.at("skater"))
        elif sk.role not in self.r.defending_roles:
            self.ref.violation("BOI-MID-6", f"{sk.short} is the Goalie; the opponent intercepts with a skater "
                               "other than the Goalie", ev.at("skater"))
        self._spend(sk.team, self.r.costs["interception"], "an Interception attempt", ev)
        w, text = self._contest(ev, "interception", self._side(passer, "reflexes"), self._side(sk, "reflexes"),
                                self.r.ties["contested"], "BOI-ROLL-2", "Interception",
                                self._stated_winner(ev))
        if w is not None and w.skater is sk:
            self.puck = sk
            self._end_mid("BOI-MID-1", f"{sk.short} intercepted the pass")
            self._t(ev, f"{sk.short} intercepts: {text} → intercepted, {sk.short} takes the puck; the "
                    f"{passer.team.label}' Mid-Game ends")
        else:
            self.phase = "mid"
            self._t(ev, f"{sk.short} intercepts: {text} → the pass reaches {receiver.short}")

    def on_tactical_move(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        dest = self._zone(ev["zone"], sk.team, ev, "zone")
        if sk.role == self.r.goalie_role:
            self.ref.violation("BOI-SETUP-2", f"{sk.short} is a Goalie: Goalies stay in their own Defensive Zone",
                               ev.at("skater"))
            self._mid_check(ev, sk, goalie_reported=True)
        else:
            self._mid_check(ev, sk)
        if self.puck is sk:
            self.ref.violation("BOI-MID-5", f"{sk.short} has the puck: a Tactical Move is for a skater without it "
                               "(the carrier Moves)", ev.at("skater"))
        if abs(dest - sk.zone) != 1:
            self.ref.violation("BOI-MID-5", f"{sk.short} is in the {self._zname(sk.team, sk.zone)}: a Tactical Move "
                               f"goes to an adjacent zone, not the {self._zname(sk.team, dest)}", ev.at("zone"))
        self._spend(sk.team, self.r.costs["tactical_move"], "a Tactical Move", ev)
        frm = self._zname(sk.team, sk.zone)
        if sk.role != self.r.goalie_role:
            sk.zone = dest
        self._t(ev, f"{sk.short} skates {frm} → {self._zname(sk.team, dest)} (Tactical Move); "
                f"{sk.team.label} Stamina {sk.team.stamina}")

    # -- 1v1 (BOI-1V1-1), penalty and shootout shots ------------------------------------------

    def on_one_v_one(self, ev: Event) -> None:
        shooter = self.shot
        if self.phase != "one_v_one" or shooter is None:
            self.ref.violation("BOI-MID-3", "a 1v1 follows a Shoot that gets past the defending skater", ev.loc)
            if ev.get("skater") is not None:
                shooter = self._find_skater(ev["skater"], ev, "skater")
            shooter = shooter or self.puck
            if shooter is None:
                return
            self.shot_zone = shooter.zone
        elif ev.get("skater") is not None:
            named = self._find_skater(ev["skater"], ev, "skater")
            if named is not shooter:
                self.ref.violation("BOI-MID-3", f"{shooter.short}'s shot got through: {shooter.short} takes the "
                                   f"1v1, not {named.short}", ev.at("skater"))
        self.shot = shooter
        goal = self._shot_on_goal(ev, shooter, "one_on_one", "1v1", "BOI-1V1-1")
        if goal:
            self.puck = None
            self._end_mid("BOI-MID-7", f"{shooter.short} scored")
        else:
            self.phase = "rebound"
        self._score_claims(ev, "BOI-1V1-1")

    def on_rebound(self, ev: Event) -> None:
        shooter = self.shot
        if self.phase != "rebound" or shooter is None:
            self.ref.violation("BOI-1V1-1", "a rebound is rolled after a Save in the 1v1", ev.loc)
            if shooter is None:
                return
        goalie = self._other(shooter.team).goalie(self.r.goalie_role) or self._other(shooter.team).skaters[0]
        w, text = self._contest(ev, "rebound", self._side(shooter, "reflexes"), self._side(goalie, "reflexes"),
                                self.r.ties["rebound"],
                                "BOI-1V1-1", "rebound", self._stated_winner(ev))
        if w is not None and w.skater is shooter:
            self.puck = shooter
            self.phase = "mid"
            self._t(ev, f"rebound: {text} → {shooter.short} keeps the puck")
        else:
            self.puck = goalie
            self._end_mid("BOI-MID-1", f"{goalie.short} won the rebound")
            self._t(ev, f"rebound: {text} → {goalie.short} covers the puck; the {shooter.team.label}' Mid-Game ends")

    def on_shootout(self, ev: Event) -> None:
        sk = self._find_skater(ev["skater"], ev, "skater")
        if self.phase not in ("shootout", "setup", "recovered") and self.round >= self.r.rounds:
            # in step with the log: its shootout closes the last round (one problem, if not yet reported)
            if not self.slipped:
                self.ref.violation("BOI-ROUND-1", f"round {self.round} ends without its Recovery (each round is "
                                   "Face-Off, Mid-Game, 1v1, Recovery)", ev.loc)
            self.slipped = True
            self._recover(ev, silent=True)
        if self.phase != "shootout":
            if not self.past_end:
                self.ref.violation("BOI-END-2", f"a shootout is played only when the score is tied after round "
                                   f"{self.r.rounds}", ev.loc)
            self.past_end = True
            return
        team = sk.team
        first = self.last_faceoff_team or self.teams[0]
        n = {t.idx: sum(1 for s, _g in self.shots if s is t) for t in self.teams}
        due = first if n[first.idx] <= n[self._other(first).idx] else self._other(first)
        rnd = min(n.values()) + 1
        if team is not due:
            self.ref.violation("BOI-END-3", f"shootout round {rnd}: the {due.label} shoot now (each round the "
                               f"{first.label}, who won the last Face-Off, shoot first)", ev.at("skater"))
        if sk.role not in self.r.shooter_roles:
            self.ref.violation("BOI-END-3", f"{sk.short} is the Goalie; a shootout shot is taken by another "
                               "skater", ev.at("skater"))
        goal = self._shot_on_goal(ev, sk, "shootout", f"shootout round {rnd}", "BOI-1V1-1")
        self.shots.append((team, goal))
        if goal:
            team.shootout += 1
        self._score_claims(ev, "BOI-END-2", shootout=True)
        n[team.idx] += 1
        a, b = self.teams
        if n[0] == n[1]:
            for t in self.teams:       # the shootout round is over: Team Spirits may be used again
                t.spirit_uses = 0
        if n[0] == n[1] and n[0] >= self.r.shootout_rounds:
            self.ref.trace(f"      shootout after {n[0]} round(s): {a.label} {a.shootout} – {b.shootout} {b.label}")
            if a.shootout != b.shootout:
                self._decide(a if a.shootout > b.shootout else b, "shootout", ev)
            elif not self.r.sudden_death:
                self._decide(None, "draw", ev)

    # -- Team Spirit (BOI-SPIRIT-1) -------------------------------------------------------------

    def on_team_spirit(self, ev: Event) -> None:
        team = self._find_team(ev["team"], ev, "team")
        if self.phase in ("setup", "recovered") and not self._begin_round(ev):    # used before the Face-Off
            return
        card = team.spirit
        if card is None:
            raise LogError("LOG-GAME", f"the {team.key} have no Team Spirit card", ev.at("team"))
        eff = self._effect("spirit_effects", card)
        if team.spirit_uses >= self.r.spirit_per_round:
            self.ref.violation("BOI-SPIRIT-1", f"the {team.label} already used {card.name} this round (at most "
                               f"{self.r.spirit_per_round} per round)", ev.loc)
        team.spirit_uses += 1
        self._spend(team, int(card.get("cost") or 0), card.name, ev)
        kind = eff["effect"]
        sk = self._find_skater(ev["skater"], ev, "skater") if ev.get("skater") is not None else None
        if kind in ("extra_action", "opponent_die", "best_of") and sk is None:
            raise LogError("LOG-FIELD", f"'team_spirit' for {card.name} needs 'skater' (the skater it names)", ev.loc)
        text = f"the {team.label} use {card.name} ({card.get('cost')} Stamina, now {team.stamina})"
        if kind == "extra_action":
            assert sk is not None               # required above
            if team is not self.active or self.phase not in ("mid", "pass"):
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} is used in the {team.label}' own Mid-Game", ev.loc)
            if sk.team is not team or not self.acted[id(sk)]:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names a {team.label} skater that has already acted; "
                                   f"{sk.short} has not", ev.at("skater"))
            self.extra[id(sk)] += int(eff["actions"])
            text += f": {sk.short} acts once more"
        elif kind == "opponent_die":
            assert sk is not None
            if sk.team is team:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names an opposing skater; {sk.short} is a "
                                   f"{team.label} skater", ev.at("skater"))
            self.pending.append((team, eff, sk, ev))
            text += f": {sk.short} rolls a d{eff.get('die')} in the next roll"
        elif kind == "best_of":
            assert sk is not None
            if sk.team is not team:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} names one of the {team.label}' skaters; "
                                   f"{sk.short} is not", ev.at("skater"))
            self.pending.append((team, eff, sk, ev))
            text += f": {sk.short} rolls {eff.get('dice')} dice and keeps the higher"
        elif kind == "defense_everywhere":
            if self.phase not in ("mid",) or team is self.active or self.mid_started:
                self.ref.violation("BOI-SPIRIT-1", f"{card.name} is used at the start of the opponent's Mid-Game, "
                                   "before its first action", ev.loc)
            self.defense_everywhere.add(team.idx)
            text += ": Defense Bonus in every zone until this Mid-Game ends"
        self._t(ev, text)
