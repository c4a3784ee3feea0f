"""Lay out one card (front or back) from its template: card data → scene primitives.

Coordinates are in the card's bleed box (origin at its top-left corner). The leading
elements that are the same on every card of a template become one symbol, drawn once
per document and placed by reference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardgen.content.model import Card, Game
from cardgen.core.problems import Loc, Problem, Problems
from cardgen.core.yamlsrc import plain
from cardgen.layout import cache as cachemod
from cardgen.layout.cache import Recorder, Store, deps_hold, digest, digest_head, digest_on
from cardgen.layout.cachepack import Pack
from cardgen.layout.cachestore import json_line
from cardgen.layout.elements import KINDS
from cardgen.layout.elements.base import DrawContext
from cardgen.layout.legibility import MIN_PT, describe, floor_of, small_texts, too_small
from cardgen.layout.scenecodec import decode, encode
from cardgen.layout.sideprog import Program, compile_elements
from cardgen.layout.siderun import Runs
from cardgen.layout.siderun import decode_line as _decode_json
from cardgen.layout.templates import Template, TemplateSet, evaluate, fields_read
from cardgen.layout.watched import Fields, Watched
from cardgen.scene import Deferred, Symbol, Use, uses_of

_ABSENT = object()
_NONE: frozenset[str] = frozenset()


_NO_DEPS: dict[str, Any] = {"cards": {}}


def _content_id(key: str, deps: dict) -> str:
    """What names a card side's primitives: its cache key and the cards it read (most: none)."""
    return key if deps == _NO_DEPS else digest(key, deps)


class CardLayout:
    """Lays cards out; with a :class:`~cardgen.layout.cache.Store`, each side is cached under the hash
    of what it depends on (its card, the templates, the game's settings, the other cards its
    template read), problems included. ``compiled``: a template's elements go through their
    program (:mod:`cardgen.layout.sideprog`) after its first card (False: the general loop only)."""

    compiled = True

    def __init__(self, game: Game, problems: Problems, store: Store | None = None):
        self.game = game
        self.store = store
        self.entries = Pack(store, "layout", game.slug) if store is not None else None   # its entries
        self._recording: Recorder | None = None
        self._static_key: str | None = None
        # id(items) → (items, a digest of them): a list, or a Deferred card side
        self.content_ids: dict[int, tuple[Sequence[Any], str]] = {}
        self.problems = problems
        self.templates = TemplateSet(game.templates_dir, problems)
        self.symbols: dict[str, Symbol] = {}
        self._art = game.templates_dir
        self._art_dir = game.root / "art" / game.slug
        self._params = plain(game.params)
        self._counts: dict[str, int] | None = None
        self._refs: dict[int, list[str]] = {}
        self._memo: dict = {}                 # the elements' per-game memo (DrawContext.memo)
        # a problem of a template's own text (an element that reads no card field): reported once,
        # at the template's line, with the cards that use the template counted
        self._once: set[tuple] = set()
        self._legible: set[tuple] = set()     # text sizes (size, min_size, rules) known to be over the floor
        self._same: dict[int, tuple] = {}      # element → (it, card type, its primitives): a static element drawn
        self._by_values: dict[tuple, tuple] = {}   # an element and the card fields it reads → (it, its primitives)
        self._values_seen: set[int] = set()        # the hashes of those keys met once
        self.programs: dict[tuple, tuple[Template, Program]] = {}   # (template, type, bleed, first) → program
        self._by_id = game.cards_by_id         # the cache's dependencies are read against it
        self._key_heads: dict[str, bytes] = {}     # side → the start of its keys' text
        self._plain: dict[int, tuple] = {}    # id(head) → (head, n, uses, symbols): a plain head restored
        self.runs: dict[str, Runs] = {}       # side → the runs of the cards laid out (layout.siderun)
        self._cards = Fields(self._by_id)
        self._game = {"title": game.title, "slug": game.slug, **{k: v for k, v in game.meta.items()
                                                                 if k in ("subtitle", "designer")}}

    def context(self, card: Card) -> dict[str, Any]:
        ct = self.game.card_types[card.type]
        return {"card": card.fields, "cards": Watched(self._cards, self, False), "params": self._params,
                "game": self._game, "type": {"key": ct.key, "name": ct.name},
                "counts": Watched(self.counts(), self, True)}

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
        """Primitives for one side of one card, bleed-box coordinates (from the cache when it
        holds this side for the same inputs)."""
        items = self._side(card, side, False)
        return items if isinstance(items, list) else items.decoded()

    def draw_deferred(self, card: Card, side: str) -> list | Deferred:
        """:meth:`draw`, but a side from the cache comes as a :class:`~cardgen.scene.Deferred`,
        decoded when first read (the card sheets' pages written again from the last build never
        read their card sides); from its run when ``runs`` holds that side (:mod:`.siderun`)."""
        got = self.runs[side].take(card) if side in self.runs else None
        if got is not None:
            self.store.hits += 1        # type: ignore[union-attr]
            return got
        return self._side(card, side, True)

    def _side(self, card: Card, side: str, deferred: bool) -> list | Deferred:
        if self.store is None or self.entries is None:
            return self._draw(card, side)
        text = card.values_text()       # a kept card whose values were never read: its key from its text
        key = digest_on((), text, self.key_head(side)) if text is not None else \
            digest(self.static_key(), side, card.id, card.name, card.type, card.copies, card.fields)
        hit = self.entries.get(key)
        parent = cachemod.active()
        if hit is not None and (quick := self._plain.get(id(hit[0]))) is not None and quick[0] is hit[0] \
                and len(hit[1]) == 2 and self.symbols.keys() >= quick[3]:
            # a head restored before (the pack parses each head text once, most sides share one):
            # no dependencies, no problems, its symbols installed — only its primitives differ
            line = hit[1][1]
            side_items: list | Deferred = Deferred(line, _decode_json, quick[1], quick[2]) if deferred \
                else _decode_json(line)
            self.store.hits += 1
            self.content_ids[id(side_items)] = (side_items, key)
            if parent is not None:
                parent.merge(quick[0]["deps"])
            return side_items
        if hit is not None and isinstance(hit[0], dict) and len(hit[1]) == 2 \
                and deps_hold(hit[0].get("deps") or {}, self.game, self._by_id):
            head = hit[0]
            items = self._restore(head, hit[1], card, deferred)
            if items is not None:
                if head["deps"] == _NO_DEPS and not head["problems"]:
                    self._plain[id(head)] = (head, head["n"], tuple(head["uses"]), frozenset(head["symbols"]))
                self.store.hits += 1
                self.content_ids[id(items)] = (items, _content_id(key, head["deps"]))
                if parent is not None:
                    parent.merge(head["deps"])
                return items
        self.store.misses += 1
        rec = self._recording = Recorder()
        mark = len(self.problems.items)
        try:
            items = self._draw(card, side)
        finally:
            self._recording = None
        deps = rec.deps(self.game, self._by_id)
        if parent is not None:
            parent.merge(deps)
        self.content_ids[id(items)] = (items, _content_id(key, deps))
        used = sorted({it.name for it in items if isinstance(it, Use)} & set(self.symbols))
        probs = [[p.rule, p.severity, p.message, _loc(p.loc), p.hint] for p in self.problems.items[mark:]]
        head = {"deps": deps, "problems": probs, "uses": uses_of(items), "n": len(items), "symbols": used}
        if probs:           # the card's lines then, to report them at its lines now
            head["locs"] = {"": _loc(card.loc), **{k: _loc(v) for k, v in card.field_locs.items()}}
        self.entries.put(key, head, [
            json_line({n: [self.symbols[n].w, self.symbols[n].h, encode(self.symbols[n].items)]
                       for n in used}),
            json_line(encode(items))])
        return items

    def key_head(self, side: str) -> bytes:
        """The start of a side's key text, before the card's values (``cache.digest_on``)."""
        head = self._key_heads.get(side)
        if head is None:
            head = self._key_heads[side] = digest_head((self.static_key(), side))
        return head

    def static_key(self) -> str:
        """What every card of the game shares: code, templates (and art), settings, params."""
        if self._static_key is None:
            g = self.game
            self._static_key = digest(
                cachemod.code_fingerprint(), cachemod.files_digest([g.templates_dir, self._art_dir]), g.slug, g.title,
                {k: v for k, v in g.meta.items() if k in ("subtitle", "designer")}, self._params, g.colors,
                {k: [i.glyph, i.color, i.draw] for k, i in g.icons.items()}, g.fonts, g.print.bleed,
                {k: [t.template, t.back, t.size, t.width, t.height, t.name] for k, t in g.card_types.items()})
        return self._static_key

    def _restore(self, head: dict, parts: list[memoryview], card: Card,
                 deferred: bool) -> list | Deferred | None:
        """A cached side: its symbols installed (their line decoded only when one is new to this
        lay-out), its problems reported at the card's current lines; its primitives decoded now,
        or (``deferred``) when first read. None when the entry is malformed (then it is drawn anew)."""
        try:
            n, uses, names = head["n"], tuple(head["uses"]), head["symbols"]
            if type(n) is not int or not all(type(u) is str for u in uses) or not isinstance(names, list):
                return None
            symbols = {}
            if any(name not in self.symbols for name in names):
                symbols = {k: Symbol(k, w, h, decode(its))
                           for k, (w, h, its) in json.loads(bytes(parts[0])).items()}
            items: list | Deferred = Deferred(parts[1], _decode_json, n, uses) if deferred \
                else _decode_json(parts[1])
            probs = list(head["problems"])
            if probs:       # (most sides have none: their lines need not be matched)
                now = {"": card.loc, **card.field_locs}
                moved = {tuple(v): now[k] for k, v in head["locs"].items() if k in now and v}
                probs = [Problem(r, sev, msg, moved.get(tuple(loc), Loc(*loc)) if loc else None, hint)
                         for r, sev, msg, loc, hint in probs]
        except (KeyError, TypeError, ValueError, AttributeError):
            return None
        for k, sym in symbols.items():
            self.symbols.setdefault(k, sym)
        self.problems.extend(probs)
        return items

    def _draw(self, card: Card, side: str) -> list:
        tpl = self.template_for(card, side)
        if tpl is None:
            return []
        ct = self.game.card_types[card.type]
        bleed = self.game.print.bleed
        ctx_vars = None         # what the template's expressions see: made when an element evaluates
        out: list = []
        n_static = tpl.static_prefix()
        start = 0
        if n_static:
            out.append(Use(self._static(tpl, n_static, card, ct, bleed, ctx_vars), 0.0, 0.0))
            start = n_static
        key = (id(tpl), ct.key, bleed, start)           # the template's program (layout.sideprog)
        prog = self.programs.get(key) if self.compiled else None
        if prog is not None and prog[0] is tpl:
            out.extend(prog[1].run(self, tpl, card, ct, bleed))
            return out
        out.extend(self._elements(tpl, tpl.elements[start:], card, ct, bleed, ctx_vars))
        if self.compiled:       # compiled once its first card has gone the general way
            self.programs[key] = (tpl, compile_elements(self, tpl.elements[start:], ct.key, bleed))
        return out

    def _static(self, tpl: Template, n_static: int, card: Card, ct, bleed: float, ctx_vars: dict | None) -> str:
        """The name of the form of ``tpl``'s part that is the same on every card of ``ct``, made
        from ``card`` when it is the first."""
        name = f"{self.game.slug}:{tpl.name}:{ct.key}:static"
        if name not in self.symbols:
            items = self._elements(tpl, tpl.elements[:n_static], card, ct, bleed, ctx_vars)
            self.symbols[name] = Symbol(name, ct.width + 2 * bleed, ct.height + 2 * bleed, items)
        return name

    def static_symbol(self, card: Card, side: str) -> str | None:
        """The form ``draw(card, side)`` places first (made now if no card made it before), or None
        when its template has no part that is the same on every card (no store: no cache)."""
        tpl = self.template_for(card, side)
        n_static = tpl.static_prefix() if tpl is not None else 0
        if tpl is None or not n_static:
            return None
        return self._static(tpl, n_static, card, self.game.card_types[card.type], self.game.print.bleed,
                            self.context(card))

    def _elements(self, tpl: Template, elements, card: Card, ct, bleed: float, ctx_vars: dict | None) -> list:
        """What ``elements`` draw on ``card`` (``ctx_vars``: the card's :meth:`context`, made here when
        an element is evaluated, not for elements that draw what they drew before)."""
        out: list = []
        label = ""
        type_key = ct.key
        kind_of = (type_key, bleed)
        same_of = self._same.get
        remembered = self._by_values.get
        values_key = self._values_key
        fields = card.fields
        for el in elements:
            same = same_of(id(el))
            if same is not None and same[0] is el and same[1] == kind_of:
                out.extend(same[2])
                continue
            key = values_key(el, fields, type_key, bleed)
            if key is not None:
                hit = remembered(key)
                if hit is not None and hit[0] is el:
                    out.extend(hit[1])
                    continue
            if ctx_vars is None:
                ctx_vars = self.context(card)
            if not label:
                label = f"card '{card.id}' ({card.name})"
            out.extend(self._element(tpl, el, key, card, ct, bleed, ctx_vars, label))
        return out

    def _element(self, tpl: Template, el, key: tuple | None, card: Card, ct, bleed: float, ctx_vars: dict,
                 label: str) -> list:
        """What ``el`` draws on ``card`` (its values evaluated, drawn by its kind), remembered for
        the next card when it can be."""
        mark = len(self.problems.items)
        v = evaluate(el, self.templates, ctx_vars, self.game.colors, self.problems, card.loc, label)
        if v is None:
            return []
        field = self._field(card, el)
        own = not self._refs[id(el)]           # the element reads no card field: the template's own text
        sink = Problems() if own else self.problems
        ctx = DrawContext(ct.width, ct.height, bleed, self.game.fonts, self.game.icons, sink, label,
                          el.loc if own else (card.field_locs[field] if field else card.loc), card.field_locs,
                          el.name, el.loc, self._art, field, self._art_dir, self._memo,
                          remember_text=key is None, icon_slips=self.game.icon_slips.get(card.id, _NONE))
        drawn = KINDS[el.kind].draw(v, ctx)
        self._legibility(el, v, drawn, label)
        for prob in sink if own else ():
            self._report_once(prob, label, tpl.name)
        if own and not sink and len(self.problems.items) == mark and el.static:
            # it reads no card and found nothing to say: the next card of this type gets
            # the same primitives (as the static part of a template's form does)
            self._same[id(el)] = (el, (ct.key, bleed), drawn)
        elif key is not None and len(self.problems.items) == mark:
            self._remember(key, el, drawn)
        return drawn

    def _values_key(self, el, fields: dict, type_key: str, bleed: float) -> tuple | None:
        """For an element whose values are the card's fields as they are (:func:`fields_read`): the
        key of what it draws, the element and those fields' values with their types (1, True and
        "1" draw differently); None for any other element, or a value that is not text, a whole
        number or a flag."""
        names = fields_read(el)
        if names is None:
            return None
        if len(names) == 1:             # the common case, its key made at once
            x = fields.get(names[0], _ABSENT)
            t = type(x)
            return (id(el), type_key, bleed, t, x) if t is str or t is int or t is bool else None
        key: list = [id(el), type_key, bleed]
        for name in names:
            x = fields.get(name, _ABSENT)
            t = type(x)
            if t is not str and t is not int and t is not bool:
                return None
            key += (t, x)
        return tuple(key)

    def _remember(self, key: tuple, el, drawn: list) -> None:
        """An element drawn without a problem from these field values: the next card with the same
        values gets the same primitives. Kept from the second time the values are met on, so a
        card's own name or rules text is not held to the end of the build (only its key's hash)."""
        h = hash(key)
        if h not in self._values_seen:
            if len(self._values_seen) > 200_000:
                self._values_seen.clear()
            self._values_seen.add(h)
            return
        if len(self._by_values) > 50_000:
            self._by_values.clear()
        self._by_values[key] = (el, drawn)

    def callouts(self, card: Card, side: str = "front") -> list[tuple[str, tuple[float, float, float, float]]]:
        """The card's parts its template names for players (elements with ``callout``), each with
        its box (x, y, w, h; mm from the trim's top-left) as the element declares it."""
        tpl = self.template_for(card, side)
        if tpl is None:
            return []
        ctx_vars = self.context(card)
        out = []
        for el in tpl.elements:
            if "callout" not in el.raw:
                continue
            v = evaluate(el, self.templates, ctx_vars, self.game.colors, Problems(), card.loc, card.id)
            if v is None or not str(v.get("callout") or "").strip():
                continue
            x, y = float(v["x"]), float(v["y"])
            if v.get("r") is not None:
                r = float(v["r"])
                box = (x - r, y - r, 2 * r, 2 * r)
            elif v.get("w") is not None and v.get("h") is not None:
                box = (x, y, float(v["w"]), float(v["h"]))
            else:
                s = float(v.get("size") or 12) * 25.4 / 72
                box = (x - s / 2, y - s / 2, s, s)
            out.append((str(v["callout"]).strip(), box))
        return out

    def _legibility(self, el, v: dict, drawn: list, label: str) -> None:
        """TEXT-SMALL: a text size of the template under the floor (reported once, at the line of the
        key that sets it), or text the element printed under the floor (at the element's line)."""
        kind = KINDS[el.kind]
        said = kind.text_sizes(v)
        floor = floor_of(v)
        # a kind whose text prints at the sizes it says only (text: from min_size up to size):
        # when none is under the floor, none of its texts is — the same sizes on the next card
        # are not looked at again
        sizes = (el.kind, tuple(said), floor) if kind.TEXT_BOUNDED else None
        if sizes is not None and sizes in self._legible:
            return
        what = f"{'rules text' if floor > MIN_PT else 'text'} on a card"
        small = too_small(said, floor)
        if sizes is not None and not small:
            self._legible.add(sizes)
        for key, size, setting, least in small:
            loc = el.locs.get(key, el.loc)
            self._small(loc, key, f"element '{el.name}' of template '{_stem(loc)}': {setting} {size:g} pt, under the "
                        f"{least:g} pt minimum for {what}", f"set {key} to {least:g} or more; give the text room")
            return
        tiny = small_texts(drawn, floor)
        if tiny:
            self._small(el.loc, "", f"{label}: element '{el.name}' of template '{_stem(el.loc)}' prints "
                        f"{describe(tiny)}, under the {floor:g} pt minimum for {what}", "give the element more room")

    def _small(self, loc, key: str, message: str, hint: str) -> None:
        if (loc, key) not in self._once:
            self._once.add((loc, key))
            self.problems.warning("TEXT-SMALL", message, loc, hint=hint)

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


def _stem(loc: Loc | None) -> str:
    return Path(loc.file).stem if loc is not None else "?"


def _loc(loc: Loc | None) -> list | None:
    return [loc.file, loc.line, loc.col] if loc is not None else None
