"""Biomechanic Dino Battles on the game-state API: :class:`DinoState` is the table plus what a
log may hide and the choice under way (who acts, the actions, the chance nodes and how events
and actions meet: ``docs/engines-dino_battles.md``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import Event
from cardgen.core.options import MISSING
from cardgen.core.problems import Loc
from cardgen.games.dino_battles import chance, decks
from cardgen.games.dino_battles import choices as ch
from cardgen.games.dino_battles.slips import Halt, Slips
from cardgen.games.dino_battles.table import Table
from cardgen.games.dino_battles.vocab import EVENTS, MAIN_PHASES
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.hidden import counts
from cardgen.play.view import LazyView

LOG_NAME = "<played game>"
#: each event kind's fields with their defaults (an event the state makes holds every field)
_DEFAULTS: dict[str, dict[str, Any]] = {
    kind: {k: None if opt.default is MISSING else opt.default for k, opt in fields.items()}
    for kind, fields in EVENTS.items()}


#: each event kind's defaults, and the fields whose default is a list (copied per event)
_TEMPLATES = {kind: (d, tuple(k for k, v in d.items() if isinstance(v, list)))
              for kind, d in _DEFAULTS.items()}
_LOCS: list[Loc] = []           #: a played event's place by its index (the line it has in the written log)
_NO_LOCS: dict[str, Loc] = {}   #: a played event's fields have no places of their own (never written to)


def new_state(game: Game, setup: Mapping[str, Any]) -> DinoState:
    """The state before the Initiative roll, for a log header's ``players`` (name and deck)."""
    players = [{"name": str(p["name"]), "deck": str(p["deck"])} for p in setup["players"]]
    st = DinoState(game, {"players": players}, {}, Slips())
    st.tracing = False
    for p in players:
        st.deck_files[p["deck"]] = decks.cached(game, p["deck"])
    st.start()
    st.deal_in(players)
    return st


class DinoState(Table, GameState):
    """Biomechanic Dino Battles: the table, its rules, and what a log may hide."""

    def deal_in(self, players: list[dict[str, str]], replaying: bool = False) -> None:
        """The game begins (the table set up by :meth:`.Table.start`): the hidden cards, nothing
        chosen yet; ``replaying``: a log is checked on it — its events are the actions, applied as
        recorded, each naming the rules it breaks; nothing is played by itself."""
        self.setup = players
        self.players = [p["name"] for p in players]
        self.history: list[Action] = []
        self.events: list[dict[str, Any]] = []
        n = len(players)
        self.decks = [Counter(s.deck_cards) for s in self.sides]      # true Main Decks
        #: each seat's chance outcomes of a card dealt, by the deck's cards in order
        self.deal_acts = [chance.deals(p["name"], tuple(sorted(s.deck_cards)))
                          for s, p in zip(self.sides, players)]
        self.hands: list[Counter] = [Counter() for _ in range(n)]       # true hands
        self.comps: list[Counter] = [Counter() for _ in range(n)]       # true Comp Cards
        self.chance: dict[str, Any] | None = None
        self.decision: tuple[str, int] | None = None
        self.move: dict[str, Any] = {}            # a move (or a K.O.) being made
        self.main_done: set[int] = set()
        self.first_stated = False
        self.used: set[str] = set()               # Permanent Items used this turn
        self.finished = False
        self.replaying = replaying
        self.at: Event | None = None            # the log's own event being replayed (its places)
        if not replaying:
            self._advance()

    # -- the API ------------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        if self.chance is not None:
            return CHANCE
        return self.decision[1] if self.decision else TERMINAL

    def legal_actions(self) -> list[Action]:
        if self.finished or self.chance is not None or self.decision is None:
            return []
        mode, i = self.decision
        e, s, hand = self, self.sides[i], self.hands[i]
        if mode == "keep":
            return ch.keep_or_new(e, s, hand)
        if mode == "place":
            return ch.placements(e, s, hand)
        if mode == "main":
            return ch.main_plays(e, s, hand, self.used)
        if mode == "move":
            return ch.moves(e, s)
        if mode == "answer":
            return ch.answers(e, s)
        if mode == "ko":
            d = next(d for d in s.in_play if d.label == self.move["dino"])
            return ch.comp_choices(e, s, d)
        return ch.replacements(e, s, hand)           # "ko_active"

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return chance.outcomes(self)

    def sample_chance(self, r: float) -> Action | None:
        return chance.sample(self, r)

    def apply_action(self, action: Action) -> None:
        self.history.append(action)
        if self.replaying:
            ev = self.at
            if ev is None or ev.kind != action.kind:
                given = {k: v for k, v in action.as_event().items() if k != "kind"}
                n = len(self.history)
                ev = Event(n - 1, action.kind, {**_DEFAULTS[action.kind], **given}, Loc(LOG_NAME, n + 1, 1))
                self.at = ev
            try:
                self.before(ev)
                self.apply(ev)
            except Halt:                    # --strict: the event stops at its first broken rule
                pass
            return
        if self.chance is not None:
            self._on_chance(action)
        else:
            self._on_choice(action)
        self._advance()

    def returns(self) -> list[float]:
        w = self.winner if self.finished else None
        if w is None:
            return [0.0] * len(self.players)
        if w == "draw":
            return [1.0 / len(self.players)] * len(self.players)
        return [1.0 if p == w else 0.0 for p in self.players]

    def result(self) -> dict[str, Any]:
        return self.final()

    def observation(self, player: int) -> Mapping[str, Any]:
        return LazyView(self, lambda: self._observe(player))

    def _observe(self, player: int) -> dict[str, Any]:
        e = self
        sides = []
        for s in e.sides:
            sides.append({
                "name": s.name, "kos": s.kos, "hand": s.hand, "deck": s.deck_left, "comp_cards": s.comp,
                "combat_deck": dict(s.combat_deck), "items": s.items,
                "active": ch.dino_view(s.active), "bench": [ch.dino_view(d) for d in s.bench],
            })
        att = e.cmb.attack if e.cmb is not None else None
        return {"player": player, "turn": e.turn, "phase": e.phase, "initiative": e.initiative, "hand_limit": e.draw_up,
                "decision": self.decision[0] if self.decision else None, "sides": sides,
                "attack": ({"player": att["side"].index, "special": (att["special"] or {}).get("name"),
                            "total": (att["roll"] + att["bonus"] + (att["dino"].stat("atk") if att["dino"] else 0))
                            if isinstance(att["roll"], int) else None} if att else None),
                "hand": dict(self.hands[player]), "items": dict(+e.sides[player].items_known)}

    def log_header(self) -> dict[str, Any]:
        return {"game": self.game.slug, "players": [dict(p) for p in self.setup]}

    def log_events(self) -> list[dict[str, Any]]:
        return [dict(ev) for ev in self.events]

    def clone(self) -> DinoState:
        c = super().clone()
        c.history, c.events = list(self.history), list(self.events)
        c.decks, c.hands = [counts(x) for x in self.decks], [counts(x) for x in self.hands]
        c.comps = list(self.comps)
        if self.chance is not None and "got" in self.chance:
            c.chance = {**self.chance, "got": list(self.chance["got"])}
        c.move, c.main_done, c.used = dict(self.move), set(self.main_done), set(self.used)
        return c

    # -- events ---------------------------------------------------------------------------------

    def _emit(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Make a log event, play it on the table (its rules judge it), and log it."""
        logged: dict[str, Any] = {"kind": kind}       # what the log writes: the fields given
        for k, v in fields.items():
            if v is not None:
                logged[k] = list(v) if isinstance(v, tuple) else v
        tmpl, lists = _TEMPLATES[kind]
        full = {**tmpl, **logged}
        for k in lists:
            if k not in logged:
                full[k] = list(full[k])
        n = len(self.events)
        while len(_LOCS) <= n:
            _LOCS.append(Loc(LOG_NAME, len(_LOCS) + 2, 1))
        ev = Event(n, kind, full, _LOCS[n], _NO_LOCS)
        if self.over:
            self.before(ev)
        self.apply(ev)
        self.events.append(logged)
        if kind == "phase":
            self.main_done = set()
            if fields.get("phase") == "startup":
                self.used = set()
            if fields.get("phase") == "combat":
                self.first_stated = False
        return logged

    def _deal(self, seat: int, n: int, purpose: str, **ctx: Any) -> None:
        pile = self.comps[seat] if purpose == "ko_comp" else self.decks[seat]
        n = min(n, sum(pile.values()))
        self.chance = {"kind": "deal", "seat": seat, "n": n, "got": [], "purpose": purpose, **ctx}
        if n == 0:
            self.chance = None
            self._dealt(seat, [], purpose, ctx)

    def _on_chance(self, a: Action) -> None:
        c = self.chance
        assert c is not None
        if a.kind == "roll":
            self.chance = None
            self._rolled(c["purpose"], int(a["value"]))
            return
        seat, card = c["seat"], str(a["card"])
        if c["purpose"] in ("comp", "ko_comp"):     # Comp Cards are shared by clones until dealt to or from
            self.comps[seat] = counts(self.comps[seat])
        pile = (self.comps if c["purpose"] == "ko_comp" else self.decks)[seat]
        if pile[card] > 1:
            pile[card] -= 1
        else:
            pile.pop(card, None)
        to = (self.comps if c["purpose"] == "comp" else self.hands)[seat]
        to[card] = to.get(card, 0) + 1
        c["got"].append(card)
        if len(c["got"]) >= c["n"]:
            self.chance = None
            self._dealt(seat, c["got"], c["purpose"], c)

    def _dealt(self, seat: int, got: list[str], purpose: str, ctx: Mapping[str, Any]) -> None:
        name = self.players[seat]
        if purpose in ("draw", "end_draw"):
            self._emit("draw", player=name, cards=got)
        elif purpose == "new_hand":
            self._emit("new_hand", player=name, count=len(got), cards=got, no_dinosaur=ctx.get("no_dinosaur") or None)
        elif purpose == "comp":
            self._emit("comp_cards", player=name, count=len(got))
        elif self.move.get("was_active"):          # ko_comp: the K.O. waits for the new active Dinosaur
            self.decision = ("ko_active", seat)
        else:
            self._ko_done(None)

    def _rolled(self, purpose: str, value: int) -> None:
        e = self
        if purpose == "initiative":
            who = e.init_map.get("even" if value % 2 == 0 else "odd", "A")
            seat = ord(who.strip().upper()[:1] or "A") - ord("A")
            self._emit("initiative_roll", roll=value, holder=self.players[seat if 0 <= seat < len(e.sides) else 0])
        elif purpose == "paralyze":
            self.move["paralyze_roll"] = value
            if (value % 2 == 1) == (e.para_fail == "odd"):
                self._finish_move(None)
            else:
                self.chance = {"kind": "roll", "purpose": "move"}
        else:
            self._finish_move(value)

    def _finish_move(self, roll: int | None) -> None:
        """The move (or answer) as a log event: its die, its total and, for an answer, the damage
        and HP it leaves (stated consequences the checker verifies)."""
        e, mv = self, self.move
        kind, s = mv["kind"], e.sides[mv["seat"]]
        fields: dict[str, Any] = {"player": s.name, "special": mv.get("special"),
                                  "paralyze_roll": mv.get("paralyze_roll")}
        d = s.active
        if roll is not None and d is not None:
            bonus = d.evade_bonus if kind in ("attack", "counterattack") else 0
            fields.update(roll=roll, total=roll + d.stat(ch.STAT_OF[kind]) + bonus)
        self.move = {}
        if kind == "attack":
            self._emit("attack", **fields)
            return
        att = e.cmb.attack if e.cmb is not None else None
        fighters = list(dict.fromkeys(x for x in ((att or {}).get("dino"), s.active) if x is not None))
        before = {x: x.hp for x in fighters}
        logged = self._emit(kind, **fields)
        sides = {x.owner: x for x in fighters}
        logged["damage"] = {o: before[x] - x.hp for o, x in sides.items()}
        logged["hp"] = {o: x.hp for o, x in sides.items()}

    def _ko_done(self, new_active: str | None) -> None:
        mv, self.move = self.move, {}
        self._emit("knock_out", player=self.players[mv["seat"]], dino=mv["dino"], comp_cards=mv["comp"],
                   new_active=new_active)

    # -- choices --------------------------------------------------------------------------------

    def _on_choice(self, a: Action) -> None:
        assert self.decision is not None
        mode, i = self.decision
        self.decision = None
        e, s, hand, k = self, self.sides[i], self.hands[i], a.kind
        if k == "comp_cards":
            self._deal(i, e.comp_n, "comp")
        elif k == "new_hand":
            nodino = bool(a.get("no_dinosaur", False))
            size = e.new_hand_size(s, nodino)[0]
            self.decks[i] += hand
            self.hands[i] = Counter()
            self._deal(i, size, "new_hand", no_dinosaur=nodino)
        elif k == "done":
            self.main_done.add(i)
        elif k in ("attack", "counterattack", "evade", "defend"):
            self.move = {"kind": k, "seat": i, "special": a.get("special")}
            para = s.active is not None and s.active.paralyzed
            self.chance = {"kind": "roll", "purpose": "paralyze" if para else "move"}
        elif k == "no_answer":
            self.move = {"kind": k, "seat": i}
            self._finish_move(None)
        elif k == "knock_out":
            d = next(d for d in s.in_play if d.label == a["dino"])
            self.move = {"seat": i, "dino": d.label, "comp": int(a["comp_cards"]), "was_active": d is s.active}
            self._deal(i, int(a["comp_cards"]), "ko_comp")
        elif k == "new_active":
            pick = a.get("dino")
            if pick is not None and not s.bench:
                hand[pick] -= 1
                self.hands[i] = +hand
            self._ko_done(pick)
        else:
            fields = dict(a.items)
            for c in ch.cards_spent(a):
                if hand[c] > 1:
                    hand[c] -= 1
                else:
                    hand.pop(c, None)
            if k == "use_item" and e.cards[str(a["card"])].get("permanent"):
                self.used.add(str(a["card"]))
            self._emit(k, **fields)

    def _advance(self) -> None:
        """Apply what nobody chooses (phase markers, the first move, the end) until a player or
        chance is to act."""
        e = self
        while self.chance is None and self.decision is None and not self.finished:
            if e.over:
                self._emit("game_end", winner=e.winner, reason=e.ended_by)
                self.finished = True
                return
            pending = next(((s, d) for s in e._order() for d in s.in_play if d.ko_at is not None), None) \
                if e._ko_pending() else None
            if pending:
                s, d = pending
                self.move = {"seat": s.index, "dino": d.label}
                self.decision = ("ko", s.index)
            elif e.phase is None:
                self._setup_step()
            elif e.phase == "startup":
                self._emit("phase", phase="precombat_main")
            elif e.phase in MAIN_PHASES:
                for s in e._order():
                    if s.index not in self.main_done:
                        self.decision = ("main", s.index)
                        break
                else:
                    self._emit("phase", phase="combat" if e.phase == "precombat_main" else "end")
            elif e.phase == "combat":
                self._combat_step()
            else:                                                   # the End phase
                owed = [s for s in e._order() if e.owed.get(s.index, 0) > 0]
                if owed:
                    self._deal(owed[0].index, e.owed[owed[0].index], "end_draw")
                else:
                    turn = e.turn + 1
                    holder = e.initiative or 0
                    if turn >= e.pass_from:
                        holder = e._next(holder)
                    self._emit("phase", phase="startup", turn=turn, initiative=self.players[holder])

    def _setup_step(self) -> None:
        e = self
        if not e.rolled:
            self.chance = {"kind": "roll", "purpose": "initiative"}
            return
        for s in e.sides:
            if not s.drew:
                self._deal(s.index, e.hand_size, "draw")
                return
        for mode, flag in (("keep", "comp_done"), ("place", "placed")):
            for s in e.sides:
                if not getattr(s, flag):
                    self.decision = (mode, s.index)
                    return
        self._emit("phase", phase="startup", turn=1, initiative=self.players[e.initiative or 0])

    def _combat_step(self) -> None:
        e = self
        c = e.cmb
        if c is None or c.over:
            self._emit("phase", phase="postcombat_main", combat_end="decks_empty")
        elif not self.first_stated:
            self.first_stated = True
            self._emit("first_move", player=self.players[c.first])
        elif c.attack is not None:
            self.decision = ("answer", e._other(c.attack["side"]).index)
        else:
            self.decision = ("move", c.first if not c.passed else e._next(c.first))
