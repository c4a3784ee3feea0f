"""Loot & Battles on the shared referee: turns the log takes out of order. What the round still
lacks before such a turn is one LB-RND-1, and the state follows the log; a turn the log went past
may still come, late."""

from __future__ import annotations

from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.state import Encounter, Player
from cardgen.play.api import Action
from cardgen.play.replay import Finding


def open_turn(s: LootState, name: str) -> bool:
    """``name`` acted and nothing has happened in the round since: their turn is, as a log plays
    it, not over (no later player acted, no enemy attacked anyone since)."""
    enc = s._enc()
    if name not in enc.acted:
        return False
    for e in reversed(s.events):
        if e["kind"] in ("attack", "heal", "pass"):
            return bool(e["player"] == name)
        if e["kind"] != "enemy_attack" or e["target"] not in s.seat_of:
            return False
        if not s._by(e["target"]).ko:
            return False  # an enemy attacked since (a player's knocked out by it aside)
    return False


class Turns:
    """The part of :class:`.follow.Follow` that follows turns out of order."""

    marks_rounds: bool  # the log writes round_end markers: a second turn in a round is a slip in it
    skipped: tuple[tuple[int, int], set[str]]  # (Encounter, round) → the turns and attacks gone past

    def resync(self, state: LootState, action: Action) -> list[Finding] | None:
        """A turn (or an enemy's attack) the log plays out of order: what the round still lacks
        before it is one LB-RND-1, and the state follows the log — those turns and attacks are
        skipped; an actor who already acted starts a new round. None when ``action`` is not out
        of turn (or the state cannot follow it)."""
        enc = state.fighting()
        if enc is None:
            return None
        found: list[Finding] | None
        if action.kind in ("attack", "heal", "pass"):
            name = action.get("player")
            p = state.seats[state.seat_of[name]] if name in state.seat_of else None
            if p is None or p.ko or state.turn_open == p.name \
                    or state.current_player() == state.seat_of[p.name]:
                return None
            if open_turn(state, p.name):
                return None  # another roll in a turn that is over: a slip in the turn, not of the order
            state.turn_open = None
            if p.name in enc.acted and self.marks_rounds:
                found = [Finding("LB-RND-1",
                                 f"{p.name} already acted in round {enc.round}, and the log marks the "
                                 "ends of rounds (round_end): a player acts once a round")]
                for d in (enc.turn, enc.used, enc.used_dice):
                    d.pop(p.name, None)
            else:
                found = self._skip(state, enc, p, f"{p.name} acts", p.name in enc.acted, own_turn=False)
        elif action.kind == "enemy_turn":
            e = enc.foe(action.get("enemy"))
            if e is None or e.ko or e.front not in state.seat_of:
                return None
            state.turn_open = None
            owner = state.seats[state.seat_of[e.front]]
            if e.name in enc.attacked and self.marks_rounds:
                found = [Finding("LB-RND-1",
                                 f"{e.name} already attacked in round {enc.round}, and the log marks "
                                 "the ends of rounds (round_end): an enemy attacks once a round")]
            else:
                found = self._skip(state, enc, owner, f"{e.name} attacks", e.name in enc.attacked,
                                   own_turn=True)
        else:
            return None
        state._cp, state._nxt = None, False
        return found

    def _skip(self, state: LootState, enc: Encounter, upto: Player, why: str, again: bool,
              own_turn: bool) -> list[Finding] | None:
        missing: list[str] = []
        if again:  # the round is over as the log plays it
            missing += self._missing(state, enc, None)
            state._end_round(enc)
            if state.phase != "fight":
                return None
        missing += self._missing(state, enc, upto)
        out = []
        if missing:
            out.append(Finding("LB-RND-1",
                               f"{why}, but round {enc.round} still lacks {', '.join(missing)} (the Leader "
                               "acts, then the enemies in front of them attack; then the next player to "
                               "the left)"))
        if own_turn and upto.name not in enc.acted and f"turn:{upto.name}" not in self._skipped(enc):
            self._skipped(enc).add(f"turn:{upto.name}")  # named once; the turn may still come
            out.append(Finding("LB-RND-1",
                               f"{why} before {upto.name} acted (a player acts, then the enemies in front "
                               "of them attack)"))
        return out

    def _skipped(self, enc: Encounter) -> set[str]:
        """The turns and attacks of the round the log went past (they may still come, late)."""
        if self.skipped[0] != (id(enc), enc.round):
            self.skipped = ((id(enc), enc.round), set())
        return self.skipped[1]

    def late(self, state: LootState, action: Action) -> bool:
        """A turn (or an attack) the log went past earlier in the round, taken now: already named
        once, it is played as recorded."""
        enc = state.fighting()
        if enc is None:
            return False
        who = action.get("enemy") if action.kind == "enemy_turn" else action.get("player")
        skipped = self._skipped(enc)
        foe = enc.foe(who) if action.kind == "enemy_turn" else None
        if foe is not None and not foe.ko and foe.name not in enc.attacked and f"turn:{foe.front}" in skipped:
            return True  # another attack on a player whose turn the log went past (named once)
        if action.kind not in ("attack", "heal", "pass", "enemy_turn") or who not in skipped:
            return False
        skipped.discard(who)
        state.turn_open = None
        if action.kind != "enemy_turn":
            for d in (enc.turn, enc.used, enc.used_dice):
                d.pop(who, None)
        state._cp, state._nxt = None, False
        return True

    def _missing(self, state: LootState, enc: Encounter, upto: Player | None) -> list[str]:
        """The turns and attacks of the round before ``upto``, marked done: the log went past them."""
        out = []
        skipped = self._skipped(enc)
        for q in state.rules.order(state.seats, state.leader):
            if q is upto:
                break
            if q.name not in enc.acted:
                if f"turn:{q.name}" not in skipped:
                    out.append(f"{q.name}'s turn")
                enc.acted.add(q.name)
                skipped.add(q.name)
            for e in enc.enemies:
                if not e.ko and e.front == q.name and e.name not in enc.attacked \
                        and e.name not in enc.excused:
                    out.append(f"{e.name}'s attack on {q.name}")
                    enc.attacked.add(e.name)
                    skipped.add(e.name)
        return out
