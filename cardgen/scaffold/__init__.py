"""``cardgen new SLUG``: a minimal complete game in the project's conventions, from the data
files under ``cardgen/scaffold/files/`` (paths and text with ``__SLUG__``, ``__TITLE__``,
``__PREFIX__``, ``__MIN__``, ``__MAX__`` … filled in; ``.tmpl`` dropped from a name).

A small push-your-luck dice game: game.yaml, params.yaml, constraints, a rule catalogue, one
card type with its template and back, a two-chapter rulebook, a game package on the game-state
API in the project's own ``games/<slug>/`` (state, engine, PACKAGE: see cardgen.gamehooks), two
legal example logs and one with the table's slips, and its tests (tests/test_check_<slug>.py,
tests/test_play_<slug>.py, on cardgen.testing: ``pytest`` in the project folder). A new project
also gets its pyproject.toml (pytest and mypy settings), .gitignore and tests/conftest.py.
Nothing is written when the slug is bad or taken, nor ever inside cardgen's own package.
"""

from __future__ import annotations

import datetime
import keyword
import random
import re
from pathlib import Path

from cardgen.core import sources
from cardgen.core.record import record

FILES = Path(__file__).with_name("files")
SLUG = re.compile(r"^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$")
PLAYERS = re.compile(r"^\s*(\d+)\s*(?:[-–]\s*(\d+))?\s*$")
NAMES = ["ana", "ben", "cy", "dee", "eli", "fay", "gus", "hal"]


class ScaffoldError(Exception):
    """A bad or taken name, or a bad player range: a usage error, nothing written."""


@record(frozen=True)
class Spec:
    slug: str
    title: str
    prefix: str
    players_min: int
    players_max: int
    designer: str = "the designer"

    def fill(self, text: str) -> str:
        for key, value in (("__SLUG__", self.slug), ("__TITLE__", self.title), ("__PREFIX__", self.prefix),
                           ("__MIN__", str(self.players_min)), ("__MAX__", str(self.players_max)),
                           ("__DESIGNER__", self.designer), ("__DATE__", datetime.date.today().isoformat())):
            text = text.replace(key, value)
        return text


def parse_players(text: str) -> tuple[int, int]:
    m = PLAYERS.match(text or "")
    if not m:
        raise ScaffoldError(f"--players must be a count or a range such as 2-4, not {text!r}")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if not 2 <= lo <= hi <= len(NAMES):
        raise ScaffoldError(f"--players {text}: a range of 2 to {len(NAMES)} players, the smaller first")
    return lo, hi


def taken(root: Path, slug: str) -> list[str]:
    """What already uses the slug in the project (a project's own game of a shipped game's
    name takes its place there)."""
    where = [root / "rules" / slug, root / "cards" / slug, root / "templates" / slug, root / "maps" / slug,
             root / "games" / slug]
    return [str(p.relative_to(root)) for p in where if p.exists()]


#: a project's own files, written with its first game and never overwritten
PROJECT_FILES = ("pyproject.toml", ".gitignore", "tests/conftest.py")


def check_slug(slug: str) -> None:
    if not SLUG.match(slug) or keyword.iskeyword(slug) or len(slug) > 40:
        raise ScaffoldError(f"bad game name {slug!r}: lower-case letters, digits and single underscores, "
                            "starting with a letter (e.g. my_game)")


def prefix_for(slug: str, used: set[str]) -> str:
    """A rule-ID prefix from the slug's initials (``my_game`` → ``MG``) that no catalogue uses."""
    parts = slug.upper().split("_")
    letters = "".join(parts)
    cands = ["".join(p[0] for p in parts)] if len(parts) > 1 else []
    cands += [letters[:n] for n in (2, 3, 4)] + [parts[0][:2] + p for p in "XYZQ"]
    for c in cands:
        if len(c) >= 2 and c not in used and c.isalnum():
            return c
    n = 2
    while f"{cands[0]}{n}" in used:
        n += 1
    return f"{cands[0]}{n}"


def plan(root: Path, spec: Spec) -> dict[Path, str]:
    """Every file to write: destination → text (a project's own files only when it has none)."""
    out: dict[Path, str] = {}
    for src in sorted(FILES.rglob("*")):
        if not src.is_file() or "__pycache__" in src.parts:
            continue
        rel = spec.fill(src.relative_to(FILES).as_posix()).removesuffix(".tmpl")
        rel = ".gitignore" if rel == "gitignore" else rel
        if rel in PROJECT_FILES and (root / rel).exists():
            continue
        out[root / rel] = spec.fill(sources.read_bytes(src, FILES).decode("utf-8"))
    for name, text in example_logs(spec).items():
        out[root / "examples" / "logs" / spec.slug / name] = text
    return out


# -- example logs: played by the rules the scaffold writes (params.yaml's defaults) ------------

DIE, BUST, TARGET = 6, 1, 20


def _play(players: list[str], seed: int) -> list[dict]:
    """A legal game: each player rolls until the turn total reaches 6 (or would win), then stops."""
    rng = random.Random(seed)
    scores = dict.fromkeys(players, 0)
    events: list[dict] = []
    turn = 0
    while True:
        p, total = players[turn], 0
        while True:
            die = rng.randint(1, DIE)
            if die == BUST:
                events.append({"kind": "roll", "player": p, "die": die, "total": 0})
                break
            total += die
            events.append({"kind": "roll", "player": p, "die": die, "total": total})
            if total >= 6 or scores[p] + total >= TARGET:
                scores[p] += total
                events.append({"kind": "stop", "player": p, "score": scores[p]})
                if scores[p] >= TARGET:
                    return events
                break
        turn = (turn + 1) % len(players)


def _yaml(spec: Spec, players: list[str], events: list[dict], comment: str, expect: bool = True) -> str:
    lines = [f"# {spec.title} — {comment}", f"#   cardgen check {spec.slug} examples/logs/{spec.slug}/<this file> --trace",
             f"game: {spec.slug}", 'rules_version: "0.1"', f"players: [{', '.join(players)}]", "events:"]
    for e in events:
        why = f"   # {e['why']}" if "why" in e else ""
        lines.append("  - {" + ", ".join(f"{k}: {v}" for k, v in e.items() if k != "why") + "}" + why)
    if expect:
        scores: dict[str, int] = dict.fromkeys(players, 0)
        for e in events:
            if e["kind"] == "stop":
                scores[e["player"]] = e["score"]
        winner = events[-1]["player"]
        lines += ["expect:", f"  winner: {winner}",
                  "  scores: {" + ", ".join(f"{p}: {s}" for p, s in scores.items()) + "}"]
    return "\n".join(lines) + "\n"


def example_logs(spec: Spec) -> dict[str, str]:
    """Two complete legal games and one with the table's slips, at the smallest table."""
    players = NAMES[: spec.players_min]
    first, second = _play(players, 1), _play(players, 2)
    a, b = players[0], players[1]
    slips = [{"kind": "roll", "player": a, "die": 4, "total": 4},
             {"kind": "roll", "player": a, "die": 5, "total": 9},
             {"kind": "stop", "player": a, "score": 9},
             {"kind": "roll", "player": a, "die": 3, "total": 3, "why": f"{spec.prefix}-TURN-1: it is {b}'s turn"},
             {"kind": "roll", "player": a, "die": 2, "total": 6, "why": f"{spec.prefix}-TURN-1: the total is 5"},
             {"kind": "stop", "player": a, "score": 14},
             {"kind": "roll", "player": b, "die": DIE + 1, "why": f"{spec.prefix}-TURN-1: a d{DIE} shows 1–{DIE}"},
             {"kind": "roll", "player": b, "die": 6, "total": 6},
             {"kind": "stop", "player": b, "score": 6}]
    return {"first-game.yaml": _yaml(spec, players, first, "a complete game, legal"),
            "second-game.yaml": _yaml(spec, players, second, "another complete game, legal"),
            "table-slips.yaml": _yaml(spec, players, slips, "the first turns with slips the checker reports",
                                      expect=False)}


def playtest_guide(spec: Spec) -> str:
    """The game's section of docs/playtest-logs.md (before the generated event reference)."""
    return (f"## {spec.title}\n\nA header names the `players` in seat order. Each `roll` gives the `player` and the "
            f"`die`; it may state the turn `total` after it (0 after a bust). A `stop` banks the turn total; it may "
            f"state the player's `score`. `expect` may claim the `winner` and the `scores`. Example logs: "
            f"`examples/logs/{spec.slug}/`.\n\n")
