"""One slip is one problem, in every game (issue 28, issue 33).

Each game's legal example logs (``examples/logs/<game>/*.yaml`` but the table's slips) are broken
by ONE mutated number in ONE event, and ``cardgen check`` (in process) must then report exactly one
error. What is mutated, and where the error belongs:

- a *stated consequence* (an HP, Health or Stamina left, a damage, a total, a score, a deck or hand
  count: the numbers the table works out and the checker recomputes), moved by one: the statement
  is now wrong, so the error is at the mutated line, and nowhere else — the replay applies the
  number as recorded, and a later statement that is where the game would be without the slip
  brings it back in step (the table wrote one number wrong and played on from the right one);
- a *die* the table rolled (not a paralysis roll: its parity decides whether the move happens at
  all, so the rest of the event no longer fits — a different event, not a slip of a number), moved
  by one and kept on the die's faces: another roll is a legal
  event, so the error — if the new roll changes anything — is at the earliest line it makes
  wrong: the mutated line when the event states the outcome, else the later statement that the
  new outcome contradicts. Never more than one.

The log's ``expect:`` block is dropped: it restates the final state, so a slip in the last
statement of a quantity would be its second report by design (the claim is checked against the
state as recorded). Mutations are a seeded sample (the same on every run), a few per game.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardgen import gamehooks
from cardgen.builder import check as checker
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from tests.conftest import ROOT

GAMES = ("bone_wars", "bones_on_ice", "boss_fight", "dino_battles", "loot_battles")

#: per game: the top-level event fields whose numbers are stated consequences, and those that are dice
STATED = {
    "bone_wars": {"hp", "hp_left", "amount", "damage", "stats"},
    "bones_on_ice": {"stamina", "score"},
    "boss_fight": {"hp", "hp_left", "damage"},
    "dino_battles": {"hp", "total", "deck_left", "hand", "damage"},
    "loot_battles": {"damage", "hp_left", "armor_left", "dodge_left"},
}
DICE = {
    "bone_wars": {"attacker", "blocker", "defender"},
    "bones_on_ice": {"rolls"},
    "boss_fight": {"defence", "poison_roll"},
    "dino_battles": {"roll"},
    "loot_battles": {"dice", "rolls"},
}
PER_GAME = 25          # mutations of each class per game
_NUM = re.compile(r"(?<=[\[\s:,{])(-?\d+)(?=[\],}\s])")
_KEY = re.compile(r"([A-Za-z_][\w#]*)\s*:")


def _fields(line: str) -> list[tuple[int, int, str]]:
    """(start, end, top-level field) of each integer in a one-line flow event ``  - {…}``."""
    out, depth, key, i = [], 0, "", line.index("{")
    while i < len(line):
        c = line[i]
        if c in "{[":
            depth += 1
        elif c in "]}":
            depth -= 1
        elif depth == 1 and (m := _KEY.match(line, i)) and line[i - 1] in "{ ,":
            key = m.group(1)
            i = m.end()
            continue
        elif (m := _NUM.match(line, i)) and line[i - 1] in "[ :,{":
            out.append((m.start(), m.end(), key))
            i = m.end()
            continue
        i += 1
    return out


def _logs(game: str) -> list[Path]:
    return sorted(p for p in (ROOT / "examples" / "logs" / game).glob("*.yaml") if p.name != "table-slips.yaml")


def _mutations(game: str, kind: str) -> list[tuple[str, int, str, int, int]]:
    """A seeded sample of (log name, line, field, old, new) of the ``kind`` ('stated' or 'die')."""
    fields = STATED[game] if kind == "stated" else DICE[game]
    every = []
    for log in _logs(game):
        lines = log.read_text(encoding="utf-8").splitlines()
        start = lines.index("events:") + 1
        for n, line in enumerate(lines[start:], start + 1):
            if not line.startswith("  - {") or not line.rstrip().endswith("}"):
                continue
            for a, b, key in _fields(line):
                if key in fields and key not in ("kind", "turn", "round", "number"):
                    v = int(line[a:b])
                    new = (v - 1 if v > 1 else v + 1) if kind == "die" else (v + 1 if v <= 0 else v - 1)
                    every.append((log.name, n, key, a, b, v, new))
    rnd = random.Random(f"{game}-{kind}-33")
    picked = rnd.sample(every, min(PER_GAME, len(every)))
    return [(name, n, f"{key}@{a}-{b}", v, new) for name, n, key, a, b, v, new in picked]


def _cases() -> list:
    out = []
    for game in GAMES:
        for kind in ("stated", "die"):
            for m in _mutations(game, kind):
                tail = f"{kind}-{m[0]}:{m[1]}:{m[2]}"
                out.append(pytest.param(game, kind, *m, id=f"{game}-{tail}"))
    return out


@pytest.fixture(scope="module")
def games():
    loaded = {g: load_game(ROOT, g, Problems()) for g in GAMES}
    real = checker.load_game
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(checker, "load_game", lambda root, s, problems: loaded[s] if Path(root) == ROOT and s in loaded
                   else real(root, s, problems))
        yield loaded


def _mutated(tmp: Path, game: str, name: str, line: int, field: str, new: int) -> Path:
    text = (ROOT / "examples" / "logs" / game / name).read_text(encoding="utf-8")
    text = text[: text.index("\nexpect:")] + "\n" if "\nexpect:" in text else text
    lines = text.splitlines(keepends=True)
    a, b = (int(x) for x in field.split("@")[1].split("-"))
    lines[line - 1] = lines[line - 1][:a] + str(new) + lines[line - 1][b:]
    path = tmp / name
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("game,kind,name,line,field,old,new", _cases())
def test_one_mutated_number_is_one_error(games, tmp_path, game, kind, name, line, field, old, new):
    probs, _, _ = checker.replay(ROOT, game, _mutated(tmp_path, game, name, line, field, new))
    errs = [(p.rule, p.loc.line if p.loc else 0) for p in probs if p.severity == "error"]
    where = f"{name}:{line} {field.split('@')[0]} {old} → {new}"
    if kind == "stated":
        assert len(errs) == 1 and errs[0][1] == line, (where, errs)
    else:
        assert len(errs) <= 1 and all(at >= line for _, at in errs), (where, errs)


def test_a_missed_die_with_its_damage_left_as_recorded_is_one_error(games, tmp_path):
    """Issue 28's case: ana's die [5] written [1] (a miss) with 'damage: 2' left as recorded is one
    error at that line; the replay goes on with the damage (rats#2 is down), so no knock-on after it
    (today: nothing at line 27, then 12 problems from line 29 — rats#2 still stands and must attack,
    ana must attack it, the Leader and the Encounter's end follow from it)."""
    old = "{kind: attack, player: ana, target: rats#2, dice: [5], damage: 2}"
    text = (ROOT / "examples" / "logs" / "loot_battles" / "win-2p.yaml").read_text(encoding="utf-8")
    line = text[: text.index(old)].count("\n") + 1
    path = tmp_path / "win-2p.yaml"
    path.write_text(text.replace(old, old.replace("[5]", "[1]")), encoding="utf-8")
    probs, _, _ = checker.replay(ROOT, "loot_battles", path)
    assert [p.loc.line if p.loc else 0 for p in probs if p.severity == "error"] == [line], [p.text() for p in probs]


@pytest.mark.parametrize("game", GAMES)
def test_the_unmutated_logs_are_legal(games, tmp_path, game):
    """The twin of every mutation: the same log (without its expect block) has no problem at all."""
    for log in _logs(game):
        text = log.read_text(encoding="utf-8")
        path = tmp_path / log.name
        path.write_text(text[: text.index("\nexpect:")] + "\n" if "\nexpect:" in text else text, encoding="utf-8")
        probs, _, _ = checker.replay(ROOT, game, path)
        assert [p for p in probs if p.severity == "error"] == [], (log.name, [p.text() for p in probs])


@pytest.mark.parametrize("game", GAMES)
def test_a_misspelt_required_header_key_is_reported_at_its_own_line(games, tmp_path, game):
    """A required header key written wrong (its last letter dropped) is LOG-FIELD at the key's own
    line, also when its value is a block that starts on the next line."""
    engine = gamehooks.engine(game)
    assert engine is not None
    required = [k for k, o in engine.HEADER.items() if o.required]
    for log in _logs(game):
        text = log.read_text(encoding="utf-8")
        for key in required:
            m = re.search(rf"^{key}:", text, re.M)
            if m is None:
                continue
            line = text[: m.start()].count("\n") + 1
            path = tmp_path / log.name
            path.write_text(text[: m.start()] + key[:-1] + text[m.start() + len(key):], encoding="utf-8")
            try:
                checker.replay(ROOT, game, path)
            except checker.LogError as e:
                assert (e.rule, e.loc.line if e.loc else 0) == ("LOG-FIELD", line), (log.name, key, e)
                assert f"'{key[:-1]}'" in e.message
            else:
                pytest.fail(f"{log.name}: '{key[:-1]}' for '{key}' was read")
