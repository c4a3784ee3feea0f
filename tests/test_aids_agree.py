"""A player aid says what the rulebook says (issue 32): every rules number a reference sheet or a
summary card prints (``{{ params.… }}``) is one the current rulebook prints too — an aid never
grants a rule the book does not have (Boss Fight's sheet offered "a Walk of 2 tiles" as an action
the rulebook had made a card) — and the book prints its numbers from params.yaml, not as typed
digits the aid would not follow."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT

GAMES = ["bone_wars", "bones_on_ice", "boss_fight", "dino_battles", "loot_battles"]
PARAM = re.compile(r"\bparams\.([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)(?!\w*\()")


def aids(slug: str) -> list[Path]:
    """The game's player aids: reference sheets (maps/<game>/reference*.yaml) and the cards of
    its reference file (cards/<game>/reference.yaml), with the summary templates they print by."""
    found = sorted((ROOT / "maps" / slug).glob("reference*.yaml"))
    found += sorted((ROOT / "cards" / slug).glob("reference*.yaml"))
    found += sorted((ROOT / "templates" / slug).glob("summary*.yaml"))
    return found


def printed(paths: list[Path]) -> set[str]:
    out: set[str] = set()
    for p in paths:
        for name in PARAM.findall(p.read_text(encoding="utf-8")):
            name = name.rsplit(".get", 1)[0]
            if name != "yaml" and not name.startswith("yaml."):
                out.add(name)
    return out


def _covered(name: str, book: set[str]) -> bool:
    return any(name == b or name.startswith(b + ".") or b.startswith(name + ".") for b in book)


@pytest.mark.parametrize("slug", GAMES)
def test_every_number_an_aid_prints_is_in_the_rulebook(slug: str) -> None:
    book = printed(sorted((ROOT / "rules" / slug / "rulebook").glob("*.md")))
    stray = {n: [p.relative_to(ROOT).as_posix() for p in aids(slug) if n in printed([p])]
             for n in printed(aids(slug)) if not _covered(n, book)}
    assert not stray, f"{slug}: an aid prints rules numbers the rulebook does not: {stray}"


def test_the_test_sees_an_aid_grant_a_rule_the_book_lacks(tmp_path: Path) -> None:
    aid = tmp_path / "reference.yaml"
    aid.write_text("text: An action is a card, or a Walk of {{ params.walk_tiles }} tiles.\n",
                   encoding="utf-8")
    book = printed(sorted((ROOT / "rules" / "boss_fight" / "rulebook").glob("*.md")))
    assert printed([aid]) == {"walk_tiles"} and not _covered("walk_tiles", book)


LITERAL_DIE = re.compile(r"\d+d6\b|\bd6\b")


def test_loot_battles_prints_its_attack_die_from_params() -> None:
    """The attack die is params.yaml's ``attack_die`` wherever the book names it (the d6 component
    line aside: that is a component's name)."""
    for p in sorted((ROOT / "rules" / "loot_battles" / "rulebook").glob("*.md")):
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1):
            if 'component("d6")' not in line:
                assert not LITERAL_DIE.search(line), f"{p.name}:{i}: {line.strip()}"
