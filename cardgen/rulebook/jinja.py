"""Game numbers into the rulebook's Markdown: a sandboxed Jinja2 pass with StrictUndefined.

Each chapter is a Jinja2 template rendered before the Markdown is parsed, so a table or a
list may be generated from the cards or the rules parameters. The context:

``game``        title, subtitle, designer, slug, players {min, max}
``params``      the game's params.yaml (``{{ params.<key> }}``)
``rulings``     ``params.rulings`` (each ``{id, text}``), or an empty list
``rules``       the game's rule catalogue by ID: ``{id, title, section, statement, rulings}``
``cards``       every card by id, with all its fields (``{{ cards.<id>.<field> }}``)
``card_types``  each card type: ``{key, name, count, designs}``
``counts``      copies per card type (``{{ counts.<type> }}``)
``components``  non-card components ``{id, name, kind, count}``; ``component(id)`` finds one
``rulebook``    this version's metadata: title, version, edition, date, subtitle, authors
``versions``    every version's metadata, oldest first

Functions: ``card(id)``, ``cards_of(type, **fields)`` (a list, in file order),
``component(id)``, ``components_table()`` (a Markdown table of every card type and
component with its count), ``icon(name)`` (``{name}``), ``plural(n, word, words=None)``.

A missing value, an unknown card id or a syntax error is a problem at the chapter's
FILE:LINE, never a blank in the text. Chapter lines map back to source lines even after a
loop generated rows (see :func:`line_map`).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jinja2 import FileSystemLoader, StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.sandbox import SandboxedEnvironment
from jinja2.utils import missing

from .. import cache
from ..catalogue import load_catalogue
from ..model import Card, Game
from ..problems import Loc, Problems, did_you_mean
from ..templates import make_env
from ..yamlsrc import plain
from .source import Version


class PathDict(dict):
    """A dict that knows its place in the context (``params.some.key``), for messages."""

    _path: str = ""


class PathList(list):
    _path: str = ""


class MissingCard(UndefinedError):
    pass


class CardIndex(PathDict):
    """``cards``: a missing id is an unknown card, reported as RULEBOOK-CARD where it is named.

    Each card's data is made on first use (so the build cache learns which cards a rulebook
    actually reads)."""

    def __missing__(self, key):
        hint = did_you_mean(str(key), self)
        raise MissingCard(f"unknown card id '{key}'" + (f" ({hint})" if hint else ""))

    def __getitem__(self, key):
        v = dict.__getitem__(self, key)
        if isinstance(v, Card):
            raw = v.__dict__        # not through the card: the fields read are recorded one by one
            data = wrap({**raw["fields"], "id": raw["id"], "name": raw["name"], "type": raw["type"],
                         "copies": raw["copies"]}, f"cards.{raw['id']}")
            v = CardData(data)
            v._path, v._id = data._path, raw["id"]
            dict.__setitem__(self, key, v)
        return v

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):  # type: ignore[override]
        return [self[k] for k in self]

    def items(self):  # type: ignore[override]
        return [(k, self[k]) for k in self]


class CardData(PathDict):
    """One card's data in a chapter; tells the build cache which fields a chapter reads."""

    _id: str = ""

    def _note(self, key: Any = None) -> None:
        rec = cache.active()
        if rec is not None:
            rec.card(self._id) if key is None else rec.field(self._id, str(key))

    def __getitem__(self, key):
        self._note(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._note(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return dict.__contains__(self, key)

    def __iter__(self):
        self._note()
        return dict.__iter__(self)

    def keys(self):  # type: ignore[override]
        self._note()
        return dict.keys(self)

    def values(self):  # type: ignore[override]
        self._note()
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._note()
        return dict.items(self)


def wrap(value: Any, path: str) -> Any:
    """Plain data → PathDict/PathList, each knowing its path."""
    if isinstance(value, dict):
        d = PathDict()
        d._path = path
        for k, v in value.items():
            d[k] = wrap(v, f"{path}.{k}" if isinstance(k, str) and k.isidentifier() else f"{path}[{k!r}]")
        return d
    if isinstance(value, list):
        lst = PathList(wrap(v, f"{path}[{i}]") for i, v in enumerate(value))
        lst._path = path
        return lst
    return value


def _describe_keys(obj: dict) -> str:
    keys = [str(k) for k in obj]
    if not keys:
        return "it is empty"
    if len(keys) > 8:
        return "it has " + ", ".join(keys[:8]) + f", … ({len(keys)} keys)"
    return "it has " + ", ".join(keys)


def make_undefined(names: list[str]):
    class RulebookUndefined(StrictUndefined):
        """StrictUndefined with messages that name the path and the nearest key."""

        __slots__ = ()
        known = names

        def __init__(self, hint=None, obj=missing, name=None, exc=UndefinedError):
            if isinstance(obj, CardIndex):
                exc = MissingCard
            super().__init__(hint, obj, name, exc)

        @property
        def _undefined_message(self) -> str:
            if self._undefined_hint:
                return self._undefined_hint
            obj, name = self._undefined_obj, self._undefined_name
            if obj is missing:
                hint = did_you_mean(str(name), self.known)
                return f"'{name}' is not defined" + (f" ({hint})" if hint else "")
            if isinstance(obj, CardIndex):
                hint = did_you_mean(str(name), obj)
                return f"unknown card id '{name}'" + (f" ({hint})" if hint else "")
            if isinstance(obj, dict):
                path = getattr(obj, "_path", "") or "the mapping"
                hint = did_you_mean(str(name), [str(k) for k in obj])
                return f"{path} has no key {name!r} ({hint or _describe_keys(obj)})"
            if isinstance(obj, list):
                path = getattr(obj, "_path", "") or "the list"
                return f"{path} has no item {name!r} (it has {len(obj)} items)"
            return f"{type(obj).__name__} value {obj!r} has no attribute {name!r}"

    return RulebookUndefined


def make_environment(search: list[Path], names: list[str]) -> SandboxedEnvironment:
    """The sandbox for Markdown: block tags leave no blank lines, so loops can emit table rows."""
    base = make_env()
    env = SandboxedEnvironment(undefined=make_undefined(names), autoescape=False, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=True,
                               loader=FileSystemLoader([str(p) for p in search]))
    for name in ("signed", "title", "expand"):   # the card templates' filters, same meaning here
        env.filters[name] = base.filters[name]
    return env


def _collections(game: Game) -> dict[str, list[dict]]:
    """Deck-like files kept with the game (starter decks, parties, boss presets), by kind:
    ``{kind: [{file, name, notes, cards: [{id, name, type, count}], count}]}``."""
    from ..collections import collection_files, load_collection_file
    from ..problems import Problems
    kinds: dict[str, list[dict]] = {}
    for path in collection_files(game):
        kind, body, cols = load_collection_file(path, game, Problems())
        if body is None or not cols:
            continue
        cards = [{"id": e.id, "name": e.name, "type": game.cards_by_id[e.id].type, "count": e.count}
                 for e in cols[0].entries]
        kinds.setdefault(kind, []).append({
            "file": path.stem, "name": str(body.get("name") or path.stem), "notes": str(body.get("notes") or ""),
            "cards": cards, "count": sum(c["count"] for c in cards)})
    return kinds


def build_context(game: Game, version: Version, versions: list[Version]) -> dict[str, Any]:
    """The names every chapter sees (see the module docstring)."""
    params = plain(game.params) if isinstance(game.params, dict) else {}
    cards = CardIndex()
    cards._path = "cards"
    order_ids: dict[str, list[str]] = {}
    for c in game.cards:
        dict.__setitem__(cards, c.id, c)
        order_ids.setdefault(c.type, []).append(c.id)

    class _Order(dict):
        """Card type → its cards' data, made on use."""

        def get(self, key, default=None):
            return [cards[i] for i in order_ids[key]] if key in order_ids else default

    order = _Order.fromkeys(order_ids)
    counts: dict[str, int] = {}
    for c in game.cards:
        counts[c.type] = counts.get(c.type, 0) + c.copies
    types = {k: {"key": k, "name": ct.name, "count": counts.get(k, 0), "designs": len(order_ids.get(k, []))}
             for k, ct in game.card_types.items()}
    comps = [wrap({**plain(c.fields), "id": c.id, "name": c.name, "kind": c.kind, "count": c.count},
                  f"components[{i}]") for i, c in enumerate(game.components)]
    meta = game.meta or {}
    cat = load_catalogue(game.rules_dir.parent.parent, game.slug, Problems())    # validate reports its problems
    rules = {rid: {"id": rid, "title": r.title, "section": r.section, "statement": " ".join(r.statement.split()),
                   "rulings": list(r.rulings)} for rid, r in (cat.rules.items() if cat else [])}
    ctx: dict[str, Any] = {
        "game": wrap({"title": game.title, "slug": game.slug, "subtitle": meta.get("subtitle"),
                      "designer": meta.get("designer"), "players": plain(params.get("players")) or {}}, "game"),   # params.yaml holds the count
        "params": wrap(params, "params"),
        "rulings": wrap(params.get("rulings") or [], "rulings"),
        "rules": wrap(rules, "rules"),
        "cards": cards,
        "card_types": wrap(types, "card_types"),
        "counts": wrap(counts, "counts"),
        "components": wrap(comps, "components"),
        "rulebook": wrap(version.context(), "rulebook"),
        "versions": wrap([v.context() for v in versions], "versions"),
        "collections": wrap(_collections(game), "collections"),
    }

    def card(card_id: str):
        if card_id not in cards:
            raise MissingCard(f"unknown card id '{card_id}'" +
                              (f" ({h})" if (h := did_you_mean(card_id, cards)) else ""))
        return cards[card_id]

    def cards_of(type_key: str, **where):
        if type_key not in game.card_types:
            raise UndefinedError(f"cards_of: unknown card type '{type_key}'" +
                                 (f" ({h})" if (h := did_you_mean(type_key, game.card_types)) else ""))
        out = order.get(type_key, [])
        for k, v in where.items():
            out = [c for c in out if (v in c.get(k) if isinstance(c.get(k), list) and not isinstance(v, list)
                                      else c.get(k) in v if isinstance(v, list) else c.get(k) == v)]
        return out

    def component(comp_id: str):
        for c in comps:
            if c["id"] == comp_id:
                return c
        raise UndefinedError(f"unknown component id '{comp_id}'" +
                             (f" ({h})" if (h := did_you_mean(comp_id, [c['id'] for c in comps])) else ""))

    def components_table(details: bool = True) -> str:
        rows = ["| Component | Count |" + (" Details |" if details else ""),
                "| --- | ---: |" + (" --- |" if details else "")]
        for k, t in types.items():
            if not t["count"]:
                continue
            row = f"| {_cell(t['name'])} cards | {t['count']} |"
            if details:
                designs = order.get(k, [])
                if len(designs) <= 8:
                    same = len({d["copies"] for d in designs}) == 1 and len(designs) > 1
                    if same:
                        row += f" {designs[0]['copies']} each of " + ", ".join(_cell(d["name"]) for d in designs) + " |"
                    else:
                        row += " " + ", ".join(f"{_cell(d['name'])} ×{d['copies']}" for d in designs) + " |"
                else:
                    row += f" {len(designs)} different cards |"
            rows.append(row)
        for c in comps:
            row = f"| {_cell(c['name'])} | {c['count']} |"
            if details:
                row += f" {_cell(c['kind'])} |"
            rows.append(row)
        return "\n".join(rows)

    def plural(n, word: str, words: str | None = None) -> str:
        return word if n == 1 else (words or word + "s")

    def rulings_by_rule(order: list[str] | None = None) -> list[dict]:
        """The rulings grouped by rule ID, ``{id, title, texts}`` (the title from the catalogue, or
        ''): in the order of the rule families
        in ``order`` (``["BW-SETUP", "BW-ATK"]``; by rule number within a family), the other
        families after them; without ``order``, in the order of params.yaml."""
        groups: dict[str, list[str]] = {}
        for r in params.get("rulings") or []:
            groups.setdefault(str(r.get("id", "")), []).append(str(r.get("text", "")))
        fams = list(order or [])

        def key(item: tuple[int, str]) -> tuple:
            first, rid = item
            fam, _, num = rid.rpartition("-")
            if fam in fams:
                return (fams.index(fam), int(num) if num.isdigit() else 0, first)
            return (len(fams), 0, first)
        ids = [rid for _, rid in sorted(enumerate(groups), key=key)] if fams else list(groups)
        heads = _rule_headings(version)
        return [wrap({"id": rid, "title": rules[rid]["title"] if rid in rules else "", "texts": groups[rid],
                      "heading": heads.get(rid) or (rules[rid]["section"] if rid in rules else rid)},
                     f"rulings_by_rule[{i}]") for i, rid in enumerate(ids)]

    ctx.update(card=card, cards_of=cards_of, component=component, components_table=components_table,
               icon=lambda name: "{" + str(name) + "}", plural=plural, rulings_by_rule=rulings_by_rule)
    return ctx


def _rule_headings(version) -> dict[str, str]:
    """Rule ID → the heading of the section that explains it (``{rule="…"}`` on the line before a
    heading): how a player's book names a rule."""
    out: dict[str, str] = {}
    for path in getattr(version, "chapters", []):
        try:
            lines = Path(path).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue                      # the renderer reports it
        for attrs, head in zip(lines, lines[1:]):
            m = re.search(r'\brule="([^"]+)"', attrs)
            if m and attrs.lstrip().startswith("{") and head.startswith("#") and "{{" not in head:
                for rid in m.group(1).split():
                    out.setdefault(rid, head.lstrip("#").strip())
    return out


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|")


@dataclass
class Rendered:
    """One chapter after Jinja2: its text and, per output line, the source line it came from."""

    path: Path
    text: str
    lines: list[int]          # lines[i] = 1-based source line of output line i (0-based)
    source: str

    def loc(self, out_line: int, col: int = 1) -> Loc:
        """Source location of a 0-based output line."""
        if not self.lines:
            return Loc(str(self.path), 1, col)
        i = min(max(out_line, 0), len(self.lines) - 1)
        return Loc(str(self.path), self.lines[i], col)

    def out_lines(self) -> list[str]:
        return self.text.split("\n")


_TAG_ONLY = re.compile(r"^\s*(\{%.*?%\}|\{#.*?#\})\s*$")


def line_map(source: str, output: str) -> list[int]:
    """For each output line, the 1-based source line that produced it.

    Lines the template left as they were map one to one; lines a loop or an expression
    produced map to the most similar source line of the block that produced them.
    """
    src = source.split("\n")
    out = output.split("\n")
    loops = _loop_bodies(src)
    sm = difflib.SequenceMatcher(None, src, out, autojunk=False)
    result = [1] * len(out)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            for k in range(j2 - j1):
                result[j1 + k] = i1 + k + 1
        elif tag in ("replace", "insert"):
            block = [i for i in range(i1, i2) if not _TAG_ONLY.match(src[i])] or list(range(i1, i2))
            # a loop's later rounds may land well after the loop's last source line (their blank
            # lines matched as equal): the bodies of the loops just before are candidates too
            extra = sorted({i for lo, hi in loops if lo < i2 and hi >= i1 - 12 for i in range(lo + 1, hi)
                            if not _TAG_ONLY.match(src[i])} - set(block))
            if extra and len(block) != j2 - j1:
                block = sorted(set(block) | set(extra))
            if not block:
                block = [max(i1 - 1, 0)]
            if len(block) == j2 - j1:
                for k in range(j2 - j1):
                    result[j1 + k] = block[k] + 1
                continue
            for j in range(j1, j2):
                if len(block) == 1:
                    result[j] = block[0] + 1
                elif len(block) * (j2 - j1) > 4000:
                    result[j] = block[(j - j1) * len(block) // (j2 - j1)] + 1
                else:
                    result[j] = max(block, key=lambda i, j=j: difflib.SequenceMatcher(None, src[i], out[j]).ratio()) + 1
    return result


_FOR = re.compile(r"\{%-?\s*for\b")
_ENDFOR = re.compile(r"\{%-?\s*endfor\b")


def _loop_bodies(src: list[str]) -> list[tuple[int, int]]:
    """(line of ``{% for``, line of its ``{% endfor``) of every loop spanning several lines, 0-based."""
    stack: list[int] = []
    out: list[tuple[int, int]] = []
    for i, line in enumerate(src):
        for m in sorted([(m.start(), 1) for m in _FOR.finditer(line)] + [(m.start(), -1) for m in _ENDFOR.finditer(line)]):
            if m[1] == 1:
                stack.append(i)
            elif stack:
                lo = stack.pop()
                if lo < i:
                    out.append((lo, i))
    return out


def _error_line(exc: BaseException, files: set[str]) -> tuple[str | None, int | None]:
    """The deepest template frame of a Jinja2 runtime error: (file, line)."""
    found: tuple[str | None, int | None] = (None, None)
    tb = exc.__traceback__
    while tb is not None:
        fn = tb.tb_frame.f_code.co_filename
        if fn in files:
            found = (fn, tb.tb_lineno)
        tb = tb.tb_next
    return found


class ChapterRenderer:
    """Renders the chapters of one version with one context."""

    def __init__(self, game: Game, version: Version, versions: list[Version], problems: Problems,
                 designer: bool = False):
        self.game = game
        self.version = version
        self.problems = problems
        self.context = build_context(game, version, versions)
        self.context["designer"] = designer      # the designer's edition: rule IDs and how the rules are kept
        search = [version.folder]
        cur = next((v for v in versions if v.current), None)
        if cur is not None and cur.folder != version.folder:
            search.append(cur.folder)
        self.env = make_environment(search, sorted(self.context))
        self._files = {str(p.resolve()) for folder in search for p in folder.glob("*.md")}
        self._files |= {str(p) for folder in search for p in folder.glob("*.md")}

    def render(self, path: Path) -> Rendered | None:
        try:
            source = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as e:
            raw = path.read_bytes()
            line = raw[: e.start].count(b"\n") + 1
            self.problems.error("RULEBOOK-META", f"chapter is not UTF-8 (byte 0x{raw[e.start]:02x})",
                                Loc(str(path), line, 1), hint="save the file as UTF-8")
            return None
        except OSError as e:
            self.problems.error("FILE-MISSING", f"cannot read {path}: {e.strerror or e}", Loc(str(path), 1, 1))
            return None
        if source.startswith("\ufeff"):
            source = source[1:]
        try:
            tpl = self.env.get_template(path.name)
            if Path(tpl.filename or "").resolve() != path.resolve():
                tpl = self.env.from_string(source)
                tpl.filename = str(path)
            text = tpl.render(self.context)
        except TemplateSyntaxError as e:
            fn = e.filename or str(path)
            self.problems.error("RULEBOOK-JINJA", f"template syntax error: {e.message}",
                                Loc(fn, e.lineno or 1, 1))
            return None
        except MissingCard as e:
            fn, line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-CARD", str(e.message or e), Loc(fn or str(path), line or 1, 1))
            return None
        except TemplateNotFound as e:
            fn, line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"no file '{e.name}' to import or include",
                                Loc(fn or str(path), line or 1, 1))
            return None
        except (UndefinedError, SecurityError, TemplateError) as e:
            fn, line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"missing value: {e.message or e}"
                                if isinstance(e, UndefinedError) else f"template error: {e.message or e}",
                                Loc(fn or str(path), line or 1, 1))
            return None
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as e:
            fn, line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"template error: {type(e).__name__}: {e}",
                                Loc(fn or str(path), line or 1, 1))
            return None
        return Rendered(path, text, line_map(source, text), source)
