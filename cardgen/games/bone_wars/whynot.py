"""Bone Wars — the catalogue rule an action the state does not allow breaks (the contract's
``why_not``): each check reads the state, the one model; none changes it."""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from cardgen.games.bone_wars.rules import Monster, meet_reason, meets
from cardgen.games.bone_wars.state import BoneWarsState
from cardgen.games.bone_wars.table import DEFEND_ROLL, DROP_ATTACK, PLAY
from cardgen.games.bone_wars.vocab import NO_BLOCK
from cardgen.play.api import TERMINAL, Action
from cardgen.play.dice import die_slip, off_die
from cardgen.play.hidden import HIDDEN

Why = tuple[str, str] | tuple[str, str, str]      # (rule, message[, the event's field])
EDITS = {"create": ("BW-CREATE-2", "creates a monster", "create"),
         "add_part": ("BW-CREATE-3", "adds a part", "add a part"),
         "replace_part": ("BW-CREATE-4", "replaces a part", "replace a part")}


def why_not_all(s: BoneWarsState, a: Action) -> list[Why]:
    """Every rule ``a`` breaks at ``s``: distinct slips of one event, each one problem (turns,
    draws and the answers to an attack are one check each)."""
    if s.current_player() == TERMINAL and s.setup == PLAY and s.over:
        return [("BW-END-2", f"'{a.kind}' after the game ended ({s.winner} won): no event may follow the end")]
    many = _MANY.get(a.kind)
    return list(many(s, a)) if many is not None else [w for w in [_ONE.get(a.kind, _answer)(s, a)] if w]


def _unanswered(s: BoneWarsState) -> Why:
    c = s.combat
    assert c is not None
    a = c.attacker.name
    if c.stage == "block":
        return "BW-ATK-3", f"{c.defender}'s answer to {a}'s attack is not recorded: a 'block' (a monster, or none) " \
                           "and the dice or 'take_damage'"
    if c.stage == "roll":
        b = c.blocker.name if c.blocker is not None else "its blocker"
        return "BW-ATK-6", f"the dice of {a} against {b} are not recorded: a 'roll' with attacker and blocker"
    return "BW-ATK-10", f"{c.defender} neither takes {a}'s damage nor rolls: a 'take_damage' or a 'roll' with defender"


def _turn(s: BoneWarsState, a: Action) -> Why | None:
    """BW-TURN-1 (BW-SETUP-3 on the first turn): the player acts in their own turn."""
    p, cur = a.get("to") or a.get("player"), s.current     # (``to``: the turn handed on by a log)
    if p in s.out:
        return "BW-TURN-1", f"{p} is out of the game; eliminated players are skipped", "player"
    if p == cur or cur is None:
        return None
    if s.combat is not None:
        return "BW-TURN-1", f"{p} acts during {cur}'s turn {s.turn}, while an attack awaits its answer", "player"
    if not s.begun and s.turn == 1 and s.rolled_first == cur:
        return "BW-SETUP-3", f"{cur} rolled highest ({s.order_rounds[-1][cur]}) and takes the first turn, not {p}", "player"
    nxt = s.next_player(cur)
    return "BW-TURN-1", f"{p} acts during {cur}'s turn {s.turn}; turns go clockwise ({', '.join(s.players)}): " \
                        f"after {cur} comes {nxt}", "player"


def _draw_first(s: BoneWarsState) -> Why | None:
    if s.phase == "draw" and s.drawn < s.need:
        n = "a card" if s.need == 1 else f"{s.need} cards"
        return "BW-TURN-1", f"{s.current}'s turn starts by drawing {n} from the center pile ({s.pile} left); no " \
                            "draw is recorded"
    return None


def _all_out(s: BoneWarsState, p: str, does: str, cid: str) -> str:
    c = s.parts[cid]
    return f"{p} {does} {c.name}, but the center pile holds {c.copies} and {c.copies} " \
           f"{'is' if c.copies == 1 else 'are'} already out"


def _draw(s: BoneWarsState, a: Action) -> Why | None:
    """A draw in the player's own turn (:func:`_turn`, checked first): its rules."""
    p, card, per = a["player"], a.get("card"), s.rules.draw_per_turn
    if s.pile <= 0:
        return "BW-TURN-1", "the center pile is empty: no card is drawn"
    if s.phase != "draw":
        return "BW-TURN-1", f"a turn starts by drawing {per} card; {p} draws after the Creation Phase began"
    if s.drawn >= s.need:
        return "BW-TURN-1", f"a turn starts by drawing exactly {per} card; {p} draws again"
    if card not in s.parts and card != HIDDEN:
        return "BW-TURN-1", f"{card} is not in the center pile (Part cards only)", "card"
    if card != HIDDEN and s.unseen.get(card, 0) <= 0:
        return "BW-TURN-1", _all_out(s, p, "draws", card), "card"
    return None


def _mine(s: BoneWarsState, a: Action, rule: str, verb: str) -> Generator[Why, None, Monster | None]:
    """The monster ``a`` names, alive and ``a``'s player's own (the slips named), returned."""
    m = s.find(a["monster"])
    if m is None or not s.alive(m):
        yield "BW-ATK-8", f"{a['monster']} was destroyed and cannot {verb}", "monster"
    if m is not None and m.owner != a["player"]:
        yield rule, f"{m.name} is {m.owner}'s monster; {a['player']} {verb}s only with monsters they control", "monster"
    return m


def _edit(s: BoneWarsState, a: Action) -> Iterator[Why]:
    p, k = a["player"], a.kind
    rule, does, what = EDITS[k]
    m = (yield from _mine(s, a, rule, "edit")) if k != "create" else None
    if p != s.current and s.current is not None:
        yield "BW-CREATE-1", f"{p} {does} during {s.current}'s turn {s.turn}: a player creates or edits only in " \
                             "their own Creation Phase"
    else:
        yield from filter(None, [_draw_first(s)])
        if s.phase == "destroy":
            yield "BW-ATK-1", f"{p} cannot {what} after the first attack of the turn: the Creation Phase is over"
        elif s.edits >= s.rules.edits_per_turn:
            yield "BW-CREATE-1", f"{s.rules.edits_per_turn} create-or-edit per turn; {p} already used it this turn"
    card = s.parts.get(a["card"])
    if card is None:
        yield rule, f"{a['card']} is not a Part card: only Part cards build monsters", "card"
        return
    if m is not None:
        yield from _part_fits(s, m, a)
    yield from filter(None, [_in_hand(s, p, a["card"], rule)])


def _part_fits(s: BoneWarsState, m: Monster, a: Action) -> Iterator[Why]:
    card, names = s.parts[a["card"]], s.rules.part_names
    if a.kind == "add_part":
        if len(m.parts) >= s.rules.max_parts:
            yield "BW-CREATE-3", f"a part is added only to a monster with fewer than {s.rules.max_parts} parts; " \
                                  f"{m.name} has {len(m.parts)}"
        if any(x.part == card.part for x in m.parts):
            yield "BW-CREATE-3", f"{m.name} already has a {names.get(card.part, card.part)} part; an added part is " \
                                  "of a type the monster lacks", "card"
        return
    old = next((x for x in m.parts if x.id == a.get("replaces")), None)
    if old is None:
        yield "BW-CREATE-4", f"{m.name} has no {names.get(card.part, card.part)} part for {card.name} to replace", \
            "card"
    elif old.part != card.part:
        yield "BW-CREATE-4", f"a part is replaced by one of the same type: {old.name} is {names.get(old.part)}, " \
                              f"{card.name} is {names.get(card.part)}", "card"


def _in_hand(s: BoneWarsState, p: str, cid: str, rule: str) -> Why | None:
    hand = s.hands[p]
    if hand.known[cid] > 0:
        return None
    c = s.parts[cid]
    if hand.hidden <= 0:
        have = ", ".join(s.parts[i].name for i in hand.cards()) or "no cards"
        return rule, f"{p} has no {c.name} in hand (the hand holds {have})", "card"
    if s.unseen.get(cid, 0) <= 0:
        return rule, _all_out(s, p, "plays", cid), "card"
    return None


def _attack(s: BoneWarsState, a: Action) -> Iterator[Why]:
    p, target = a["player"], a["target"]
    if p != s.current or s.combat is not None:
        yield "BW-TURN-1", f"{p} attacks during {s.current}'s turn {s.turn}: turns go clockwise " \
                           f"({', '.join(s.players)}), and {p}'s own turn starts with a draw", "player"
    else:
        yield from filter(None, [_draw_first(s)])
    m = yield from _mine(s, a, "BW-ATK-2", "attack")
    if m is not None and m.attacked == s.turn:
        yield "BW-ATK-2", f"{m.name} already attacked this turn (each monster attacks at most once per turn)", \
            "monster"
    elif m is not None and (m.born == s.turn or m.replaced == s.turn) and "haste" not in m.traits:
        how = "was created" if m.born == s.turn else "had a part replaced"
        yield "BW-CREATE-6", f"{m.name} {how} this turn and has no {s.rules.trait('haste')}: it cannot attack " \
                             f"until {p}'s next turn", "monster"
    if target == (m.owner if m is not None else p):
        yield "BW-ATK-2", f"{p} attacks an opponent, not themselves", "target"
    elif target in s.out:
        yield "BW-ATK-2", f"{target} is out of the game; attacks go to an opponent still in the game", "target"


def _block(s: BoneWarsState, a: Action) -> Iterator[Why]:
    c = s.combat
    if c is None or c.stage != "block":
        yield "BW-ATK-3", "'block' with no attack to answer"
        return
    if a["player"] != c.defender:
        yield "BW-ATK-3", f"{c.attacker.name} attacks {c.defender}; {a['player']} does not defend", "player"
    if a["monster"] == NO_BLOCK:
        return
    b = yield from _mine(s, a.with_fields(player=c.defender), "BW-ATK-3", "block")
    if b is None:
        return
    if not meets(c.attacker.traits, b.traits):
        yield "BW-ATK-4", f"{b.name} cannot block {c.attacker.name}: {meet_reason(s.rules, c.attacker, b)}", "monster"
    if b.tapped and "vigilant" not in b.traits:
        yield "BW-ATK-5", f"{b.name} attacked (turn {b.attacked}) and cannot block until {b.owner}'s next turn " \
                          f"(it is not {s.rules.trait('vigilant')})", "monster"


def _answer(s: BoneWarsState, a: Action) -> Why | None:
    """The answers to an attack: the defender's roll or damage, and the dice."""
    c, die = s.combat, s.rules.die
    if c is None:
        kind = "roll" if a.kind == DEFEND_ROLL else a.kind        # the log writes the defender's choice as its roll
        return ("BW-ATK-10" if kind == "take_damage" else "BW-ATK-6"), f"'{kind}' with no attack to answer"
    if a.kind == "roll" and a.get("defender") is None:
        if c.stage != "roll":
            return "BW-ATK-3", f"the dice are rolled but {c.defender} named no blocker"
        for f in ("attacker", "blocker"):
            v = a.get(f)
            if v is None:
                return "BW-ATK-6", f"a blocked attack rolls two d{die}s: record 'attacker' and 'blocker'"
            if off_die(v, die):
                return "BW-ATK-6", die_slip(f"the {f}'s d{die}", v, die), f
        return None
    if c.stage == "roll":
        b = c.blocker.name if c.blocker is not None else "a monster"
        return "BW-ATK-6", f"{c.defender} blocked with {b}: a blocked attack is settled by the dice"
    if a.kind == "take_damage" and a.get("player") != c.defender:
        return "BW-ATK-10", f"{c.attacker.name} attacks {c.defender}, not {a.get('player')}", "player"
    if a.kind == DEFEND_ROLL and c.stage == "declined":
        return "BW-ATK-10", f"{c.defender} could block with {', '.join(b.name for b in c.able)}: a defender who " \
                            "declines to block takes the damage (no roll)", "defender"
    v = a.get("defender")
    if a.kind == "roll" and off_die(v, die):
        return "BW-ATK-10", die_slip(f"the defender's d{die}", v, die), "defender"
    return None


#: the checks of an action kind that may name several slips, and those that name one
_MANY: dict[str, Callable[[BoneWarsState, Action], Iterator[Why]]] = {
    **dict.fromkeys(EDITS, _edit), "attack": _attack, "block": _block}
_ONE: dict[str, Callable[[BoneWarsState, Action], Why | None]] = {
    DROP_ATTACK: lambda s, a: _unanswered(s), "end_turn": lambda s, a: _turn(s, a) or _draw_first(s),
    "draw": lambda s, a: _turn(s, a) or _draw(s, a)}
