"""Lay out one card (front or back) from its template: card data → scene primitives.

Coordinates are in the card's bleed box (origin at its top-left corner). The leading
elements that are the same on every card of a template become one symbol, drawn once
per document and placed by reference.
"""

from __future__ import annotations

import re
from typing import Any

from .elements import KINDS
from .elements.base import DrawContext
from .model import Card, Game
from .problems import Problem, Problems
from .scene import Symbol, Use
from .templates import Template, TemplateSet, evaluate
from .yamlsrc import plain


class CardLayout:
    def __init__(self, game: Game, problems: Problems):
        self.game = game
        self.problems = problems
        self.templates = TemplateSet(game.templates_dir, problems)
        self.symbols: dict[str, Symbol] = {}
        self._art = game.templates_dir
        self._params = plain(game.params)
        self._counts: dict[str, int] | None = None
        self._refs: dict[int, list[str]] = {}
        # a problem of a template's own text (an element that reads no card field): reported once,
        # at the template's line, with the cards that use the template counted
        self._once: set[tuple] = set()
        self._cards = {c.id: c.fields for c in game.cards}
        self._game = {"title": game.title, "slug": game.slug, **{k: v for k, v in game.meta.items()
                                                                 if k in ("subtitle", "designer")}}

    def context(self, card: Card) -> dict[str, Any]:
        ct = self.game.card_types[card.type]
        return {"card": card.fields, "cards": self._cards, "params": self._params, "game": self._game,
                "type": {"key": ct.key, "name": ct.name}, "counts": self.counts()}

    def counts(self) -> dict[str, int]:
        if self._counts is None:
            self._counts = {}
            for c in self.game.cards:
                self._counts[c.type] = self._counts.get(c.type, 0) + c.copies
        return self._counts

    def template_for(self, card: Card, side: str) -> Template | None:
        ct = self.game.card_types[card.type]
        name = ct.template if side == "front" else ct.back
        if name is None:
            return None
        return self.templates.get(name, ct.template_loc if side == "front" else ct.back_loc)

    def draw(self, card: Card, side: str) -> list:
        """Primitives for one side of one card, bleed-box coordinates."""
        tpl = self.template_for(card, side)
        if tpl is None:
            return []
        ct = self.game.card_types[card.type]
        bleed = self.game.print.bleed
        ctx_vars = self.context(card)
        out: list = []
        n_static = tpl.static_prefix()
        start = 0
        if n_static:
            name = f"{self.game.slug}:{tpl.name}:{ct.key}:static"
            if name not in self.symbols:
                items = self._elements(tpl, tpl.elements[:n_static], card, ct, bleed, ctx_vars)
                self.symbols[name] = Symbol(name, ct.width + 2 * bleed, ct.height + 2 * bleed, items)
            out.append(Use(name, 0.0, 0.0))
            start = n_static
        out.extend(self._elements(tpl, tpl.elements[start:], card, ct, bleed, ctx_vars))
        return out

    def _elements(self, tpl: Template, elements, card: Card, ct, bleed: float, ctx_vars: dict) -> list:
        out: list = []
        label = f"card '{card.id}' ({card.name})"
        for el in elements:
            v = evaluate(el, self.templates, ctx_vars, self.game.colors, self.problems, card.loc, label)
            if v is None:
                continue
            field = self._field(card, el)
            own = not self._refs[id(el)]           # the element reads no card field: the template's own text
            sink = Problems() if own else self.problems
            ctx = DrawContext(ct.width, ct.height, bleed, self.game.fonts, self.game.icons, sink, label,
                              el.loc if own else (card.field_locs[field] if field else card.loc), card.field_locs,
                              el.name, el.loc, self._art, field)
            out.extend(KINDS[el.kind].draw(v, ctx))
            for prob in sink if own else ():
                self._report_once(prob, label, tpl.name)
        return out

    def _report_once(self, prob: Problem, label: str, template: str) -> None:
        """A template's own problem, once at its line, with the cards that use the template counted."""
        text = prob.message.removeprefix(f"{label}: ")
        key = (prob.rule, prob.severity, text, prob.loc)
        if key in self._once:
            return
        users = [c for c in self.game.cards if template in (self.game.card_types[c.type].template,
                                                            self.game.card_types[c.type].back)]
        self._once.add(key)
        self.problems.add(prob.rule, prob.severity, f"template '{template}': {text}, on every card that uses it "
                          f"({len(users)} designs, {sum(c.copies for c in users)} cards)", prob.loc, prob.hint)

    def _field(self, card: Card, el) -> str | None:
        """The card field a problem in this element belongs to: the first one it reads."""
        refs = self._refs.get(id(el))
        if refs is None:
            refs = self._refs[id(el)] = [m.group(1) for v in el.raw.values() if isinstance(v, str)
                                         for m in re.finditer(r"\bcards?\b(?:\.(\w+)|\[)", v)]
        for name in refs:
            if name in card.field_locs:
                return name
        return None
