"""What the rulebook's drawn diagrams share: reading their YAML, measuring text, the flowable.

A diagram is data (``rules/<game>/diagrams.yaml``, see :mod:`cardgen.rulebook.diagrams`); its
strings are Jinja2 templates with the chapters' context (``{{ params.hand_size }}``), its numbers
an integer, ``{param: dotted.key}`` of params.yaml or such a template, so every number lives once.

Text is laid out at its printed size: a diagram is drawn for the width the page gives it and is
never scaled afterwards, so no text falls under :data:`SIZE` (≥ the 6 pt floor of
:mod:`cardgen.layout.legibility`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jinja2 import TemplateError
from jinja2.exceptions import UndefinedError
from reportlab.platypus import Flowable

from cardgen.core.fonts import METRICS, PT_MM
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, YList
from cardgen.layout.legibility import MIN_PT
from cardgen.render.pdf import MM, draw_items

RULE = "RULEBOOK-DIAGRAM"
SANS = "LiberationSans-Regular"
BOLD = "LiberationSans-Bold"
ITALIC = "LiberationSans-Italic"
SIZE = max(7.0, MIN_PT)           # every diagram text, pt
SMALL = max(6.5, MIN_PT)          # labels and notes, pt
INK = "#26221c"
MUTED = "#5c574f"


def line_mm(size: float) -> float:
    """The line spacing of text set at ``size`` pt, in mm."""
    return size * 1.2 * PT_MM


def width_mm(text: str, font: str, size: float) -> float:
    return METRICS.width_mm(text, font, size)


def wrap(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` mm (a longer word stands alone);
    a newline in the text always breaks."""
    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            trial = f"{line} {word}" if line else word
            if line and width_mm(trial, font, size) > width:
                out.append(line)
                line = word
            else:
                line = trial
        out.append(line)
    return out


def widest(lines: list[str], font: str, size: float) -> float:
    return max((width_mm(t, font, size) for t in lines), default=0.0)


class Reader:
    """Reads one diagram's YAML: strings through Jinja2, numbers from params; every mistake is one
    ``RULEBOOK-DIAGRAM`` (or ``RULEBOOK-JINJA``) problem at the value's FILE:LINE:COL."""

    def __init__(self, render: Callable[[str], str], params: dict, colors: dict, problems: Problems):
        self._render = render
        self.params = params
        self.colors = colors
        self.problems = problems
        self.failed = False

    def bad(self, node: Any, key: Any, message: str, hint: str | None = None, rule: str = RULE) -> None:
        self.failed = True
        loc = node.at(key) if isinstance(node, (YDict, YList)) else Loc("")
        self.problems.error(rule, message, loc, hint=hint)

    def keys(self, node: YDict, allowed: tuple[str, ...], what: str) -> bool:
        """Problems for keys ``node`` may not have; True when it has none."""
        ok = True
        for k in node:
            if k not in allowed:
                self.bad_key(node, k, f"unknown key '{k}' in {what}",
                             did_you_mean(str(k), allowed) or f"keys: {', '.join(allowed)}")
                ok = False
        return ok

    def bad_key(self, node: YDict, key: Any, message: str, hint: str | None = None) -> None:
        self.failed = True
        self.problems.error(RULE, message, node.key_at(key), hint=hint)

    def text(self, node: YDict | YList, key, default: str | None = None) -> str | None:
        raw = node[key] if isinstance(node, YList) else node.get(key)
        if raw is None:
            return default
        if not isinstance(raw, (str, int, float)):
            self.bad(node, key, f"'{key}' must be text")
            return default
        try:
            return self._render(str(raw)).strip()
        except UndefinedError as e:
            self.bad(node, key, f"missing value: {e.message or e}", rule="RULEBOOK-JINJA")
        except TemplateError as e:
            self.bad(node, key, f"template error: {e.message or e}", rule="RULEBOOK-JINJA")
        except (TypeError, ValueError, ArithmeticError, LookupError, AttributeError) as e:
            self.bad(node, key, f"template error: {type(e).__name__}: {e}", rule="RULEBOOK-JINJA")
        return default

    def number(self, node: YDict, key: str, default: int | None = None, low: int = 0) -> int | None:
        """An integer ≥ ``low``: written out, ``{param: dotted.key}`` or a Jinja2 expression."""
        raw = node.get(key)
        if raw is None:
            return default
        if isinstance(raw, bool):
            self.bad(node, key, f"'{key}' must be a number, not {raw}")
            return default
        if isinstance(raw, dict):
            if set(raw) != {"param"}:
                self.bad(node, key, f"'{key}': write a number, {{param: <key>}} or \"{{{{ … }}}}\"")
                return default
            value: Any = self.params
            path = str(raw["param"])
            for part in path.split("."):
                if not isinstance(value, dict) or part not in value:
                    keys = [str(k) for k in value] if isinstance(value, dict) else []
                    self.bad(node, key, f"parameter '{path}' is not defined in params.yaml",
                             did_you_mean(part, keys))
                    return default
                value = value[part]
        elif isinstance(raw, str):
            value = self.text(node, key)
            if value is None:
                return default
        else:
            value = raw
        try:
            n = int(str(value).strip())
        except ValueError:
            self.bad(node, key, f"'{key}' must be a whole number; it reads {value!r}")
            return default
        if n < low:
            self.bad(node, key, f"'{key}' must be at least {low}; it reads {n}")
            return default
        return n

    def color(self, node: YDict | YList, key, default: str) -> str:
        """A colour of game.yaml ``colors`` by name, or ``#rrggbb``."""
        raw = node[key] if isinstance(node, YList) else node.get(key)
        if raw is None:
            return default
        name = str(raw)
        if name.startswith("#") and len(name) == 7:
            return name
        if name in self.colors:
            return str(self.colors[name])
        self.bad(node, key, f"unknown colour '{name}'", did_you_mean(name, [str(c) for c in self.colors])
                 or "a colour of game.yaml `colors`, or #rrggbb")
        return default

    def items(self, node: YDict, key: str, required: bool = True) -> YList:
        raw = node.get(key)
        if raw is None:
            if required:
                self.bad(node, key, f"'{key}' is missing: give a list")
            return YList()
        if not isinstance(raw, YList):
            self.bad(node, key, f"'{key}' must be a list")
            return YList()
        return raw

    def mapping(self, seq: YList, i: int, what: str) -> YDict | None:
        it = seq[i]
        if not isinstance(it, YDict):
            self.failed = True
            self.problems.error(RULE, f"{what} must be a mapping ({{key: value, …}})", seq.at(i))
            return None
        return it


class DiagramPicture(Flowable):
    """A diagram laid out for the width the frame offers: ``draw(width_mm)`` returns its primitives
    and size (mm); drawn at 100 %, centred, so its text prints at the size it was set."""

    def __init__(self, draw: Callable[[float], tuple[list, float, float]], keep_with_next: bool = False):
        super().__init__()
        self._draw = draw
        self.keepWithNext = keep_with_next
        self.items: list = []
        self.w = self.h = 0.0
        self.aw = 0.0
        self.s = 1.0

    def scene(self, width_mm: float) -> tuple[list, float, float]:
        """The diagram's primitives and size (mm) for a frame ``width_mm`` wide."""
        return self._draw(width_mm)

    def wrap(self, availWidth, availHeight):
        self.items, self.w, self.h = self._draw(availWidth / MM)
        self.aw = availWidth
        self.s = 1.0
        if getattr(self, "_postponed", False) and self.h * MM > availHeight:
            self.s = availHeight / (self.h * MM)     # taller than a whole page: the last resort, never a crash
        self.width, self.height = availWidth, self.h * MM * self.s
        return self.width, self.height

    def draw(self):
        c = self.canv
        c.saveState()
        c.translate((self.aw - self.w * MM * self.s) / 2, 0)
        c.scale(self.s, self.s)
        draw_items(c, self.items, self.h)
        c.restoreState()


__all__ = ["RULE", "Reader", "DiagramPicture", "wrap", "widest", "width_mm", "line_mm",
           "SANS", "BOLD", "ITALIC", "SIZE", "SMALL", "INK", "MUTED"]
