"""Bone Wars — the referee of ``cardgen check bone_wars LOG``: a replay of the log onto the
game state (:class:`.state.BoneWarsState`, the same table the game-state API plays on).

Every number comes from ``rules/bone_wars/params.yaml`` (:class:`.rules.Rules`) and the Part
cards; a parameter the rules need and the YAML lacks is a ``LOG-GAME`` error naming it.
Rules enforced (catalogue ``specs/rules/bone_wars.md``): BW-SETUP-1…4, BW-TURN-1,
BW-CREATE-1…6, BW-ATK-1…10, BW-END-1, BW-END-2.

The log: a header (``players`` in clockwise order, ``turn_order_rolls``, optional ``deals``
and ``starting_hp``) and events (:mod:`.vocab`). Each event is checked against the state —
the rule whose condition fails is reported at the event's line — then applied as recorded
and kept in step with the log's own turn markers (a player's first event starts their turn),
so one slip is one problem. Stated consequences (damage, HP left, destroyed, eliminated,
stats, HP at a turn's end) are compared with the computed ones and then kept as recorded.
Turns and the Creation Phase: :mod:`.referee_turns`; attacks and claims: :mod:`.referee_combat`.
"""

from __future__ import annotations

from typing import Any

from cardgen.content.playlog import Event, LogError
from cardgen.core.problems import Loc
from cardgen.core.yamlsrc import YDict
from cardgen.games.bone_wars.referee_combat import CombatReferee
from cardgen.games.bone_wars.referee_turns import TurnReferee
from cardgen.games.bone_wars.rules import Part, Rules, parts_of, turn_order
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.games.bone_wars.table import PLAY
from cardgen.games.bone_wars.vocab import (
    CLAIM_KINDS,
    COMBAT_KINDS,
    EDIT_KINDS,
    EVENTS,
    HEADER,
    HIDDEN,
    NO_BLOCK,
)
from cardgen.play.api import Action
from cardgen.play.lookup import Names
from cardgen.play.params import ParamError
from cardgen.play.referee import BaseEngine
from cardgen.play.resync import unslipped


class Engine(TurnReferee, CombatReferee, BaseEngine):
    """Replays a Bone Wars playtest, event by event (see the module docstring)."""

    HEADER = HEADER
    EVENTS = EVENTS
    EXPECT_RULES = {
        "winner": "BW-END-2", "hp": "BW-END-1", "eliminated": "BW-END-1", "players": "BW-END-1",
        "monsters": "BW-ATK-8", "damage": "BW-ATK-7", "parts": "BW-CREATE-5", "hand": "BW-TURN-1",
        "pile": "BW-TURN-1", "turns": "BW-TURN-1",
        "str": "BW-CREATE-5", "def": "BW-CREATE-5", "atk": "BW-CREATE-5", "traits": "BW-CREATE-5",
    }

    def __init__(self, game, header, header_locs, ref):
        super().__init__(game, header, header_locs, ref)
        self.end_rule = "BW-END-2"
        try:
            self.rules = Rules.read(self.p)
        except ParamError as e:
            raise LogError("LOG-GAME", e.message, Loc(str(self.params_file), 1, 1),
                           "add it to the rules parameters") from None
        self.parts_pool: dict[str, Part] = parts_of(game)
        self.cards = Names("card", [(c.id, c) for c in game.cards], lambda c: [c.name])
        self.head_loc = header_locs.get("players") or Loc(str(self.params_file), 1, 1)
        self.s = BoneWarsState(self.rules, self.parts_pool, [], record=False)
        self.order_notes: list[str] = []
        self.dealt: set[str] = set()
        self.closed = False         # an event other than a claim came after the end

    # the game is over when the state says so (BaseEngine sets ``over`` before the state exists)
    @property
    def over(self) -> bool:
        s: BoneWarsState | None = getattr(self, "s", None)
        return s.over if s is not None else False

    @over.setter
    def over(self, value: bool) -> None:
        s: BoneWarsState | None = getattr(self, "s", None)
        if s is not None:
            s.over = value

    # -- setup ----------------------------------------------------------------------------

    def start(self) -> None:
        players: list[str] = []
        for i, name in enumerate(list(self.header.get("players") or [])):
            loc = self.header_locs.get(f"players[{i}]", self.head_loc)
            name = str(name).strip()
            if not name or name in (HIDDEN, NO_BLOCK) or name in players:
                raise LogError("LOG-FIELD", f"player name {name!r} is empty, reserved or used twice", loc)
            players.append(name)
        r = self.rules
        stated = self.header.get("starting_hp")
        self.s = BoneWarsState(r, self.parts_pool, players, stated, record=False)
        n = len(players)
        if not r.n_min <= n <= r.n_max:
            self.ref.violation("BW-SETUP-1", f"{n} player(s); Bone Wars is for {r.n_min}–{r.n_max}", self.head_loc)
        if stated is not None:
            self.ref.claim("BW-SETUP-4", "the starting HP", stated, r.start_hp, self.header_locs.get("starting_hp"))
        self._deal()
        self._turn_order()
        self.s.setup = PLAY
        hp = self.s.hp[players[0]] if players else r.start_hp
        self.ref.trace(f"      {n} players, clockwise: {', '.join(players)}; {r.hand_size} cards each, "
                       f"{hp} HP each; center pile {self.s.pile}")
        for note in self.order_notes:
            self.ref.trace(f"      turn order: {note}")
        if self.s.rolled_first is not None:
            self.ref.trace(f"      turn order: {self.s.rolled_first} rolled highest ({self.s.first_roll}) and goes "
                           "first")
            self.s.begin_turn(self.s.rolled_first)

    def _deal(self) -> None:
        s, size = self.s, self.rules.hand_size
        deals = self.header.get("deals")
        dealt = 0
        dloc = self.header_locs.get("deals", self.head_loc)
        for key, val in (deals or {}).items():
            loc = deals.at(key) if isinstance(deals, YDict) else dloc
            p = self._find_player(key, loc, "deals")
            hand = s.hands[p]
            named: list[tuple[Part, Loc]] = []
            if isinstance(val, int) and not isinstance(val, bool):
                count = val
            elif isinstance(val, list):
                for i, x in enumerate(val):
                    xloc = val.at(i) if hasattr(val, "at") else loc
                    if str(x).strip() == HIDDEN:
                        continue
                    c = self._find_card(x, xloc, "deals")
                    if c.id not in self.parts_pool:
                        self.ref.violation("BW-SETUP-2", f"{c.name} is not a Part card of the center pile", xloc)
                        continue
                    named.append((c, xloc))
                count = len(val)
            else:
                raise LogError("LOG-FIELD", f"'deals' of {p} must be a list of cards or a number, not {val!r}", loc)
            if count != size:
                self.ref.violation("BW-SETUP-2", f"each player is dealt {size} cards; {p} gets {count}", loc)
            for c, xloc in named:
                self._reveal(c, "BW-SETUP-2", xloc, f"{p} is dealt")
                hand.known[c.id] += 1
                s.dealt[p].append(c.id)
            hand.hidden = max(0, count - len(named))
            self.dealt.add(p)
            dealt += max(0, count)
        for p in s.players:
            if p not in self.dealt:
                s.hands[p].hidden = size
                dealt += size
        s.pile = max(0, s.pile - dealt)

    def _turn_order(self) -> None:
        """BW-SETUP-3: highest d20 goes first; tied highest rollers re-roll (ruling)."""
        s, die = self.s, self.rules.die
        rounds = self.header.get("turn_order_rolls") or []
        tloc = self.header_locs.get("turn_order_rolls", self.head_loc)
        contenders: list[str] | None = list(s.players)
        first = None
        for i, rnd in enumerate(rounds):
            rloc = self.header_locs.get(f"turn_order_rolls[{i}]", tloc)
            if not isinstance(rnd, dict):
                raise LogError("LOG-FIELD", f"each round of 'turn_order_rolls' is a mapping {{player: d{die}}}", rloc)
            rolls: dict[str, int] = {}
            for key, v in rnd.items():
                vloc = rnd.at(key) if hasattr(rnd, "at") else rloc
                p = self._find_player(key, vloc, "turn_order_rolls")
                if self.ref.die(v, die, "BW-SETUP-3", vloc, f"{p}'s turn-order d{die}") or \
                        (isinstance(v, int) and not isinstance(v, bool)):
                    rolls[p] = v
            if contenders is None:
                self.ref.violation("BW-SETUP-3", f"{first} already rolled highest: only a tie for the highest "
                                   "roll is re-rolled", rloc)
                break
            if set(rolls) != set(contenders):
                missing = [p for p in contenders if p not in rolls]
                extra = [p for p in rolls if p not in contenders]
                why = []
                if missing:
                    why.append(f"{', '.join(missing)} did not roll")
                if extra:
                    why.append(f"{', '.join(extra)} {'is' if len(extra) == 1 else 'are'} not in the re-roll")
                who = (f"every player rolls a d{die}" if i == 0
                       else f"only the tied players ({', '.join(contenders)}) re-roll")
                self.ref.violation("BW-SETUP-3", f"{who}: {'; '.join(why)}", rloc)
            if not rolls:
                continue
            s.order_rounds.append(rolls)
            found, tied = turn_order(self.rules, s.players, [rolls])
            if found is not None:
                first, contenders = found, None
                s.first_roll = rolls[found]
            else:
                contenders = tied
                self.order_notes.append(f"{' and '.join(tied)} tie at {max(rolls.values())} and re-roll")
        if contenders is not None and len(contenders) > 1 and first is None and rounds:
            last = self.header_locs.get(f"turn_order_rolls[{len(rounds) - 1}]", tloc)
            self.ref.violation("BW-SETUP-3", f"{' and '.join(contenders)} tie for the highest roll: the tied "
                               "players re-roll until one is highest", last)
        if not rounds:
            self.ref.violation("BW-SETUP-3", f"every player rolls a d{die} for the turn order; no roll is recorded",
                               tloc)
        s.rolled_first = first
        s.current = first

    # -- lifecycle ------------------------------------------------------------------------

    def _past_end(self, ev: Event) -> bool:
        """After the end only the claims about the last blow may follow it, at once."""
        if self.over and ev.kind not in CLAIM_KINDS:
            self.closed = True
        return self.over and (ev.kind not in CLAIM_KINDS or self.closed)

    def _slipped_end(self, ev: Event) -> None:
        """The game ended with an elimination the log's own wrong HP statement caused (reported
        there), and the log plays on: the player is back, in step with the log."""
        if not self.over or ev.kind in CLAIM_KINDS:
            return
        for p in list(self.s.out_order):
            alt = unslipped(self.ref, f"{p}'s HP", self.s.hp[p])
            if alt is not None and alt > 0:
                self.s.hp[p] = alt
                self.s.uneliminate(p)
                self._t(ev, f"{p} is still in the game ({alt} HP), as the log goes on")

    def before(self, ev: Event) -> None:
        self._slipped_end(ev)
        if self._past_end(ev):
            end = self.s.end_where
            self.ref.violation(self.end_rule, f"'{ev.kind}' after the game ended ({self.s.winner} won at line "
                               f"{end.line if isinstance(end, Loc) else '?'}): no event may follow the end", ev.loc)

    def apply(self, ev: Event) -> None:
        if not self.s.players or self._past_end(ev):
            return
        if self.s.combat is not None and ev.kind not in COMBAT_KINDS[self.s.combat.stage] \
                and ev.kind not in EDIT_KINDS:      # an edit mid-combat is its own slip (BW-CREATE-1, BW-ATK-1)
            self._close_combat(ev)
        super().apply(ev)

    def finish(self) -> None:
        s = self.s
        if self.over:
            self._state_lines(f"game over after turn {s.turn}: {s.winner} wins")
        elif s.begun:
            self._state_lines(f"log ends in turn {s.turn} ({s.current}); no winner yet")
        else:
            self.ref.trace(f"      log ends after turn {s.turn - 1}; no winner yet")

    def final(self) -> dict[str, Any]:
        return self.s.result()

    # -- for programs: the event as the state's actions ------------------------------------

    def actions_of(self, ev: Event) -> list[Action]:
        """The state's actions (and chance outcomes) a legal event stands for, in order: the
        shortcuts a log may take (the next player's draw ending a turn, no 'block' written)
        spelled out. Stated consequences are not part of an action."""
        s, f = self.s, ev.fields
        out: list[Action] = []
        c = s.combat
        if ev.kind in CLAIM_KINDS:
            return []
        p = self._find_player(f["player"], None, "player") if f.get("player") is not None else None
        if c is None and ev.kind in ("draw", "create", "add_part", "replace_part", "attack", "end_turn") \
                and s.current is not None and p != s.current and s.begun:
            out.append(Action.make("end_turn", player=s.current))
        if c is not None and c.stage == "block" and ev.kind in ("roll", "take_damage"):
            out.append(Action.make("block", player=c.defender, monster=NO_BLOCK))
        if ev.kind == "draw":
            card = f.get("card")
            return out + ([Action.make("draw", player=p, card=self._find_card(card, None, "card").id)]
                          if card not in (None, HIDDEN) else [])
        if ev.kind in ("create", "add_part", "replace_part"):
            card = self._find_card(f["card"], None, "card").id
            if ev.kind == "create":
                return out + [Action.make("create", player=p, card=card, monster=s.next_name())]
            m = self._find_monster(f["monster"], None, "monster")
            if ev.kind == "add_part":
                return out + [Action.make("add_part", player=p, monster=m.name, card=card)]
            old = (self._find_card(f["replaces"], None, "replaces").id if f.get("replaces") is not None else
                   next((x.id for x in m.parts if x.part == self.parts_pool[card].part), None))
            return out + [Action.make("replace_part", player=p, monster=m.name, card=card, replaces=old)]
        if ev.kind == "attack":
            m = self._find_monster(f["monster"], None, "monster")
            return out + [Action.make("attack", player=p, monster=m.name,
                                      target=self._find_player(f["target"], None, "target"))]
        if ev.kind == "block":
            name = f.get("monster")
            name = NO_BLOCK if name is None or str(name).lower() == NO_BLOCK else \
                self._find_monster(name, None, "monster").name
            return out + [Action.make("block", player=p, monster=name)]
        if ev.kind == "roll":
            if f.get("defender") is not None:
                d = c.defender if c is not None else None
                return out + [Action.make("defend_roll", player=d), Action.make("roll", defender=f["defender"])]
            return out + [Action.make("roll", attacker=f["attacker"], blocker=f["blocker"])]
        if ev.kind == "take_damage":
            return out + [Action.make("take_damage", player=p)]
        return out + [Action.make("end_turn", player=p)]

    def legal_events(self) -> list[dict[str, Any]]:
        """The state's legal actions as event skeletons: dice fields None (roll them), a new
        monster's name None (name it)."""
        s = self.s
        if s.over or s.current is None:
            return []
        c = s.combat
        if c is not None and c.stage == "roll":
            return [{"kind": "roll", "attacker": None, "blocker": None}]
        if c is None and s.phase == "draw" and s.drawn < s.need:
            return [{"kind": "draw", "player": s.current}]
        out = []
        for a in s.legal_actions():
            e = a.as_event()
            if a.kind == "defend_roll":
                e = {"kind": "roll", "defender": None}
            elif a.kind == "create":
                e["monster"] = None
            out.append(e)
        return out

    def legal_next(self) -> list[str]:
        """The event kinds the current state accepts: those of :meth:`legal_events` and the
        shortcuts a hand-written log may take — the next player's draw ending a turn, no 'block'
        when nothing can block, the claims after a combat."""
        if self.over:
            return list(CLAIM_KINDS)
        kinds = list(dict.fromkeys(e["kind"] for e in self.legal_events()))
        c = self.s.combat
        if c is not None:
            if c.stage == "block" and not c.able:
                kinds += ["take_damage", "roll"]
        elif self.s.current is not None:
            if "end_turn" in kinds:
                kinds.append("draw")
            if self.s.last is not None:
                kinds += [k for k in CLAIM_KINDS if k not in kinds]
        return list(dict.fromkeys(kinds))
