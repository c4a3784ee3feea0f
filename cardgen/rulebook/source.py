"""Rulebook sources: where each version of a game's rulebook lives and what its metadata says.

``rules/<game>/rulebook/`` holds the current version; ``rules/<game>/versions/<version>/``
holds each older one. Every such folder has a metadata file ``rulebook.yaml`` and the
chapters as Markdown files (typeset in file-name order, or in the order ``chapters`` lists).
Files whose name starts with ``_`` are not chapters: they hold Jinja2 macros to import.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.content.model import Game
from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import YDict, load_yaml

META_FILE = "rulebook.yaml"
CURRENT_DIR = "rulebook"
VERSIONS_DIR = "versions"
PAGE_SIZES = ("A4", "A5", "Letter", "half-letter")

META_SPEC: dict[str, Opt] = {
    "title": Opt("str", required=True, doc="the rulebook's title, e.g. the game's name"),
    "version": Opt("any", required=True, doc="the version as quoted text, e.g. \"1.0\""),
    "edition": Opt("str", required=True, doc="the edition's name, e.g. First Edition"),
    "date": Opt("any", required=True, doc="the release date, e.g. 2026-11 or 2026-11-22"),
    "subtitle": Opt("str", default=None, doc="a line under the title"),
    "authors": Opt("list", item=Opt("str"), default=[], doc="who wrote the rules"),
    "chapters": Opt("list", item=Opt("str"), default=None,
                    doc="the chapter files in order (default: every *.md, by name)"),
    "page": Opt("enum", choices=PAGE_SIZES, default=None,
                doc="page size of rulebook.pdf (default: the game's paper)"),
    "booklet": Opt("bool", default=False,
                   doc="also write rulebook-booklet.pdf: half-size pages imposed for saddle-stitch"),
    "accent": Opt("color", default="#2f3e4e", doc="colour of headings, rules and callout borders"),
    "cover": Opt("list", item=Opt("str"), default=[], doc="card ids shown on the title page"),
    "summary": Opt("str", default=None, doc="a sentence on what this version changed, for the Changes page"),
}

_VERSION = re.compile(r"^[0-9A-Za-z][0-9A-Za-z.+-]*$")


@record
class Version:
    """One version of a rulebook: its metadata and its chapter files."""

    version: str
    title: str
    edition: str
    date: str
    folder: Path
    meta_file: Path
    current: bool
    chapters: list[Path]
    meta: dict[str, Any]
    loc: Loc
    chapter_locs: dict[Path, Loc] = field(default_factory=dict)
    raw: Any = None          # the metadata as loaded, with positions

    def at(self, key: str, index: int | None = None) -> Loc:
        """Position of a metadata value (of an item of a list value)."""
        if isinstance(self.raw, YDict) and key in self.raw:
            v = self.raw[key]
            if index is not None and hasattr(v, "at"):
                return v.at(index)
            return self.raw.at(key)
        return Loc(str(self.meta_file), 1, 1)

    @property
    def label(self) -> str:
        return f"v{self.version}"

    @property
    def pdf_name(self) -> str:
        return "rulebook.pdf" if self.current else f"rulebook-v{self.version}.pdf"

    def context(self) -> dict[str, Any]:
        """What the Markdown sees as ``rulebook``."""
        return {"title": self.title, "version": self.version, "edition": self.edition, "date": self.date,
                "subtitle": self.meta.get("subtitle"), "authors": list(self.meta.get("authors") or []),
                "current": self.current}


def version_key(v: str) -> tuple:
    """Sort key: numeric parts compare as numbers ("1.10" after "1.9")."""
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.split(r"[.+-]", v))


def rulebook_dirs(game: Game) -> tuple[Path, list[Path]]:
    """(current folder, older version folders) — the folders may not exist."""
    cur = game.rules_dir / CURRENT_DIR
    vdir = game.rules_dir / VERSIONS_DIR
    olds = sorted(p for p in vdir.iterdir() if p.is_dir()) if vdir.is_dir() else []
    return cur, olds


def has_rulebook(game: Game) -> bool:
    return (game.rules_dir / CURRENT_DIR).is_dir()


def load_versions(game: Game, problems: Problems) -> list[Version]:
    """Every readable version, oldest first, the current one last."""
    cur, olds = rulebook_dirs(game)
    if not cur.is_dir():
        # a game in the making builds what it has: the cards print, the rulebook waits
        problems.warning("RULEBOOK-META", f"{game.title} has no rulebook sources yet, so no rulebook is built: "
                         f"write rules/{game.slug}/{CURRENT_DIR}/ with {META_FILE} and Markdown chapters",
                         Loc(str(game.game_file), 1, 1))
        return []
    out: list[Version] = []
    for folder in olds:
        v = load_version(folder, False, problems, game.colors)
        if v is not None:
            if v.version != folder.name:
                problems.error("RULEBOOK-META", f"version '{v.version}' is kept in a folder named "
                               f"'{folder.name}'; name the folder after its version", v.loc,
                               hint=f"rename the folder to versions/{v.version}/ or set version: \"{folder.name}\"")
            out.append(v)
    current = load_version(cur, True, problems, game.colors)
    seen: dict[str, Version] = {}
    for v in out:
        if v.version in seen:
            problems.error("RULEBOOK-META", f"version {v.version} exists twice", v.loc)
        seen[v.version] = v
    out.sort(key=lambda v: version_key(v.version))
    if current is not None:
        for v in out:
            if version_key(v.version) >= version_key(current.version):
                problems.error("RULEBOOK-META", f"older version {v.version} is not older than the current "
                               f"version {current.version}", v.loc,
                               hint=f"raise the version in {CURRENT_DIR}/{META_FILE}")
        out.append(current)
    return out


def load_version(folder: Path, current: bool, problems: Problems, colors: dict | None = None) -> Version | None:
    meta_file = folder / META_FILE
    if not meta_file.is_file():
        mds = sorted(folder.glob("*.md"))
        where = "the current rulebook" if current else f"version folder '{folder.name}'"
        problems.error("RULEBOOK-META", f"{where} has no metadata: create {META_FILE} with title, "
                       "version, edition and date", Loc(str(meta_file), 1, 1),
                       hint=f"{len(mds)} Markdown file(s) found in {folder.name}/, none typeset" if mds else None)
        return None
    raw = load_yaml(meta_file, problems)
    if raw is None:
        return None
    if not isinstance(raw, YDict):
        problems.error("RULEBOOK-META", f"{META_FILE} must be a mapping of title, version, edition, date",
                       Loc(str(meta_file), 1, 1))
        return None
    local = Problems()
    res = check_mapping(raw, META_SPEC, local, META_FILE, colors or {})
    for prob in local:
        # a missing key is a metadata problem; other schema problems keep their YAML-* rule
        rule = "RULEBOOK-META" if prob.rule == "YAML-MISSING-KEY" else prob.rule
        problems.add(rule, prob.severity, prob.message, prob.loc, prob.hint)
    if not res.ok:
        return None
    v = res.values
    version = v["version"]
    if not isinstance(version, str):
        problems.error("RULEBOOK-META", f"version must be quoted text, not the number {version!r} "
                       "(YAML reads 1.10 as 1.1)", raw.at("version"), hint=f"write version: \"{version}\"")
        return None
    if not _VERSION.match(version):
        problems.error("RULEBOOK-META", f"version {version!r} must be letters, digits, dots or dashes",
                       raw.at("version"))
        return None
    date = v["date"]
    if isinstance(date, (_dt.date, _dt.datetime)):
        date = date.isoformat()
    chapters: list[Path] = []
    chapter_locs: dict[Path, Loc] = {}
    if v["chapters"] is not None:
        for i, name in enumerate(v["chapters"]):
            p = (folder / name)
            loc = raw["chapters"].at(i)
            if ("\0" in name or Path(name).name != name or not name.endswith(".md")
                    or p.resolve().parent != folder.resolve()):
                problems.error("RULEBOOK-META", f"chapter '{name}' must be a .md file in {folder.name}/", loc)
            elif not p.is_file():
                problems.error("FILE-MISSING", f"chapter file '{name}' does not exist", loc)
            else:
                chapters.append(p)
                chapter_locs[p] = loc
        listed = {p.name for p in chapters}
        for p in sorted(folder.glob("*.md")):
            if p.name not in listed and not p.name.startswith("_") and p.name not in v["chapters"]:
                problems.warning("RULEBOOK-META", f"'{p.name}' is not listed in chapters and is not typeset",
                                 raw.at("chapters"))
    else:
        chapters = [p for p in sorted(folder.glob("*.md")) if not p.name.startswith("_")]
    if not chapters:
        problems.error("RULEBOOK-META", f"{folder.name}/ holds no Markdown chapters", raw.loc)
        return None
    return Version(version=version, title=v["title"], edition=v["edition"], date=str(date), folder=folder,
                   meta_file=meta_file, current=current, chapters=chapters, meta=v, loc=raw.at("version"),
                   chapter_locs=chapter_locs, raw=raw)


def find_version(versions: list[Version], name: str) -> Version | None:
    """A version by its number ("0.9", "v0.9") or "current"."""
    if name in ("current", "latest") and versions:
        return versions[-1]
    name = name[1:] if name[:1] in "vV" and name[1:2].isdigit() else name
    return next((v for v in versions if v.version == name), None)
