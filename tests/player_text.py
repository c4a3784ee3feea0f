"""What players print must not read like a developer's screen: no rule IDs (``BF-MAP-1``), file
names or paths (``rules/<game>/game.yaml``), internal ids (``femurs_sully``), YAML keys
(``max_copies``), a preset's piece labels (``(piece scythe)``), the designer's "seed" document,
commands (``cardgen build``, ``--offset``), coordinates (``at [3, 1]``) or validator wording.

:func:`developer_text` scans the text of a PDF page; :func:`player_pdfs` lists the player-facing
PDFs of a build (everything but the designer's edition of the rulebook and the printer's duplex
calibration sheet, which speak to the designer and to whoever sets up the printer)."""

from __future__ import annotations

import re
from pathlib import Path

from cardgen.content import collection_files as cols
from cardgen.content.catalogue import load_catalogue
from cardgen.content.gamefiles import list_games
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems

NOT_FOR_PLAYERS = ("rulebook-designer.pdf", "duplex-calibration.pdf")
WORDING = re.compile(r"\bvalidator\b|\brules file\b|\bplaytest checker\b|\bparams\b", re.I)
FILES = re.compile(r"\b[\w-]+\.(?:yaml|yml|md|py|json)\b")
COORDS = re.compile(r"\bat \[-?\d+, ?-?\d+\]")
KEYS = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")          # snake_case: a YAML key or an id
SEED = re.compile(r"\bseeds?\b", re.I)                           # the designer's design documents
PATHS = re.compile(r"(?<![\w/])(?:rules|cards|maps|templates|build|art|examples|tests|cardgen)/[\w./<>-]*")
COMMANDS = re.compile(r"\bcardgen (?:build|cards|check|export|new|proof|rules|schema|serve|simulate|validate)\b"
                      r"|(?<![\w-])--[a-z][a-z-]+\b")
LABEL = re.compile(r"(?:^|\s)(?:as|piece):?\s*([a-z][a-z0-9_]*)\b", re.M)


def patterns(root: Path, slug: str) -> dict[str, re.Pattern]:
    """The patterns for one game: its catalogue's rule-ID prefixes, its cards' and components' ids."""
    cat = load_catalogue(root, slug, Problems())
    prefixes = sorted({rid.split("-")[0] for rid in (cat.rules if cat else {})}) or ["NONE"]
    game = load_game(root, slug, Problems())
    ids = sorted({c.id for c in game.cards} | {c.id for c in game.components}, key=len, reverse=True)
    ids = [i for i in ids if "_" in i]           # a one-word id is an ordinary word ("rat")
    out = {"rule ID": re.compile(r"\b(?:" + "|".join(prefixes) + r")-[A-Z]+-\d+\b"),
           "file name": FILES, "coordinates": COORDS, "developer wording": WORDING}
    if ids:
        out["internal id"] = re.compile(r"\b(?:" + "|".join(map(re.escape, ids)) + r")\b")
    out.update({"YAML key": KEYS, "seed": SEED, "file path": PATHS, "command": COMMANDS})
    labels = sorted({m.group(1) for path in cols.collection_files(game) for m in LABEL.finditer(path.read_text())})
    if labels:       # a preset's one-word piece labels, as the file spells them: ``(piece scythe)``
        one = "|".join(map(re.escape, labels))
        out["piece label"] = re.compile(rf"\b(?:as|piece) (?:{one})\b|\b(?:{one}) \([A-Z]")
    return out


def developer_text(text: str, pats: dict[str, re.Pattern]) -> list[str]:
    """'rule ID: BF-MAP-1', … for every pattern found in ``text``."""
    return [f"{what}: {m.group(0)}" for what, rx in pats.items() for m in rx.finditer(text)]


def player_pdfs(build: Path, slug: str) -> list[Path]:
    return [p for p in sorted((build / slug).rglob("*.pdf")) if p.name not in NOT_FOR_PLAYERS]


def games(root: Path) -> list[str]:
    return list_games(root)
