"""The checker's guarantee, enforced: every rule ID of the catalogues (``rules/<game>/catalogue.yaml``)
in the checker's scope — every section marked ``checked_by: check``; the content and construction
ones are ``cardgen validate``'s — and every rule ID a game's engine can report (the rulings of
params.yaml among them) has (a) its enforcement in the engine and (b) in
``tests/test_check_<game>.py`` a minimal log that breaks it, reported with that ID at its line
(``CASES``), and a legal twin that passes (the case's base log in ``BASES``, each checked legal;
cases of six fields also carry their own legal replacement). A new rule in a catalogue, or a new
ID in an engine, fails here until it has both."""

from __future__ import annotations

import functools
import importlib
import re

import pytest

from cardgen import gamehooks
from cardgen.content.catalogue import Catalogue, load_catalogue
from cardgen.content.gamefiles import list_games
from cardgen.core.problems import Problems
from tests.conftest import ROOT


@functools.cache
def _catalogue(slug: str) -> Catalogue | None:
    return load_catalogue(ROOT, slug, Problems())


def catalogue(slug: str) -> dict[str, str]:
    """Rule ID → the heading of the catalogue section it stands in."""
    cat = _catalogue(slug)
    return {r.id: r.section for r in cat.rules.values()} if cat else {}


def in_scope(slug: str) -> list[str]:
    cat = _catalogue(slug)
    return cat.in_scope("check") if cat else []


def engine_source(slug: str) -> str:
    """The text of a game's engine: every module of its package but the content side (builds,
    content checks, sheets, figures, the maps' placement check)."""
    pkg = ROOT / "cardgen" / "games" / slug
    return "".join(p.read_text(encoding="utf-8") for p in sorted(pkg.rglob("*.py"))
                   if p.stem not in ("builds", "build_boss", "build_model", "content", "sheets", "figures", "placement"))


def reported(slug: str) -> set[str]:
    """The rule IDs the engine names in quotes ("BW-ATK-7"): those it can report."""
    prefix = next(iter(catalogue(slug))).split("-")[0]
    return set(re.findall(rf'"({prefix}-[A-Z0-9]+-\d+)"', engine_source(slug)))


GAMES = [slug for slug in list_games(ROOT) if _catalogue(slug) is not None]     # every game with a catalogue
CHECKED = [slug for slug in GAMES if gamehooks.engine(slug) is not None]  # … and a rules engine


def test_the_catalogues_are_found_and_read():
    assert {"bone_wars", "bones_on_ice", "boss_fight", "dino_battles", "loot_battles"} <= set(GAMES), GAMES
    bw = catalogue("bone_wars")
    assert bw["BW-ATK-10"] == "Attacking and defending" and bw["BW-CARD-1"].startswith("Content")
    assert "BW-ATK-10" in in_scope("bone_wars") and "BW-CARD-3" not in in_scope("bone_wars")
    bf = in_scope("boss_fight")
    assert "BF-MAP-1" in bf and "BF-END-1" in bf and not {"BF-DECK-1", "BF-BUILD-2", "BF-PLAYERS-1", "BF-SET-1"} & set(bf)
    assert {"BDB-SETUP-1", "BDB-END-3"} <= set(in_scope("dino_battles")) and "BDB-DECK-1" not in in_scope("dino_battles")


@pytest.mark.parametrize("slug", CHECKED)
def test_every_rule_in_scope_is_enforced_by_the_engine(slug):
    missing = [rid for rid in in_scope(slug) if f'"{rid}"' not in engine_source(slug)]
    assert not missing, f"{slug}: no engine code reports {missing}"


def _parametrized_over(func, values) -> bool:
    """The test function is parametrized over exactly these values (CASES itself, or BASES' keys)."""
    for mark in getattr(func, "pytestmark", []):
        if mark.name == "parametrize" and len(mark.args) > 1:
            arg = mark.args[1]
            if arg is values or (not isinstance(values, list) and set(map(str, arg)) == set(values)):
                return True
    return False


@pytest.mark.parametrize("slug", CHECKED)
def test_every_rule_has_a_break_at_its_line_and_a_legal_twin(slug):
    mod = importlib.import_module(f"tests.test_check_{slug}")
    cases, bases = mod.CASES, mod.BASES
    tests = [getattr(mod, n) for n in dir(mod) if n.startswith("test_")]
    # the module runs every case (the break at its line) and checks every base log legal (the twin)
    assert any(_parametrized_over(t, cases) for t in tests), f"{slug}: no test runs every entry of CASES"
    assert any(_parametrized_over(t, set(bases)) for t in tests), f"{slug}: no test checks every BASES log legal"
    for c in cases:
        assert len(c) in (5, 6) and c[1] in bases, (slug, c[:2])
    covered = {c[0] for c in cases}
    want = set(in_scope(slug)) | reported(slug)
    assert not sorted(want - covered), f"{slug}: no breaking case with its legal twin for {sorted(want - covered)}"
    stray = covered - want
    assert not stray, f"{slug}: cases for rules neither in scope nor reported by the engine: {sorted(stray)}"
