"""Loot & Battles on the shared referee (:mod:`cardgen.play.replay`): the game's contract.

The state (``play.py``) is where every rule lives; this module only translates a log's events
into the state's actions (:func:`.play_log.actions_for`) and names the catalogue rule an action
the state does not allow breaks (:func:`why_not`). The log's stated consequences of a blow are
compared with the ones the state produced (:func:`claims`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from cardgen.content.model import Game
from cardgen.content.playlog import LogError
from cardgen.games.loot_battles import header, trace
from cardgen.games.loot_battles.follow import FOLLOWED, Follow, mark_restored, open_turn, restored_slip
from cardgen.games.loot_battles.header import readable
from cardgen.games.loot_battles.names import LogNames
from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.play_log import MARKERS, actions_for
from cardgen.games.loot_battles.state import Fighter, Player
from cardgen.play.api import CHANCE, TERMINAL, Action, GameState
from cardgen.play.replay import Finding, Findings, GameInfo, allowed_at, findings

#: a stated consequence of a blow → the rule a wrong one breaks
CLAIM_RULES = {"hit": "LB-ATK-3", "damage": "LB-ATK-4", "hp_left": "LB-DMG-1", "armor_left": "LB-DMG-1",
               "dodge_left": "LB-ATK-3", "ko": "LB-DMG-1"}


def _what(s: LootState, a: Action) -> str:
    """The roll of an attack, in words: its weapons, or the class attack."""
    p = s._by(a.get("player"))
    names = [s.rules.cards[c].name for c in a.get("with") or () if c in s.rules.cards]
    return " + ".join(names) if names else f"{p.class_card.name} class attack"


def _again(s: LootState, a: Action) -> list[Finding]:
    """LB-ATK-2: an attack with a roll the player already made this turn."""
    enc = s._enc()
    used = enc.used.get(a.get("player"), set())
    if a.kind != "attack" or not any(k in used for k in (a.get("with") or ("class",))):
        return []
    return [Finding("LB-ATK-2", f"{a.get('player')} already rolled {_what(s, a)} this turn (one roll per weapon)")]


def _twice_in_turn(s: LootState, a: Action) -> list[Finding]:
    """LB-HEAL-1 / LB-RND-1: a turn is one attack (one roll per weapon group), one heal or one pass."""
    name = a.get("player")
    kinds = s._enc().turn.get(name, set())
    if ("heal" in kinds and a.kind == "attack") or ("attack" in kinds and a.kind == "heal"):
        return [Finding("LB-HEAL-1", f"{name} both heals and attacks this turn; a Healing spell is cast instead of "
                                     "attacking")]
    if kinds and ("pass" in kinds or a.kind == "pass" or "heal" in kinds):
        done = "passed" if "pass" in kinds else "healed" if "heal" in kinds else "attacked"
        return [Finding("LB-RND-1", f"{name} already {done} this turn: a player's turn is one attack (one roll per "
                                    "weapon group), one heal or one pass")]
    return []


def _why_player(s: LootState, a: Action) -> list[Finding]:
    who = s.current_player()
    name = a.get("player")
    if name in s.seat_of and s._by(name).ko:
        return [Finding("LB-DMG-1", f"{name} is knocked out until the Battle ends"), *_again(s, a)]
    if a.kind == "attack" and open_turn(s, name) and _again(s, a):
        return [*_again(s, a), *_why_kit(s, a, fallback=False)]
    if who < 0 or name != s.players[who]:
        now = "the enemies" if who == CHANCE else s.players[who] if who >= 0 else "nobody"
        return [Finding("LB-RND-1", f"{name} acts, but it is {now}'s turn now")]
    return _why_kit(s, a)


def _why_kit(s: LootState, a: Action, fallback: bool = True) -> list[Finding]:
    """What a player's heal or attack gets wrong, whoever's turn it is."""
    name = a.get("player")
    p = s._by(name)
    if a.kind == "heal":
        spell = s.rules.cards.get(a.get("with") or "")
        if a.get("target") == name:
            return [Finding("LB-HEAL-1", "a Healing spell heals another player, not its caster")]
        if spell is None or spell.id not in p.equipment:
            return [Finding("LB-HEAL-1", f"{name} holds no such Healing spell")]
        return [Finding("LB-DMG-1", f"{a.get('target')} is knocked out until the Battle ends: no healing")]
    if a.kind != "attack":
        return [Finding("LB-RND-1", f"{a} is not {name}'s to do now")] if fallback else []
    enc = s._enc()
    names = list(a.get("targets") or ()) or [a.get("target")]
    foes = {e.name: e for e in enc.enemies}
    out = [Finding("LB-DMG-1", f"{t} was defeated and removed: it cannot be attacked")
           for t in names if t not in foes or foes[t].ko][:1]
    out += [Finding("LB-EQUIP-1", f"{name} has no {c} equipped") for c in a.get("with") or ()
            if c not in p.equipment][:1]
    front = [e.name for e in enc.alive() if e.front == name]
    far = [t for t in names if t not in front]
    if s.rules.melee_only(p) and front and far:
        out.append(Finding("LB-ATK-1", f"{name} has only Melee attacks and must attack an enemy in front of them "
                                       f"({', '.join(front)}), not {far[0]}", "targets" if a.get("targets") else "target"))
    if out or not fallback:
        return out
    return [Finding("LB-ATK-2", f"{name} has no such roll left this turn (one roll per weapon)")]


def _why_equip(s: LootState, a: Action) -> list[Finding]:
    """LB-LOOT-1 (not among the Loot drawn) and LB-EQUIP-1 (a category's limit, the hands)."""
    r, card, name = s.rules, a.get("card"), a.get("player")
    out = []
    if not s.pool[card]:
        out.append(Finding("LB-LOOT-1", f"no {card} among the Loot drawn and not yet equipped", "card"))
    p = s._by(name) if name in s.seat_of else None
    if p is not None and card in r.cards:
        held = [i for i in p.equipment if i in r.cards]
        cat = r.category[card]
        limit = r.equip_limits.get(cat)
        if limit is not None and sum(1 for i in held if r.category[i] == cat) + 1 > int(limit):
            out.append(Finding("LB-EQUIP-1", f"a player equips at most {limit} {cat}; {name} would hold one more",
                               "card"))
        elif sum(r.hands_of[i] for i in held) + r.hands_of[card] > r.hands:
            out.append(Finding("LB-EQUIP-1", f"{name} has {r.hands} hands; the kit with {card} needs more", "card"))
    return out or [Finding("LB-EQUIP-1", f"{name} cannot equip {card} now")]


def why_not(state: GameState, action: Action, kind_now: str = "") -> Findings:
    """The catalogue rule ``action`` breaks at ``state`` (it is not among the legal actions)."""
    assert isinstance(state, LootState)
    s, who = state, state.current_player()
    if who == TERMINAL:
        how = "the players won" if s.winner == "players" else "the players lost"
        return "LB-END-1", f"event '{action.kind}' after the game has ended ({how})"
    early = _why_out_of_phase(s, action, kind_now)
    if early is not None:
        return early
    if action.kind == "enemy_turn":
        foe = next((e for e in s._enc().enemies if e.name == action.get("enemy")), None)
        if foe is not None and foe.ko:
            return "LB-DMG-1", f"{foe.name} was defeated and removed: it does not attack"
        return "LB-RND-1", f"{action.get('enemy')} does not attack now"
    if action.kind in ("attack", "heal", "pass") and action.get("player") in s.seat_of and s._by(action["player"]).ko:
        return _why_player(s, action)
    if action.kind in ("attack", "heal", "pass") and s.pending is None and open_turn(s, action.get("player")):
        twice = _twice_in_turn(s, action)
        if twice or _again(s, action):
            return twice or _why_player(s, action)
    if action.kind == "equip" and (s.phase == "equip" or s.battle is None):
        return _why_equip(s, action)
    if action.kind in ("equip", "unequip"):
        return "LB-EQUIP-1", f"{action.get('player')} cannot {action.kind} {action.get('card')} now"
    if action.kind in ("encounter_chosen", "encounter_drawn", "ready"):
        return "LB-SETUP-3", f"'{action.kind}' is not the Leader's to do now"
    if who == CHANCE and action.kind != "end_turn":
        return "LB-RND-1", f"{action.get('player')} acts, but the enemies in front of the last player attack first"
    return _why_player(s, action)


def _why_out_of_phase(s: LootState, action: Action, kind_now: str) -> tuple[str, str] | None:
    """A fight's action with no fight, a die or a target die that no die shows, a card not in the
    deck; None when the action is none of these."""
    if action.kind in ("attack", "heal", "pass", "enemy_turn", "end_turn") and s.phase != "fight":
        kind = "enemy_attack" if action.kind == "enemy_turn" else action.kind
        return "LB-TGT-1", f"'{kind}' with no enemies placed (each Encounter's enemies are placed with a " \
                           f"d{s.rules.target_die} each before the fight)"
    if action.kind == "die":
        return "LB-ATK-2", f"a die shows {action.get('value')!r}, but a d{s.rules.attack_die} shows " \
                           f"1–{s.rules.attack_die}"
    if action.kind == "place":
        return "LB-TGT-1", f"a target die shows {action.get('value')!r}"
    if action.kind == "draw":
        card = s.rules.cards.get(action.get("card") or "")
        if card is not None and card.type == "loot" and s.phase != "loot":
            return "LB-LOOT-1", "Loot is drawn after a won Battle (the first Encounter's loot number); none is due now"
        if card is not None and card.type == "encounter" and s.phase != "reinforce" and s.battle is None \
                and kind_now == "reinforcements_drawn":
            return "LB-SETUP-4", "reinforcements are drawn for an Encounter marked +N; no Battle is in progress"
        return "LB-LOOT-1" if s.phase == "loot" else "LB-SETUP-3", f"{action.get('card')} is not in the deck"
    return None


def claims(state: GameState, event: Mapping[str, Any], follow: Follow | None = None) -> Findings | None:
    """The first consequence of a blow the log states and the state's own event of it does not
    give: (rule, message); None when they agree. With ``follow`` (a replay's), the log's markers
    are compared too, and the blow's stated values followed."""
    assert isinstance(state, LootState)
    if follow is not None and event.get("kind") in MARKERS:
        return follow.marker(state, event)
    if event.get("kind") not in ("attack", "enemy_attack") or not state.events:
        return None
    mine = next((e for e in reversed(state.events) if e["kind"] == event["kind"]), None)
    if mine is None:
        return None
    found: list[Finding] = []
    target = event.get("target")
    front = follow.fronts.get(mine["enemy"], mine["target"]) if follow is not None and "enemy" in mine \
        else mine.get("target")
    if event["kind"] == "enemy_attack" and target is not None and target != front:
        found.append(Finding("LB-RND-1", f"{mine['enemy']} stands in front of {front} and attacks "
                                         f"{front}, not {target}", "target"))
        down = follow.down if follow is not None else {p.name for p in state.seats if p.ko}
        if target in down:
            found.append(Finding("LB-DMG-1", f"{target} is knocked out until the Battle ends"))
    wrong = set()
    for key, rule in CLAIM_RULES.items():
        stated = event.get(key)
        if stated is None or key not in mine or (key == "ko" and "hp_left" in wrong):
            continue
        slip = restored_slip(_fighter(state, event["kind"], mine.get("target")), stated, key) \
            if key == "dodge_left" else None
        if slip is not None:
            found.append(slip)
            continue
        if follow is not None and key in FOLLOWED:
            same = follow.in_step((mine.get("target"), key), stated, mine[key])
        elif key == "ko" and isinstance(event.get("hp_left"), int):
            same = stated == (event["hp_left"] <= 0)        # as the stated Health has it (followed)
        else:
            same = stated == mine[key]
        if not same:
            wrong.add(key)
            found.append(Finding(rule, f"the log says {key} is {stated!r}, but the rules give {mine[key]!r}", key))
            if key in ("hit", "damage"):
                break               # what the blow leaves follows from it: one slip
    if follow is not None:
        follow.blow(state, event, mine)
    return found


def _fighter(s: LootState, kind: str, name: Any) -> Fighter:
    """A blow's target: the player an enemy attacked (a placeholder for an enemy: not restored)."""
    return s._by(name) if kind == "enemy_attack" and name in s.seat_of else Fighter(name=str(name))


def _won(s: LootState) -> str:
    """The Battle the Loot due is for."""
    ids = [str(e.get("encounter") or e.get("pick")) for e in s.events
           if e["kind"] in ("encounter_chosen", "encounter_drawn")]
    return f"Battle {s.battles_won} ({s.rules.cards[ids[-1]].name})" if ids and s.battles_won else "the easier start"


def _twice(s: LootState, a: Action) -> bool:
    """An attack with a card the player holds twice (an equip followed as recorded), named once."""
    with_ = a.get("with")
    if a.kind != "attack" or not with_ or s.phase != "fight" or a.get("player") not in s.seat_of:
        return False
    for g in s._unused(s._by(a["player"]), s._enc()).values():
        ids = tuple(c.id for c in g)
        if set(ids) == set(with_) and ids != tuple(with_):
            return allowed_at(s, Action.make("attack", **{**dict(a.items), "with": ids}))
    return False


def _placed(s: GameState, placed: Mapping[str, Any]) -> list[Finding]:
    """LB-TGT-1: the enemies the log places in front of each player, as the dice place them
    (followed as recorded)."""
    assert isinstance(s, LootState)
    if s.phase != "fight" or s.battle is None:
        return []
    enc, out = s._enc(), []
    fronts = {e.name: e.front for e in enc.enemies}
    for name, refs in placed.items():
        stated = sorted(str(r) for r in (refs if isinstance(refs, list) else [refs]))
        computed = sorted(e for e, p in fronts.items() if p == name)
        if stated != computed:
            out.append(Finding("LB-TGT-1", f"the log places {', '.join(stated) or 'nobody'} in front of {name}; the "
                                           f"dice place {', '.join(computed) or 'nobody'}", "placed"))
            for e in enc.enemies:
                e.front = name if e.name in stated else e.front
    if out:
        s._cp, s._nxt = None, False
    return out


def _plain(action: Action) -> Action:
    """An enemy's attack as the rules have it (on the player it stands in front of)."""
    return Action.make("enemy_turn", enemy=action.get("enemy")) \
        if action.kind == "enemy_turn" and action.get("target") is not None else action


class LootRules:
    """Loot & Battles as a :class:`cardgen.play.replay.GameRules`."""

    #: each distinct slip of one event is its own problem (a roll too many and its wrong Dodge)
    every_slip = True

    def __init__(self, game: Game, new_state: Any):
        self.game = game
        self._new = new_state
        self.follow = Follow()          # one replay's view of the log's markers (a contract per log)
        self.names: LogNames | None = None      # the log's names, once its players are known
        self._looked = False                    # the log read ahead for its round markers
        self.noted: list[Finding] = []          # what the event gets wrong that the state follows as recorded
        self._kind = ""                         # the kind of the event being replayed
        self.quiet = False                      # the event was named and not played: no claims
        self.dealt: dict[str, list | None] | None = None    # the header's numbers, while an event's own are used
        self.short = False                      # the event rolls fewer dice than its weapons
        self.reopened = False                   # the final Battle's loot shared after the end
        self.slips: list[Finding] | None = None  # an action's turns out of order (see :meth:`.Follow.resync`)
        self.unknown = 0                        # Loot drawn unnamed, not yet equipped
        self.owed, self.owed_for = 0, ""        # Loot due the log never drew (named at the next Battle)
        state = new_state(game, {"players": []})
        self.info = GameInfo(name=game.slug, min_players=state.rules.n_min, max_players=state.rules.n_max,
                             chance_mode="explicit_stochastic", information="perfect", utility="identical",
                             max_game_length=20_000)

    def new_state(self, setup: Mapping[str, Any]) -> GameState:
        """The table the header sets up: as recorded where it slips (see :meth:`setup_problems`)."""
        readable(self._new(self.game, {"players": []}).rules, setup)
        state = self._new(self.game, setup)
        assert isinstance(state, LootState)
        held = {p.name: e.get("numbers") for p, e in zip(state.seats, setup.get("players") or [], strict=True)}
        if any(v is not None for v in held.values()) and \
                header.numbers(state.rules, {k: list(v or []) for k, v in held.items()}, list(held)) is None:
            for p in state.seats:       # the header's target numbers (a wrong deal: named, the default one played)
                p.numbers = held[p.name]
        if isinstance(setup.get("battles_to_win"), int):
            state.target = setup["battles_to_win"]
        lead = setup.get("leader")
        if lead is not None:
            if lead not in state.seat_of:
                raise LogError("LOG-FIELD", f"the leader {lead!r} is not one of the players", None)
            state.leader = state.seat_of[lead]
        return state

    def setup_problems(self, game: Game, setup: Mapping[str, Any]) -> list[header.Slip]:
        return header.slips(self._new(game, {"players": []}).rules, setup)

    def actions_of(self, state: GameState, event: Mapping[str, Any]) -> list[Action]:
        assert isinstance(state, LootState)
        self.follow.before(state, event)
        self._kind = str(event.get("kind"))
        if self.names is None:
            self.names = LogNames(state.rules, state.players)
        if state.is_terminal() and event.get("kind") not in MARKERS and self.follow.ended:
            return []                   # after the end: the first event was named, the rest follow from it
        kind, final = event.get("kind"), state.winner == "players" and state.rules.final_loot
        if state.winner is not None and kind not in MARKERS and not (final and kind in ("loot_drawn", "equip",
                                                                                         "unequip")):
            late = self.follow.after_end(state, str(kind))
            self.noted, self.quiet = [late] if late is not None else [], True
            return []                   # the game is decided: only its last markers (and its loot) may follow
        if final and state.phase == "over" and kind in ("equip", "unequip"):
            state.phase, state._cp = "equip", None      # the final Battle's loot shared (LB-LOOT-1 ruling)
            self.reopened = True
        event = self.names.event(state, dict(event))
        self.noted = self.follow.placement(state, event)
        if self.noted and self.noted[-1].rule == "LB-SETUP-3":
            return []                   # enemies placed twice: named, nothing to play
        if state.pending is not None:   # a blow an earlier event left unrolled: the log went on without it
            state.pending = None
            state._settle()
            state._cp, state._nxt = None, False
        self._numbers(state, event)
        loot = self._loot(state, event)
        if loot is not None:
            return loot
        gone = self.follow.gone(state, event)
        if gone:
            self.noted, self.quiet = [*self.noted, *gone], True
            return []                   # a blow with nothing to play: named, no consequences to compare
        return self._outcome(state, event, self._dice(state, event, actions_for(state, event)))

    def _outcome(self, state: LootState, event: Mapping[str, Any], acts: list[Action]) -> list[Action]:
        """LB-ATK-3: a roll whose stated outcome (``hit``, or a ``damage`` dealt) its dice do not
        give — named once, and the blow played as the log says (the dice read as ones that give
        it); dice left out: ones that give the stated outcome, when any can."""
        blow = next((a for a in acts if a.kind in ("attack", "enemy_turn")), None)
        said, at = event.get("hit"), "hit"
        if said is None and isinstance(event.get("damage"), int) and not isinstance(event["damage"], bool) \
                and event["damage"] > 0:
            said, at = True, "damage"
        if blow is not None and event.get("dice") is None and said is None and blow.kind == "enemy_turn":
            raise LogError("LOG-FIELD", f"'{event['kind']}' needs its 'dice' (or at least 'hit: true/false')", None)
        if blow is None or said is None:
            return acts
        c = state.clone()
        try:
            for a in acts[:acts.index(blow) + 1]:
                c.apply_action(a)
        except Exception:  # noqa: BLE001 - a blow the state cannot play at all: the replay names it
            return acts
        pend = c.pending
        targets = (pend.get("targets") or [pend.get("target")]) if pend is not None else []
        if pend is None or not pend["n"] or len(targets) != 1 or targets[0] is None:
            return acts
        n, t, die = pend["n"], targets[0], state.rules.attack_die
        dice = event.get("dice")
        rolled = isinstance(dice, list) and len(dice) == n and all(isinstance(d, int) and 1 <= d <= die for d in dice)
        total = sum(dice) if rolled and isinstance(dice, list) else 0
        r = t.restored if isinstance(t, Player) else None
        if rolled and r is not None and (total > t.dodge) != said and (total > r["dodge"]) == said:
            self.noted.append(Finding("LB-ENC-1", f"the log says the roll {'hits' if said else 'misses'}, as against "
                                                  f"{t.name}'s Dodge restored to {r['dodge']} when {r['card']} began; "
                                                  f"between the Encounters of a Battle only Armor is restored, so "
                                                  f"{t.name}'s Dodge went on from {r['dodge0']} and is {t.dodge}", at))
            state._by(t.name).dodge, state._by(t.name).restored = r["dodge"], None     # the table's value
            return acts
        if rolled and (total > t.dodge) != said:
            hits = f" for {event['damage']}" if at == "damage" else ""
            self.noted.append(Finding("LB-ATK-3", f"the log says the roll {'hits' if said else 'misses'}{hits}, but "
                                                  f"{total} {'beats' if not said else 'does not beat'} {t.name}'s "
                                                  f"Dodge {t.dodge}", at))
        elif dice is None and said and n * die <= t.dodge:
            self.noted.append(Finding("LB-ATK-3", f"{n}d{die} cannot beat {t.name}'s Dodge {t.dodge}, yet the log "
                                                  "says it hit", at))
        elif dice is None and not said and n > t.dodge:
            self.noted.append(Finding("LB-ATK-3", f"{n}d{die} always beats {t.name}'s Dodge {t.dodge}, yet the log "
                                                  "says it missed", at))
        elif dice is not None:
            return acts
        total = min(max(t.dodge + 1, n), n * die) if said else n
        faces = [1 + min(die - 1, max(0, total - n - (die - 1) * i)) for i in range(n)]
        b = acts.index(blow)
        keep = [a for i, a in enumerate(acts) if a.kind != "die" or i < b]
        at_blow = keep.index(blow) + 1
        return [*keep[:at_blow], *(Action.make("die", value=f) for f in faces), *keep[at_blow:]]

    def _dice(self, state: LootState, event: Mapping[str, Any], acts: list[Action]) -> list[Action]:
        """LB-ATK-2: a roll of more or fewer dice than the weapons roll — named, and the blow
        resolved with the dice the log shows (see :meth:`claims`)."""
        att = next((a for a in acts if a.kind == "attack"), None)
        dice = event.get("dice")
        if att is None or not isinstance(dice, list) or not dice or att.get("player") not in state.seat_of:
            return acts
        items = [state.rules.cards[i] for i in att.get("with") or () if i in state.rules.cards]
        n = state.rules.dice_of(items[0] if items else None, state._by(att["player"]))
        if not n or len(dice) == n:
            return acts
        self.noted.append(Finding("LB-ATK-2", f"{_what(state, att)} rolls {n}d{state.rules.attack_die}; the log "
                                              f"shows {len(dice)} dice", "dice"))
        if len(dice) < n:
            self.short = True
            return acts
        at = acts.index(att)
        return [*acts[:at + 1 + n], *acts[at + 1 + len(dice):]]

    def _numbers(self, state: LootState, event: Mapping[str, Any]) -> None:
        """An enemies_placed event's own target numbers (LB-TGT-1): for its placement only."""
        if self.dealt is not None:
            for p in state.seats:
                p.numbers = self.dealt[p.name]
            self.dealt = None
        held = event.get("numbers")
        if event["kind"] != "enemies_placed" or not isinstance(held, Mapping):
            return
        held = {str(k): list(v) if isinstance(v, list) else [v] for k, v in held.items()}
        bad = header.numbers(state.rules, held, [p.name for p in state.seats if not p.ko])
        if bad is not None or set(held) - set(state.seat_of):
            self.noted.append(Finding("LB-TGT-1", bad or "the numbers name someone who is not a player", "numbers"))
            return
        self.dealt = {p.name: p.numbers for p in state.seats}
        for p in state.seats:
            p.numbers = held.get(p.name, [])

    def _loot(self, state: LootState, event: Mapping[str, Any]) -> list[Action] | None:
        """Loot the log draws unnamed, draws where none is due, draws more of or leaves undrawn:
        named (LB-LOOT-1) and followed as recorded (an unnamed card is revealed when equipped).
        None: the event is :func:`.play_log.actions_for`'s to translate."""
        kind, cards = event["kind"], list(event.get("cards") or ())
        if state.is_terminal():
            return None
        if kind == "reinforcements_drawn" and state.phase != "reinforce":
            b = state.battle
            self.noted.append(Finding("LB-SETUP-4", "reinforcements are drawn for an Encounter marked +N; no Battle "
                                                    "is in progress" if b is None else f"the reinforcements of Battle "
                                      f"{b.number} were already drawn (a +N on a reinforcement adds enemies, not "
                                      "Encounters)"))
            return []
        if kind == "reinforcements_drawn" and state.phase == "reinforce" and len(cards) > state.need:
            b = state.battle
            assert b is not None
            self.noted.append(Finding("LB-SETUP-4", f"{b.first.name} draws {state.need} reinforcement Encounter(s); "
                                                    f"the log draws {len(cards)}", "cards"))
            state.need = len(cards)
        if kind in ("encounter_chosen", "encounter_drawn") and state.battle is not None:
            self.noted.append(Finding("LB-ENC-1", f"a new Encounter is chosen while Battle {state.battle.number} is "
                                                  "not over (a Battle ends when its last Encounter's enemies are all "
                                                  "defeated)"))
            state.battle, state.pending, state.turn_open = None, None, None     # as recorded: a new Battle
            state.phase = "draw" if kind == "encounter_drawn" else "choose"
            state._enter()
            state._cp = None
        if kind == "encounter_drawn" and not cards and state.phase == "equip" and state.battles_won:
            state.apply_action(Action.make("ready", by=state.players[state.leader]))
        if kind == "encounter_drawn" and not cards and state.phase == "draw" and event.get("pick") in state.enc_deck:
            state.drawn, state.need, state.phase = [event["pick"]], 0, "pick"     # the draw face down: its pick
            state.enc_deck[event["pick"]] -= 1
            state._cp = None
        if kind == "equip" and not state.pool[event.get("card")] and self.unknown and event.get("card") in state.rules.cards \
                and state.loot_deck[event["card"]] > 0:
            self.unknown -= 1               # an unnamed card of the Loot drawn, revealed
            state.pool[event["card"]] += 1
            state.loot_deck[event["card"]] -= 1
        if state.phase == "loot" and kind in ("equip", "unequip", "encounter_chosen", "encounter_drawn"):
            self.owed, self.owed_for = self.owed + state.need, _won(state)
            state._after_loot()             # the log goes on without the rest of its Loot: so does the state
            state._cp = None
        if kind in ("encounter_chosen", "encounter_drawn") and self.owed:
            self.noted.append(Finding("LB-LOOT-1", f"{self.owed} Loot card(s) for {self.owed_for} were never drawn"))
            self.owed = 0
        if kind != "loot_drawn":
            return None
        count = event["count"] if isinstance(event.get("count"), int) else len(cards)
        hidden = max(0, count - len(cards))
        self.unknown += hidden
        if state.phase != "loot":
            self.noted.append(Finding("LB-LOOT-1", "Loot is drawn after a won Battle (the first Encounter's loot "
                                                   "number); none is due now"))
            for c in cards:
                state.pool[c] += 1
                state.loot_deck[c] -= 1
            return []
        if count > state.need:
            self.noted.append(Finding("LB-LOOT-1", f"{_won(state)} earns {state.need} more Loot card(s); the log "
                                                   f"draws {count}", "count" if "count" in event else "cards"))
            state.need = count
        state.need -= hidden
        if state.need <= 0:
            state._drawn()
            state._cp = None
            return []
        return [Action.make("draw", card=c) for c in cards]

    def describe(self, state: GameState, event: Mapping[str, Any]) -> list[str]:
        assert isinstance(state, LootState)
        return trace.describe(state, event)

    def accepts(self, state: GameState, action: Action) -> bool:
        """A turn the log went past, taken late (named once already: see :meth:`.Follow.late`);
        an enemy's attack on the log's target (the target is a claim: see :func:`claims`)."""
        assert isinstance(state, LootState)
        plain = _plain(action)
        if (plain is not action and allowed_at(state, plain)) or _twice(state, action) \
                or self.follow.late(state, plain):
            return True
        self.slips = self.follow.resync(state, plain)
        return self.slips == [] and allowed_at(state, plain)    # out of order, all of it named already

    def upcoming(self, events: Iterator[Mapping[str, Any]]) -> None:
        """Does the log mark the ends of rounds? (read once, as far as its first round_end)"""
        if not self._looked:
            self._looked = True
            self.follow.marks_rounds |= any(e.get("kind") == "round_end" for e in events)

    def why_not(self, state: GameState, action: Action) -> Findings:
        """The rule ``action`` breaks; a turn out of order is followed (see :meth:`.Follow.resync`)."""
        assert isinstance(state, LootState)
        if state.is_terminal():
            self.follow.ended = True
        action = _plain(action)
        slips, self.slips = self.slips, None
        if not slips:
            return why_not(state, action, self._kind)
        if allowed_at(state, action):
            return slips
        kit = _why_kit(state, action, fallback=False) if action.kind in ("attack", "heal") else []
        more = [f for f in findings(kit or why_not(state, action, self._kind)) if f.rule != "LB-RND-1"]
        return [*slips, *more]          # out of turn, and against another rule too (the order is named once)

    def claims(self, state: GameState, event: Mapping[str, Any]) -> Findings | None:
        noted, self.noted = self.noted, []
        assert isinstance(state, LootState)
        if self.reopened:
            state.phase, self.reopened = "over", False
            state._cp = None
        if self.quiet:
            self.quiet = False
            return noted
        if event["kind"] == "enemies_placed" and state.phase == "fight" and state.battle is not None:
            mark_restored(state)
        if event["kind"] == "enemies_placed" and isinstance(event.get("placed"), Mapping):
            noted += _placed(state, event["placed"])
        if self.short and isinstance(state, LootState) and state.pending is not None and state.pending["dice"]:
            state.pending["n"] = len(state.pending["dice"])     # the blow as rolled
            state._resolve()
            state._settle()
            state._cp, state._nxt = None, False
        self.short = False
        return [*noted, *findings(claims(state, event, self.follow))]
