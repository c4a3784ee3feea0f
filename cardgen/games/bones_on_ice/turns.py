"""Bones on Ice — the round as the game state plays it: round start, Chaos, penalty shots,
Face-Off, Bone Shuffle, the Mid-Game actions, 1v1 and rebound, Recovery, the end of regulation
and the shootout (BOI-ROUND-1, BOI-CHAOS-1/2/3, BOI-FO-1, BOI-MID-1…7, BOI-1V1-1, BOI-REC-1,
BOI-END-1/2/3)."""

from __future__ import annotations

from typing import Any

from cardgen.games.bones_on_ice.transitions import Transitions
from cardgen.play.api import Action


class Turns(Transitions):
    """Decisions and their consequences (the state's fields are set in :class:`~.state.BoiState`)."""

    # -- apply ------------------------------------------------------------------------------
    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        k = action.kind
        if k == "boost":                # the commonest first
            roll = self.roll
            assert roll is not None
            if action["boost"]:
                team = self.players.index(action["team"])
                roll["boosts"].append(team)
                self.spend(team, self.r.costs["boost"])
            self.next_stage()
        elif k == "rolls":
            items = action.items
            if len(items) == 1 and items[0][0] == "rolls":     # the dice, no stated winner
                self.resolve(items[0][1])
            else:
                self.resolve(action["rolls"], action.get("won", "rules"))
        elif k == "defend":
            assert self.roll is not None
            self.roll["d"] = self.piece(action["skater"])
            self.roll["ev"]["defender"] = action["skater"]
            self.next_stage()
        elif k == "round_start":
            self.begin_round(action["round"])
        elif k == "chaos":
            self.chaos_rolled(action["die"], action.get("entry"))
        elif k == "scramble_roll":
            self.on_scramble_roll(action["skater"], action["value"])
        else:
            getattr(self, "do_" + k)(action)

    # -- the round --------------------------------------------------------------------------
    def begin_round(self, n: int) -> None:
        self.round = n
        if self.log:
            self.events.append({"kind": "round_start", "round": n})
        self.touched = [False, False]
        self.effect, self.entry_id = {}, None
        self.penalty_queue, self.power_play, self.no_boost, self.roll_bonus = [], None, False, None
        self.scramble_due = False
        self.active, self.puck = None, None
        self.phase = "chaos" if n in self.r.chaos_rounds else "faceoff"
        self.picks = []
        self.spirit_uses = [0, 0]

    def chaos_rolled(self, die: int, entry: str | None) -> None:
        r = self.r
        ev: dict[str, Any] = {"kind": "chaos", "die": die}
        self.phase = "faceoff"
        card = r.chaos_card(die)
        if entry is not None:           # the entry a log states (checked against the die)
            card = next((c for c in r.by_type.get("chaos", []) if c.id == entry), card)
        if card is None:
            if self.log:
                self.events.append(ev)
            return
        ev["entry"] = card.id
        self.entry_id = card.id
        eff = self.effect = r.effect("chaos_effects", card)
        self._chaos_effect(eff, self._chaos_teams(eff), ev)
        if self.log:
            self.events.append(ev)

    def _chaos_effect(self, eff: dict[str, Any], who: list[int], ev: dict[str, Any]) -> None:
        """What a Chaos entry does (params' chaos_effects) to the teams it falls on."""
        r = self.r
        kind = eff["effect"]
        if kind == "penalty_shot":
            first = self.last_fo if self.last_fo is not None else 0
            self.penalty_queue = sorted(who, key=lambda t: t != first)
            if self.penalty_queue:
                self.phase = "penalty"
        elif kind == "scramble":
            self.scramble_due = True
        elif kind == "recover":
            for t in who:
                self.stamina[t] = min(r.st_max, self.stamina[t] + int(eff["amount"]))
            if self.log:
                ev["stamina"] = {self.players[t]: self.stamina[t] for t in (0, 1)}
        elif kind == "win_faceoff":
            self.power_play = who[0] if len(who) == 1 else None
        elif kind == "no_boost":
            self.no_boost = True
        elif kind == "roll_bonus":
            self.roll_bonus = (who[0], int(eff["amount"])) if len(who) == 1 else None

    def _chaos_teams(self, eff: dict[str, Any]) -> list[int]:
        """The teams a Chaos entry falls on: all, or the trailing team (on a level score both or
        none, as the entry says)."""
        if eff.get("who", "all") == "all":
            return [0, 1]
        if self.score[0] == self.score[1]:
            return [0, 1] if eff.get("level") == "both" else []
        return [0 if self.score[0] < self.score[1] else 1]

    def do_penalty_shot(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        self.penalty_queue.pop(0)
        team = self.s.pieces[sk].team
        self.start_roll("penalty_shot", {"kind": "penalty_shot", "skater": action["skater"]}, sk,
                        self.goalie(1 - team), "marksmanship", "reflexes")

    def after_penalty_shot(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w == "a":
            self.score[self.s.pieces[a].team] += 1
            if self.log:
                ev["score"] = self.score_map()
        self.phase = "penalty" if self.penalty_queue else "faceoff"

    # -- the Face-Off -----------------------------------------------------------------------
    def do_faceoff(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        self.picks.append(sk)
        self.pos = list(self.m.start)
        if self.power_play is not None:
            if self.log:
                self.events.append({"kind": "faceoff", "skaters": [action["skater"]],
                                    "winner": self.players[self.power_play]})
            self.won_faceoff(sk)
            return
        if len(self.picks) == 2:
            a, d = self.picks
            self.start_roll("faceoff", {"kind": "faceoff", "skaters": [self.s.pieces[a].id, self.s.pieces[d].id]},
                            a, d, "reflexes", "reflexes")

    def after_faceoff(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w is None:                    # a tie is re-rolled by the same skaters
            self.start_roll("faceoff", {"kind": "faceoff", "skaters": list(ev["skaters"])}, a, d,
                            "reflexes", "reflexes")
            return
        self.won_faceoff(a if w == "a" else d)

    def won_faceoff(self, sk: int) -> None:
        team = self.s.pieces[sk].team
        self.active, self.puck, self.last_fo = team, sk, team
        self.acted = [0] * len(self.s.pieces)
        self.extra = [0] * len(self.s.pieces)
        self.grave = [False, False]
        self.shot, self.pass_info = None, None
        self.picks = []
        if self.scramble_due:
            self.phase = "scramble"
            self.scramble = {"left": [i for i, p in enumerate(self.s.pieces) if p.role != self.r.goalie_role],
                             "rolls": {}}
        else:
            self.open_mid()

    def open_mid(self) -> None:
        """The Mid-Game begins (a mixin point: the opponent may answer with a Team Spirit)."""
        self.phase = "mid"

    def on_scramble_roll(self, sid: str, value: int) -> None:
        assert self.scramble is not None
        sk = self.scramble["left"].pop(0)
        self.scramble["rolls"][sid] = value
        zones = self.effect.get("zones") or {}
        z = next((z for z, faces in zones.items() if value in (faces or [])), None)
        if z in self.r.zones:
            self.pos[sk] = self.r.pos(self.s.pieces[sk].team, self.r.zones.index(z))
        if not self.scramble["left"]:
            if self.log:
                self.events.append({"kind": "scramble", "rolls": dict(self.scramble["rolls"])})
            self.scramble, self.scramble_due = None, False
            self.open_mid()

    # -- the Mid-Game -----------------------------------------------------------------------
    def do_move(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        self.acted[sk] += 1
        assert self.active is not None          # a Mid-Game action: its team is active
        self.spend(self.active, self.r.costs["move"])
        self.start_roll("move", {"kind": "move", "skater": action["skater"], "zone": action["zone"]}, sk, None,
                        "reflexes", "reflexes")

    def after_move(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w == "a":
            team = self.s.pieces[a].team
            self.pos[a] = self.r.pos(team, self.r.zones.index(ev["zone"]))
        else:
            self.puck, self.phase = d, "mid_over"

    def do_shoot(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        self.acted[sk] += 1
        assert self.active is not None          # a Mid-Game action: its team is active
        self.spend(self.active, self.r.costs["shoot"])
        self.start_roll("shoot", {"kind": "shoot", "skater": action["skater"]}, sk, None, "marksmanship", "reflexes")

    def after_shoot(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w == "a":
            self.shot, self.shot_pos = a, self.pos[a]
            team = self.s.pieces[a].team
            self.start_roll("one_v_one", {"kind": "one_v_one", "skater": ev["skater"]}, a, self.goalie(1 - team),
                            "marksmanship", "reflexes")
        elif self.r.blocked_shot == "blocker":
            self.puck, self.phase = d, "mid_over"

    def after_one_v_one(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w == "a":
            self.score[self.s.pieces[a].team] += 1
            if self.log:
                ev["score"] = self.score_map()
            self.puck, self.phase = None, "mid_over"
        else:
            self.start_roll("rebound", {"kind": "rebound"}, a, d, "reflexes", "reflexes")

    def after_rebound(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        if w == "a":
            self.puck, self.phase = a, "mid"
        else:
            self.puck, self.phase = d, "mid_over"

    def do_pass(self, action: Action) -> None:
        sk, to = self.piece(action["skater"]), self.piece(action["to"])
        self.acted[sk] += 1
        team = self.s.pieces[sk].team
        self.spend(team, self.r.costs["pass"])
        if self.log:
            self.events.append({"kind": "pass", "skater": action["skater"], "to": action["to"],
                                "stamina": {self.players[team]: self.stamina[team]}})
        self.puck, self.pass_info, self.phase = to, (sk, to), "pass"

    def do_no_intercept(self, action: Action) -> None:
        self.pass_info, self.phase = None, "mid"

    def do_intercept(self, action: Action) -> None:
        assert self.pass_info is not None
        sk = self.piece(action["skater"])
        passer, _ = self.pass_info
        self.spend(self.s.pieces[sk].team, self.r.costs["interception"])
        self.phase = "mid"
        self.start_roll("intercept", {"kind": "intercept", "skater": action["skater"]}, passer, sk,
                        "reflexes", "reflexes")
        if self.roll is not None:       # paid with the event, after a Team Spirit declared for this roll
            self.roll["paid"] = {self.s.pieces[sk].team: self.r.costs["interception"]}

    def after_intercept(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        self.pass_info = None
        if w != "a":
            self.puck, self.phase = d, "mid_over"

    def do_tactical_move(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        team = self.s.pieces[sk].team
        self.acted[sk] += 1
        self.spend(team, self.r.costs["tactical_move"])
        self.pos[sk] = self.r.pos(team, self.r.zones.index(action["zone"]))
        if self.log:
            self.events.append({"kind": "tactical_move", "skater": action["skater"], "zone": action["zone"],
                                "stamina": {self.players[team]: self.stamina[team]}})

    # -- Recovery and the end -----------------------------------------------------------------
    def do_recovery(self, action: Action) -> None:
        r = self.r
        for t in (0, 1):
            self.stamina[t] = min(r.st_max, self.stamina[t] + (r.exhausted_recovery if self.touched[t]
                                                              else r.recovery))
        if self.log:
            stamina = {self.players[t]: self.stamina[t] for t in (0, 1)}
            self.events.append({"kind": "recovery", "stamina": stamina, "score": self.score_map()})
        self.active, self.puck, self.pass_info = None, None, None
        if self.round < r.rounds:
            self.phase = "round"
        elif self.score[0] != self.score[1]:
            self.end(0 if self.score[0] > self.score[1] else 1, "regulation")
        else:
            self.phase, self.shots, self.so = "shootout", [], [0, 0]
            self.spirit_uses = [0, 0]

    def do_shootout(self, action: Action) -> None:
        sk = self.piece(action["skater"])
        team = self.s.pieces[sk].team
        self.start_roll("shootout", {"kind": "shootout", "skater": action["skater"]}, sk, self.goalie(1 - team),
                        "marksmanship", "reflexes")

    def after_shootout(self, ev: dict[str, Any], a: int, d: int, w: str | None) -> None:
        team = self.s.pieces[a].team
        self.shots.append((team, w == "a"))
        if w == "a":
            self.so[team] += 1
        if self.log:
            ev["score"] = {self.players[t]: self.so[t] for t in (0, 1)}
        n = [sum(1 for t, _ in self.shots if t == k) for k in (0, 1)]
        if n[0] == n[1]:                 # a shootout round is over: Team Spirits may be used again
            self.spirit_uses = [0, 0]
        if n[0] == n[1] and n[0] >= self.r.shootout_rounds:
            if self.so[0] != self.so[1]:
                self.end(0 if self.so[0] > self.so[1] else 1, "shootout")
            elif not self.r.sudden_death:
                self.end(None, "draw")

    def end(self, winner: int | None, how: str) -> None:
        self.winner, self.decided_by, self.phase = winner, how, "over"

    def score_map(self) -> dict[str, int]:
        return {self.players[t]: self.score[t] for t in (0, 1)}
