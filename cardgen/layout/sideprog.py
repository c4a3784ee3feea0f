"""A template's elements compiled once per card type: the per-card loop of
:meth:`cardgen.layout.card.CardLayout._elements` as a list of steps decided in advance.

After a template has laid out its first card the general way (each element's values checked, its
static elements drawn and remembered, its text sizes found legible), every further card of that
type goes through its *program*: one step per element, each drawing exactly what the general loop
would draw (the same primitives, the same problems — only the general step reports any):

- ``STATIC``: an element that reads no card and drew without a problem: its primitives;
- ``FIELDS``: an element whose values are card fields as they are (``{{ card.x }}``): the
  primitives remembered for those values, else the general step;
- ``TEXT``: a ``text`` element whose one expression is its text, a card field: with the values
  remembered as ``FIELDS``; else, for plain text (no markup, every character in the font) the
  lines fitted straight into the box with the constants checked once (no values dictionary, draw
  context or legibility check per card: its sizes were found legible); text that overflows or
  needs the general path's care goes there;
- ``GENERAL``: anything else, laid out as the general loop does (:meth:`CardLayout._element`).

A card whose every element took one of the first three steps without falling back took the
*fast path* (:attr:`Program.fast`, :attr:`Program.slow`: counted per program).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardgen.core.fonts import draws
from cardgen.layout.elements import KINDS
from cardgen.layout.elements.text import plain_lines
from cardgen.layout.legibility import floor_of
from cardgen.layout.templates import CardField, fields_read
from cardgen.scene import Rect

if TYPE_CHECKING:
    from cardgen.content.model import Card
    from cardgen.layout.card import CardLayout
    from cardgen.layout.templates import Template

STATIC, FIELDS, TEXT, GENERAL = range(4)
_ABSENT = object()


class Program:
    """The steps of one template's elements (from ``start`` on) for one card type and bleed."""

    __slots__ = ("steps", "fast", "slow")

    def __init__(self, steps: list[tuple]) -> None:
        self.steps = steps
        self.fast = 0           # cards laid out by compiled steps alone
        self.slow = 0           # cards that needed a general step

    def run(self, layout: CardLayout, tpl: Template, card: Card, ct: Any, bleed: float) -> list:
        """What the template's elements draw on ``card``: :meth:`CardLayout._elements`' result."""
        out: list = []
        type_key = ct.key
        fields = card.fields
        plain = type(fields) is dict        # (CardField's own lookup: a plain dict of fields)
        ctx_vars: dict | None = None
        label = ""
        slow = False
        for step in self.steps:
            op = step[0]
            if op == STATIC:
                out.extend(step[1])
                continue
            if op == GENERAL:
                drawn, key = _known(layout, step[1], fields, type_key, bleed)
            else:
                drawn, key = _by_field(layout, step, fields, type_key, bleed, plain)
            if drawn is None:
                slow = True
                if ctx_vars is None:
                    ctx_vars = layout.context(card)
                if not label:
                    label = f"card '{card.id}' ({card.name})"
                drawn = layout._element(tpl, step[1], key, card, ct, bleed, ctx_vars, label)
            out.extend(drawn)
        if slow:
            self.slow += 1
        else:
            self.fast += 1
        return out


def _known(layout: CardLayout, el: Any, fields: dict, type_key: str,
           bleed: float) -> tuple[list | None, tuple | None]:
    """The general loop's own first tests: ``el``'s primitives when it is static or its values were
    met before (else None), and its values' key."""
    same = layout._same.get(id(el))
    if same is not None and same[0] is el and same[1] == (type_key, bleed):
        return same[2], None
    key = layout._values_key(el, fields, type_key, bleed)
    if key is not None:
        hit = layout._by_values.get(key)
        if hit is not None and hit[0] is el:
            return hit[1], key
    return None, key


def _by_field(layout: CardLayout, step: tuple, fields: dict, type_key: str, bleed: float,
              plain: bool) -> tuple[list | None, tuple | None]:
    """A ``FIELDS`` or ``TEXT`` step: the primitives remembered for the field's value, or (``TEXT``)
    its plain text fitted; None for the general step. With the values' key."""
    el = step[1]
    x = fields.get(step[2], _ABSENT)
    t = type(x)
    if t is not str and t is not int and t is not bool:
        return None, None
    key = (id(el), type_key, bleed, t, x)
    hit = layout._by_values.get(key)
    if hit is not None and hit[0] is el:
        return hit[1], key
    if step[0] == TEXT and plain and t is not bool:
        drawn = _text(step, x, layout.game.fonts)
        if drawn is not None:
            layout._remember(key, el, drawn)
            return drawn, key
    return None, key


def _text(step: tuple, value: str | int, fonts: dict[str, str]) -> list | None:
    """A ``TEXT`` step's primitives for the field's value, or None for the general path."""
    _, _, _, field, v, x, y, w, h, frame = step
    text = value if type(value) is str and not field.pre and not field.post \
        else f"{field.pre}{value!s}{field.post}"
    if "*" in text or "{" in text:
        return None
    font = fonts[v["font"]]
    if not draws(font, text):
        return None
    lines = plain_lines(text, font, fonts["regular"], v, x, y, w, h)
    if lines is None:
        return None
    return [*frame, *lines] if frame else lines


def compile_elements(layout: CardLayout, elements: list, type_key: str, bleed: float) -> Program:
    """The program of ``elements`` for cards of ``type_key`` laid out with ``bleed``, once the first
    card has gone through the general loop (its plans made, its static parts remembered)."""
    steps: list[tuple] = []
    for el in elements:
        same = layout._same.get(id(el))
        if same is not None and same[0] is el and same[1] == (type_key, bleed):
            if steps and steps[-1][0] == STATIC:        # static elements in a row: one step
                steps[-1] = (STATIC, [*steps[-1][1], *same[2]])
            else:
                steps.append((STATIC, list(same[2])))
            continue
        names = fields_read(el)
        if names is None or len(names) != 1:
            steps.append((GENERAL, el))
            continue
        text = _text_step(layout, el, names[0], bleed)
        steps.append(text if text is not None else (FIELDS, el, names[0]))
    return Program(steps)


def _text_step(layout: CardLayout, el: Any, name: str, bleed: float) -> tuple | None:
    """A ``TEXT`` step for ``el`` when it is a text element whose only expression is its text
    (``{{ card.<name> }}`` between plain words), reads a card field (its problems are the card's),
    and its sizes were found legible; None otherwise."""
    plan = el.__dict__.get("_plan")
    if el.kind != "text" or plan is None or not plan.ok or plan.when is not None or len(plan.exprs) != 1:
        return None
    key, field, opt, _ = plan.exprs[0]
    if key != "text" or type(field) is not CardField or field.name != name or opt.min is not None \
            or opt.max is not None or not layout._refs.get(id(el)):
        return None
    v = dict(plan.consts)
    kind = KINDS[el.kind]
    if not kind.TEXT_BOUNDED or (el.kind, tuple(kind.text_sizes(v)), floor_of(v)) not in layout._legible:
        return None
    x, y = v["x"] + bleed, v["y"] + bleed          # as DrawContext.ox, oy and text.draw place it
    w, h = v["w"], v["h"]
    frame = (Rect(x, y, w, h, v["fill"], v["stroke"], 0.3, v["radius"]),) if v["fill"] or v["stroke"] else ()
    p = v["padding"] or 0.0
    return (TEXT, el, name, field, v, x + p, y + p, w - 2 * p, h - 2 * p, frame)
