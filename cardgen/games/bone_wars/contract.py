"""Bone Wars on the shared referee (:mod:`cardgen.play.replay`): the game's setups and contract.
A log header (``players``, and optionally ``starting_hp``, ``turn_order_rolls`` and ``deals``) sets
up a :class:`.state.BoneWarsState`; what it leaves out (the turn-order rolls, the deal) is played as
chance nodes. The contract translates a log's events into the state's actions (the log's shortcuts
— the next player's draw ending a turn, no ``block`` written when nothing blocks — spelled out);
:mod:`.whynot` names the rule an action breaks, :mod:`.claims` compares the consequences the log
states (one slip, one problem)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import LogError
from cardgen.core.problems import Problems
from cardgen.games.bone_wars.claims import CLAIMS, Claim, describe, monster, table
from cardgen.games.bone_wars.rules import rules_of, tied_highest
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.games.bone_wars.table import DEFEND_ROLL, DROP_ATTACK, PLAY, SETUP_DEAL, SETUP_ORDER, Combat
from cardgen.games.bone_wars.vocab import CLAIM_KINDS, COMBAT_KINDS, EDIT_KINDS, NO_BLOCK, TURN_KINDS
from cardgen.games.bone_wars.whynot import why_not_all
from cardgen.play.api import Action, GameState
from cardgen.play.dice import die_slip, off_die
from cardgen.play.hidden import HIDDEN, Hand, counts, redeal
from cardgen.play.lookup import Names, log_name, log_player
from cardgen.play.replay import GameInfo
from cardgen.play.resync import ResyncReferee

NAMES = ("ana", "ben", "cy", "dee", "eve", "fay", "gus", "hal")


def new_state(game: Game, setup: Mapping[str, Any], hidden_rest: bool = False) -> BoneWarsState:
    """The state at the start of the game the header describes. ``hidden_rest`` (a log being
    checked): the cards the header does not name were dealt face down; otherwise the deal is left
    to chance, as are turn-order rolls the header lacks."""
    rules, parts = rules_of(game)
    players = [str(p) for p in setup["players"]]
    s = BoneWarsState(rules, parts, players, setup.get("starting_hp"))
    for rnd in setup.get("turn_order_rolls") or []:
        for p, v in (rnd.items() if isinstance(rnd, Mapping) else ()):
            if p in s.players and s.setup == SETUP_ORDER:
                s.apply_action(Action.make("turn_order_roll", player=p, value=v))
    if hidden_rest and s.setup == SETUP_ORDER:      # a turn order left unsettled (the check reports it)
        s.setup = SETUP_DEAL
    deals = setup.get("deals") or {}
    for p in players:
        cards = deals.get(p, [] if not hidden_rest else rules.hand_size)
        cards = [HIDDEN] * cards if isinstance(cards, int) and not isinstance(cards, bool) else list(cards)
        if hidden_rest:
            cards += [HIDDEN] * (rules.hand_size - len(cards))
        for c in cards:
            s.apply_action(Action.make("deal", player=p, card=c if c in parts or not hidden_rest else HIDDEN))
    if hidden_rest and s.setup != PLAY:
        s.start_play()
    s.opening = list(s.history)
    s.history.clear()
    return s


def setups(game: Game, rng: random.Random) -> list[dict[str, Any]]:
    """The game's own setups: every player count the rules allow (Bone Wars has no decks,
    classes or teams; seats differ only by the turn-order roll)."""
    rules, _ = rules_of(game)
    return [{"game": "bone_wars", "players": list(NAMES[:n])} for n in range(rules.n_min, rules.n_max + 1)]


def determinize(state: GameState, player: int, rng: random.Random) -> GameState:
    """Bone Wars' hidden information for search agents: the other players' hands. Everything on
    the table and ``player``'s own hand kept, the cards they have not seen (the pile's unseen ones
    and every other hand) dealt again to the other hands, each as many cards as it holds."""
    assert isinstance(state, BoneWarsState)
    me = state.players[player]
    others, pool, sizes = tuple([p for p in state.players if p != me]), counts(state.unseen), []
    for p in others:
        known = state.hands[p].known
        sizes.append(sum(known.values()))
        for card, n in known.items():
            pool[card] = pool.get(card, 0) + n
    s = state.clone(others)     # (their hands and the unseen counts left shared: dealt anew below)
    hands, s.unseen = redeal(pool, sizes, rng)
    for p, known in zip(others, hands, strict=True):
        s.hands[p] = Hand(known, s.hands[p].hidden)
    return s


class BoneWarsRules:
    """Bone Wars as a :class:`cardgen.play.replay.GameRules` (see the module docstring)."""

    def __init__(self, game: Game):
        self.game = game
        self.rules, self.parts = rules_of(game)
        self.cards = Names("card", [(c.id, c) for c in game.cards], lambda c: [c.name])
        #: one slip, one problem: a later statement where the game would be without an earlier slip
        #: (a number written wrong, then played on from the right one) is back in step, silently
        self.resync = ResyncReferee(Problems(), {}, False)
        self.closed = False
        #: each distinct slip of one event is one problem (the shared replay's optional flag), each
        #: named by :func:`.whynot.why_not_all` (none named: :meth:`why_not`'s)
        self.every_slip, self.why_not_all = True, why_not_all
        self.turn_was = 0                   # the turn before the event being replayed (for the trace)
        self.ended: list[str] = []          # the table at a turn's end the event's marker closed
        self.ahead: Iterator[Mapping[str, Any]] = iter(())
        #: explicit chance, hidden hands, a winner among many: GameInfo's defaults
        self.info = GameInfo.of(game)

    def card(self, value: Any, field: str) -> str:
        """The card id a log names (by id, as the state writes it, or by name)."""
        if isinstance(value, str) and value in self.parts:
            return value
        return str(log_name(self.cards, value, field).id)

    # -- the contract -------------------------------------------------------------------------

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        """The game a log header sets up; hands it leaves out were dealt face down."""
        players = [str(p).strip() for p in setup.get("players") or []]
        for p in players:
            if not p or p in (HIDDEN, NO_BLOCK) or players.count(p) > 1:
                raise LogError("LOG-FIELD", f"player name {p!r} is empty, reserved or used twice", None)
        deals: dict[str, Any] = {}
        for key, val in (setup.get("deals") or {}).items():
            p = Names("player", [(q, q) for q in players]).get(key) or str(key)
            deals[p] = val if not isinstance(val, list) else \
                [HIDDEN if str(x).strip() == HIDDEN else getattr(self.cards.get(x), "id", x) for x in val]
        return new_state(self.game, {**setup, "players": players, "deals": deals}, hidden_rest=True)

    def setup_problems(self, game: Game, header: Mapping[str, Any]) -> list[tuple[str, str, str | None]]:
        """BW-SETUP-1…4: what the header gets wrong that still lets the game be played."""
        r, out = self.rules, list[tuple[str, str, str | None]]()
        players = list(header.get("players") or [])
        if not r.n_min <= len(players) <= r.n_max:
            out.append(("BW-SETUP-1", f"{len(players)} player(s); Bone Wars is for {r.n_min}–{r.n_max}", "players"))
        hp = header.get("starting_hp")
        if hp is not None and hp != r.start_hp:
            out.append(("BW-SETUP-4", f"the log says the starting HP is {hp!r}, but the rules give {r.start_hp!r}",
                        "starting_hp"))
        for p, val in (header.get("deals") or {}).items():
            n = val if isinstance(val, int) else len(val) if isinstance(val, list) else r.hand_size
            if n != r.hand_size:
                out.append(("BW-SETUP-2", f"each player is dealt {r.hand_size} cards; {p} gets {n}", "deals"))
        rounds = list(header.get("turn_order_rolls") or [])
        if not rounds:
            out.append(("BW-SETUP-3", f"every player rolls a d{r.die} for the turn order; no roll is recorded",
                        "turn_order_rolls"))
        contenders: list[str] | None = [str(p) for p in players]
        for i, rnd in enumerate(rounds):
            rolls = {str(k): v for k, v in rnd.items()} if isinstance(rnd, Mapping) else {}
            for p, v in rolls.items():
                if off_die(v, r.die):
                    out.append(("BW-SETUP-3", die_slip(f"{p}'s turn-order d{r.die}", v, r.die),
                                f"turn_order_rolls[{i}]"))
            if contenders is None:
                out.append(("BW-SETUP-3", "the first player already rolled highest: only a tie for the highest roll "
                            "is re-rolled", f"turn_order_rolls[{i}]"))
                break
            if set(rolls) != set(contenders):
                out.append(("BW-SETUP-3", f"the players who roll are {', '.join(contenders)}, not "
                            f"{', '.join(rolls) or 'nobody'}", f"turn_order_rolls[{i}]"))
            tied = tied_highest(r, list(rolls), rolls)
            contenders = None if len(tied) == 1 or r.tie_rule == "first_listed" else tied
        if contenders is not None and len(contenders) > 1 and rounds:
            out.append(("BW-SETUP-3", f"{' and '.join(contenders)} tie for the highest roll: the tied players "
                        "re-roll until one is highest", f"turn_order_rolls[{len(rounds) - 1}]"))
        return out

    def describe(self, state: GameState, event: Mapping[str, Any]) -> list[str]:
        """The trace of ``event``: what it did, and the table when it ended a turn."""
        assert isinstance(state, BoneWarsState)
        lines = describe(state, event)
        if event.get("kind") == "end_turn":
            self.ended = table(state, f"after turn {self.turn_was} ({event.get('player')})")
        if state.turn != self.turn_was and self.ended:
            lines += [*self.ended, f"      turn {state.turn} · {state.current}"]
        return [*lines[:1], *(ln if ln.startswith("      ") else f"      {ln}" for ln in lines[1:])]

    def upcoming(self, events: Iterator[Mapping[str, Any]]) -> None:
        self.ahead = events

    def out_of_turn(self, s: BoneWarsState, p: str | None) -> bool:
        """An edit or attack by a player whose turn the log has not started — a draw is due from
        them and the log goes on with the current player, or with that player's own draw later —
        is made outside their turn (BW-CREATE-1, BW-TURN-1); the turn stays the current player's.
        So is an edit by another player while an attack awaits its answer. (With the pile empty no
        draw marks a turn: the event starts the next player's turn.)"""
        cur = s.current
        if cur is None or p is None or p == cur or p in s.out:
            return False
        if s.combat is not None:
            return True
        if s.pile <= 0:
            return False
        nxt = next((e for e in self.ahead if e.get("kind") in TURN_KINDS), None)
        if nxt is None:
            return False
        who = str(nxt.get("player") or "").strip().lower()
        if who == cur.lower():
            return nxt.get("kind") != "draw" or not s.begun
        return nxt.get("kind") == "draw" and who == p.lower()

    def accepts(self, state: GameState, action: Action) -> bool:
        """What the state allows though its list has it otherwise: a card drawn face down (the
        outcome is left hidden), a monster created under the log's own name (the state's own
        games name them M1, M2…) and a block by a monster a log laid down during the attack."""
        assert isinstance(state, BoneWarsState)
        if action.kind == "draw" and action.get("card") == HIDDEN:
            return not why_not_all(state, action.with_fields(card=next(iter(state.unseen), None)))
        if action.kind == "create" and action["monster"] not in state.monsters:
            return action.with_fields(monster=state.next_name()) in state.legal_actions()
        if action.kind == "block":      # by a monster laid down during the attack (reported at its create)
            return not why_not_all(state, action)
        return False

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, BoneWarsState)
        s, kind = state, str(event.get("kind"))
        if s.over and kind not in CLAIM_KINDS:
            self.closed = True          # after the end only the claims about the last blow may follow, at once
        if kind in CLAIM_KINDS:
            c = s.combat        # a blow's damage stated while its dice are still unrecorded: the roll is missing
            return [Action.make(DROP_ATTACK, player=c.defender)] if kind == "damage" and c is not None \
                and c.stage == "roll" and event.get("monster") is not None else []
        p = log_player(s.players, event["player"], "player") if event.get("player") is not None else None
        out: list[Action] = []
        self.turn_was, self.ended = s.turn, []
        if s.current is None and p is not None and kind in TURN_KINDS and s.setup == PLAY and not s.over:
            s.begin_turn(p)     # no first player settled (reported at the header): the log's first actor starts
        c = s.combat
        if c is not None and kind not in COMBAT_KINDS[c.stage] and kind not in EDIT_KINDS:
            out.append(Action.make(DROP_ATTACK, player=c.defender))      # an attack left unanswered
            c = None
        if c is None and kind in TURN_KINDS and s.current is not None and p != s.current and s.begun \
                and (p or "") not in s.out and not (kind in ("attack", *EDIT_KINDS) and self.out_of_turn(s, p)):
            out.append(Action.make("end_turn", player=s.current, to=None if p == s.next_player(s.current) else p))
            self.ended = table(s, f"after turn {s.turn} ({s.current})")
        if c is not None and c.stage == "block" and kind in ("roll", "take_damage"):
            out.append(Action.make("block", player=c.defender, monster=NO_BLOCK))
        return out + self._event(s, kind, event, p, c)

    def _event(self, s: BoneWarsState, kind: str, event: Mapping[str, Any], p: str | None,
               c: Combat | None) -> list[Action]:
        """The action the event itself stands for (its names read; ``c``: the attack it answers)."""
        if kind == "draw":
            card = event.get("card")
            return [Action.make("draw", player=p, card=HIDDEN if card in (None, HIDDEN)
                                      else self.card(card, "card"))]
        if kind in EDIT_KINDS:
            card = self.card(event["card"], "card")
            if kind == "create":
                name = str(event["monster"]).strip()
                if not name or name.lower() == NO_BLOCK or name in s.monsters:
                    raise LogError("LOG-FIELD", f"monster name {name!r} is empty, reserved or already on the table: "
                                   "give each monster its own name", None)
                return [Action.make("create", player=p, card=card, monster=name)]
            m = monster(s, event["monster"], "monster")
            if kind == "add_part":
                return [Action.make("add_part", player=p, monster=m.name, card=card)]
            part = self.parts.get(card)
            old = (self.card(event["replaces"], "replaces") if event.get("replaces") is not None else
                   next((x.id for x in m.parts if part is not None and x.part == part.part), None))
            return [Action.make("replace_part", player=p, monster=m.name, card=card, replaces=old)]
        if kind == "attack":
            m = monster(s, event["monster"], "monster")
            return [Action.make("attack", player=p, monster=m.name,
                                      target=log_player(s.players, event["target"], "target"))]
        if kind == "block":
            said = event.get("monster")
            name = NO_BLOCK if said is None or str(said).strip().lower() == NO_BLOCK else \
                monster(s, said, "monster").name
            return [Action.make("block", player=p, monster=name)]
        if kind == "roll":
            if event.get("defender") is not None:
                d = c.defender if c is not None else None
                return [Action.make(DEFEND_ROLL, player=d), Action.make("roll", defender=event["defender"])]
            return [Action.make("roll", attacker=event.get("attacker"), blocker=event.get("blocker"))]
        return [Action.make(kind, player=p)]        # take_damage, end_turn

    def why_not(self, state: GameState, action: Action) -> tuple[str, str] | tuple[str, str, str]:
        assert isinstance(state, BoneWarsState)
        return (why_not_all(state, action) or [("BW-TURN-1", f"{action} is not a legal action here")])[0]

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Claim | None:
        """The first consequence ``event`` states that the state did not produce, with the field it
        is stated in; each is then kept as recorded (the log plays on from it)."""
        assert isinstance(state, BoneWarsState)
        s, kind = state, str(event.get("kind"))
        if kind in CLAIM_KINDS and s.over and self.closed:
            return "BW-END-2", f"'{kind}' after the game ended ({s.winner} won): no event may follow the end", "kind"
        check = CLAIMS.get(kind)
        return check(s, event, self.resync) if check is not None else None


#: the contract of a loaded game (the ``rules`` entry of the game's package)
contract: Callable[[Game], BoneWarsRules] = BoneWarsRules
