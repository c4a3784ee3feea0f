"""Loot & Battles on the shared referee: what a log records that the rules do not give, named and
followed as recorded so the replay stays in step — a blow's dice (too many, too few, left out, an
outcome they do not give, a slip's Health taken back), and between Battles the reinforcements,
Encounters and Loot drawn out of turn, too many or too few (:class:`Slips`, the contract's part)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardgen.content.playlog import LogError
from cardgen.games.loot_battles import header
from cardgen.games.loot_battles.play import LootState
from cardgen.games.loot_battles.reading import VALUES, Replay
from cardgen.games.loot_battles.state import Player
from cardgen.games.loot_battles.trace import roll_name
from cardgen.play.api import Action
from cardgen.play.lookahead import played
from cardgen.play.replay import Finding


def _won(s: LootState) -> str:
    """The Battle the Loot due is for."""
    ids = [
        str(e.get("encounter") or e.get("pick"))
        for e in s.events
        if e["kind"] in ("encounter_chosen", "encounter_drawn")
    ]
    return (
        f"Battle {s.battles_won} ({s.rules.cards[ids[-1]].name})"
        if ids and s.battles_won
        else "the easier start"
    )


def _said(event: Mapping[str, Any]) -> tuple[bool | None, str]:
    """The outcome a blow states (``hit``, or a ``damage`` dealt) and its field; None when neither."""
    dmg = event.get("damage")
    if event.get("hit") is None and isinstance(dmg, int) and not isinstance(dmg, bool) and dmg > 0:
        return True, "damage"
    return event.get("hit"), "hit"


class Slips(Replay):
    """The part of :class:`.contract.LootRules` that follows a log's slips as recorded."""

    def _outcome(self, state: LootState, event: Mapping[str, Any], acts: list[Action]) -> list[Action]:
        """LB-ATK-3: a roll whose stated outcome (``hit``, or a ``damage`` dealt) its dice do not
        give — named once, and the blow played as the log says (the dice read as ones that give
        it); dice left out: ones that give the stated outcome, when any can."""
        blow = next((a for a in acts if a.kind in ("attack", "enemy_turn")), None)
        said, at = _said(event)
        if blow is not None and event.get("dice") is None and said is None and blow.kind == "enemy_turn":
            raise LogError("LOG-FIELD", f"'{event['kind']}' needs its 'dice' (or at least 'hit: true/false')",
                           None)
        flip = bool(self.reading.get("flip"))  # the die read the other way (see :mod:`.reading`)
        if blow is None or (said is None and not flip):
            return acts
        c = played(state, acts[: acts.index(blow) + 1])
        pend = c.pending if c is not None else None
        targets = (pend.get("targets") or [pend.get("target")]) if pend is not None else []
        if pend is None or not pend["n"] or len(targets) != 1 or targets[0] is None:
            return acts
        n, t, die = pend["n"], targets[0], state.rules.attack_die
        dice = event.get("dice")
        rolled = (
            isinstance(dice, list)
            and len(dice) == n
            and all(isinstance(d, int) and 1 <= d <= die for d in dice)
        )
        total = sum(dice) if rolled and isinstance(dice, list) else 0
        if said is None and not rolled:
            return acts
        said, at = (said, at) if said is not None else (   # the outcome the blow's stated values have
            total <= t.dodge, next(k for k in VALUES if isinstance(event.get(k), int)))
        r = t.restored if isinstance(t, Player) else None
        if rolled and r is not None and (total > t.dodge) != said and (total > r["dodge"]) == said:
            self.noted.append(Finding("LB-ENC-1",
                                      f"the log says the roll {'hits' if said else 'misses'}, as against "
                                      f"{t.name}'s Dodge restored to {r['dodge']} when {r['card']} began; "
                                      f"between the Encounters of a Battle only Armor is restored, so "
                                      f"{t.name}'s Dodge went on from {r['dodge0']} and is {t.dodge}", at))
            state._by(t.name).dodge, state._by(t.name).restored = r["dodge"], None  # the table's value
            return acts
        if rolled and (total > t.dodge) != said:
            hits = f" for {event['damage']}" if at == "damage" else ""
            self.noted.append(Finding("LB-ATK-3",
                                      f"the log says the roll {'hits' if said else 'misses'}{hits}, but "
                                      f"{total} {'beats' if not said else 'does not beat'} {t.name}'s "
                                      f"Dodge {t.dodge}", at))
        elif dice is None and said and n * die <= t.dodge:
            self.noted.append(
                Finding("LB-ATK-3",
                        f"{n}d{die} cannot beat {t.name}'s Dodge {t.dodge}, yet the log says it hit", at)
            )
        elif dice is None and not said and n > t.dodge:
            self.noted.append(
                Finding("LB-ATK-3",
                        f"{n}d{die} always beats {t.name}'s Dodge {t.dodge}, yet the log says it missed", at)
            )
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
        n = state.rules.roll(state._by(att["player"]), att.get("with")).dice
        if not n or len(dice) == n:
            return acts
        self.noted.append(
            Finding(
                "LB-ATK-2",
                f"{roll_name(state, att)} rolls {n}d{state.rules.attack_die}; the log shows {len(dice)} dice",
                "dice",
            )
        )
        if len(dice) < n:
            self.short = True
            return acts
        at = acts.index(att)
        return [*acts[: at + 1 + n], *acts[at + 1 + len(dice) :]]

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
            self.noted.append(Finding("LB-TGT-1", bad or "the numbers name someone who is not a player",
                                      "numbers"))
            return
        self.dealt = {p.name: p.numbers for p in state.seats}
        for p in state.seats:
            p.numbers = held.get(p.name, [])

    def _loot(self, state: LootState, event: Mapping[str, Any]) -> list[Action] | None:
        """Between Battles: reinforcements and Encounters drawn out of turn, and Loot the log draws
        unnamed, where none is due, too many of or too few — named and followed as recorded (an
        unnamed card is revealed when equipped). None: the event is :func:`.play_log.actions_for`'s."""
        if state.is_terminal():
            return None
        if self._reinforcements(state, event):
            return []
        self._encounter(state, event)
        self._owed(state, event)
        return self._loot_drawn(state, event) if event["kind"] == "loot_drawn" else None

    def _reinforcements(self, state: LootState, event: Mapping[str, Any]) -> bool:
        """LB-SETUP-4: reinforcements drawn with none due (True: nothing to play), or too many."""
        cards, b = list(event.get("cards") or ()), state.battle
        if event["kind"] != "reinforcements_drawn":
            return False
        if state.phase != "reinforce":
            self.noted.append(
                Finding(
                    "LB-SETUP-4",
                    "reinforcements are drawn for an Encounter marked +N; no Battle is in progress"
                    if b is None
                    else f"the reinforcements of Battle "
                    f"{b.number} were already drawn (a +N on a reinforcement adds enemies, not "
                    "Encounters)",
                )
            )
            return True
        if b is not None and len(cards) > state.need:
            self.noted.append(Finding("LB-SETUP-4",
                                      f"{b.first.name} draws {state.need} reinforcement Encounter(s); "
                                      f"the log draws {len(cards)}", "cards"))
            state.need = len(cards)
        return False

    def _encounter(self, state: LootState, event: Mapping[str, Any]) -> None:
        """LB-ENC-1: a new Encounter while a Battle goes on (a new Battle, as recorded); an Encounter
        drawn with its cards face down (only its pick named)."""
        kind, cards = event["kind"], event.get("cards")
        if kind in ("encounter_chosen", "encounter_drawn") and state.battle is not None:
            self.noted.append(Finding("LB-ENC-1",
                                      f"a new Encounter is chosen while Battle {state.battle.number} is "
                                      "not over (a Battle ends when its last Encounter's enemies are all "
                                      "defeated)"))
            state.battle, state.pending, state.turn_open = None, None, None  # as recorded: a new Battle
            state.phase = "draw" if kind == "encounter_drawn" else "choose"
            state._enter()
            state._cp = None
        if kind != "encounter_drawn" or cards:
            return
        if state.phase == "equip" and state.battles_won:
            state.apply_action(Action.make("ready", by=state.players[state.leader]))
        if state.phase == "draw" and event.get("pick") in state.enc_deck:
            state.drawn, state.need, state.phase = [event["pick"]], 0, "pick"  # the draw face down: its pick
            state._unshare()
            state.enc_deck[event["pick"]] -= 1
            state._cp = None

    def _owed(self, state: LootState, event: Mapping[str, Any]) -> None:
        """An unnamed Loot card revealed by its equip; Loot due the log goes on without (LB-LOOT-1
        at the next Battle)."""
        kind, card = event["kind"], event.get("card")
        if (
            kind == "equip"
            and not state.pool[card]
            and self.unknown
            and card in state.rules.cards
            and state.loot_deck[card] > 0
        ):
            self.unknown -= 1  # an unnamed card of the Loot drawn, revealed
            state._unshare()
            state.pool[card] += 1
            state.loot_deck[card] -= 1
        if state.phase == "loot" and kind in ("equip", "unequip", "encounter_chosen", "encounter_drawn"):
            self.owed, self.owed_for = self.owed + state.need, _won(state)
            state._after_loot()  # the log goes on without the rest of its Loot: so does the state
            state._cp = None
        if kind in ("encounter_chosen", "encounter_drawn") and self.owed:
            self.noted.append(Finding("LB-LOOT-1",
                                      f"{self.owed} Loot card(s) for {self.owed_for} were never drawn"))
            self.owed = 0

    def _loot_drawn(self, state: LootState, event: Mapping[str, Any]) -> list[Action]:
        """LB-LOOT-1: Loot drawn where none is due, or more than is."""
        cards = list(event.get("cards") or ())
        count = event["count"] if isinstance(event.get("count"), int) else len(cards)
        hidden = max(0, count - len(cards))
        self.unknown += hidden
        if state.phase != "loot":
            self.noted.append(
                Finding(
                    "LB-LOOT-1",
                    "Loot is drawn after a won Battle (the first Encounter's loot number); none is due now",
                )
            )
            state._unshare()
            for c in cards:
                state.pool[c] += 1
                state.loot_deck[c] -= 1
            return []
        if count > state.need:
            self.noted.append(
                Finding("LB-LOOT-1",
                        f"{_won(state)} earns {state.need} more Loot card(s); the log draws {count}",
                        "count" if "count" in event else "cards")
            )
            state.need = count
        state.need -= hidden
        if state.need <= 0:
            state._drawn()
            state._cp = None
            return []
        return [Action.make("draw", card=c) for c in cards]
