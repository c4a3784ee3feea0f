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
from functools import cached_property
from pathlib import Path

from jinja2 import StrictUndefined, TemplateError, TemplateNotFound, TemplateSyntaxError
from jinja2.exceptions import SecurityError, UndefinedError
from jinja2.utils import missing

from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.core.sandbox import BoundedSandbox, ProjectLoader
from cardgen.layout.templates import make_env
from cardgen.rulebook.context import CardIndex, MissingCard, _describe_keys, build_context
from cardgen.rulebook.source import Version


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


def make_environment(search: list[Path], names: list[str]) -> BoundedSandbox:
    """The sandbox for Markdown: block tags leave no blank lines, so loops can emit table rows."""
    base = make_env()
    env = BoundedSandbox(undefined=make_undefined(names), autoescape=False, trim_blocks=True,
                               lstrip_blocks=True, keep_trailing_newline=True,
                               loader=ProjectLoader([str(p) for p in search]))
    for name in ("signed", "title", "expand"):   # the card templates' filters, same meaning here
        env.filters[name] = base.filters[name]
    return env


@record
class Rendered:
    """One chapter after Jinja2: its text and, per output line, the source line it came from
    (``lines``, worked out from ``source`` and ``text`` when a problem first needs a line)."""

    path: Path
    text: str
    given_lines: list[int] | None   # lines[i] = 1-based source line of output line i (0-based)
    source: str

    @cached_property
    def lines(self) -> list[int]:
        return self.given_lines if self.given_lines is not None else line_map(self.source, self.text)

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
                    result[j] = _most_alike(block, src, out[j]) + 1
    return result


def _most_alike(candidates: list[int], src: list[str], line: str) -> int:
    """The candidate source line most like ``line`` (the first of equals)."""
    best, best_ratio = candidates[0], -1.0
    for i in candidates:
        m = difflib.SequenceMatcher(None, src[i], line)
        # ratio() <= quick_ratio() <= real_quick_ratio(): skip what cannot beat the best so far
        if m.real_quick_ratio() <= best_ratio or m.quick_ratio() <= best_ratio:
            continue
        r = m.ratio()
        if r > best_ratio:
            best, best_ratio = i, r
    return best


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
            raw = sources.read_bytes(path)
            source = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            line = raw[: e.start].count(b"\n") + 1
            self.problems.error("RULEBOOK-META", f"chapter is not UTF-8 (byte 0x{raw[e.start]:02x})",
                                Loc(str(path), line, 1), hint="save the file as UTF-8")
            return None
        except sources.SourceError as e:
            self.problems.error(e.rule, e.message, Loc(str(path), 1, 1))
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
            at_file, at_line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-CARD", str(e.message or e), Loc(at_file or str(path), at_line or 1, 1))
            return None
        except TemplateNotFound as e:
            at_file, at_line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"no file '{e.name}' to import or include",
                                Loc(at_file or str(path), at_line or 1, 1))
            return None
        except (UndefinedError, SecurityError, TemplateError) as e:
            at_file, at_line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"missing value: {e.message or e}"
                                if isinstance(e, UndefinedError) else f"template error: {e.message or e}",
                                Loc(at_file or str(path), at_line or 1, 1))
            return None
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as e:
            at_file, at_line = _error_line(e, self._files | {str(path)})
            self.problems.error("RULEBOOK-JINJA", f"template error: {type(e).__name__}: {e}",
                                Loc(at_file or str(path), at_line or 1, 1))
            return None
        return Rendered(path, text, None, source)
