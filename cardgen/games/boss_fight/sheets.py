"""Boss Fight printables (the ``printables`` hook): the Card List and the presets' reference sheets."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from cardgen.boards.inlineicons import IconCanvas, glyph_or_drawn
from cardgen.boards.inlineicons import swatch as inline_swatch
from cardgen.content import collection_files as cols
from cardgen.content.constraints import Entry
from cardgen.content.model import Game
from cardgen.core.fonts import font
from cardgen.core.problems import Problems
from cardgen.games.boss_fight.builds import STATS, Build, Character, Piece, analyse
from cardgen.games.boss_fight.figures import boss_stats, movement
from cardgen.layout.elements.footprint import diagram
from cardgen.render.pdf import MM
from cardgen.render.platypusfonts import register_fonts
from cardgen.scene import Circle, Polygon, Text


def printables() -> dict[str, Any]:
    return {"card-list": build_card_list, "presets": build_presets}


# --------------------------------------------------------------------------- printables


def _styles(game: Game):

    f = game.fonts
    for role in ("regular", "bold", "italic", "bolditalic"):
        font(f[role])
    registerFontFamily(f["regular"], normal=f["regular"], bold=f["bold"], italic=f["italic"],
                       boldItalic=f["bolditalic"])
    ink = colors.HexColor(game.colors.get("ink", "#000000"))
    base = ParagraphStyle("base", fontName=f["regular"], fontSize=8, leading=10, textColor=ink)
    return {
        "base": base,
        "small": ParagraphStyle("small", parent=base, fontSize=7, leading=8.6),
        "cell": ParagraphStyle("cell", parent=base, fontSize=7.2, leading=8.6),
        "title": ParagraphStyle("title", parent=base, fontName=f["bold"], fontSize=20, leading=24, spaceAfter=2),
        "sub": ParagraphStyle("sub", parent=base, fontName=f["italic"], fontSize=9, leading=12, spaceAfter=8,
                              textColor=colors.HexColor(game.colors.get("muted", "#555555"))),
        "h1": ParagraphStyle("h1", parent=base, fontName=f["bold"], fontSize=14, leading=17, spaceBefore=8,
                             spaceAfter=4, keepWithNext=1),
        "h2": ParagraphStyle("h2", parent=base, fontName=f["bold"], fontSize=10.5, leading=13, spaceBefore=6,
                             spaceAfter=3, keepWithNext=1),
    }


def _esc(text: Any) -> str:
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _markup(game: Game, text: str) -> str:
    """Card text markup (**bold**, *italic*, {icon}) → reportlab paragraph markup."""
    s = _esc(text)
    s = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", s)
    s = re.sub(r"\*(.+?)\*", r"<i>\1</i>", s)

    def icon(m):
        ic = game.icons.get(m.group(1))
        if ic is None:
            return m.group(0)
        return glyph_or_drawn(ic)
    return re.sub(r"\{([a-z0-9_]+)\}", icon, s)


def _table(game: Game, st, head: list[str], rows: list[list[Any]], widths: Sequence[float], set_key: str):
    hs = st["cell"].clone("head", fontName=game.fonts["bold"], textColor=colors.white)
    data = [[Paragraph(_esc(h), hs) for h in head]]
    for r in rows:
        data.append([c if not isinstance(c, str) else Paragraph(c, st["cell"]) for c in r])
    t = Table(data, colWidths=[w * mm for w in widths], repeatRows=1)
    band = colors.HexColor(game.colors.get(set_key, "#333333"))
    t.setStyle(TableStyle([
        ("BACKGROUND", (0, 0), (-1, 0), band),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.HexColor("#f4efe3")]),
        ("GRID", (0, 0), (-1, -1), 0.25, colors.HexColor("#c9bda3")),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.6),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.8),
        ("LEFTPADDING", (0, 0), (-1, -1), 2.5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    return t


def _attack_cell(line: Any) -> str:
    if not isinstance(line, dict):
        return "—"
    return f"<b>{line.get('damage')}</b> dmg · range {line.get('range')}" + (" · sight" if line.get("sight") else "")


def _doc(game: Game, buf, title: str, subject: str):
    ps = game.print
    register_fonts()        # every font named embedded (no Helvetica fallback)
    return SimpleDocTemplate(buf, pagesize=(ps.page_w * mm, ps.page_h * mm), leftMargin=14 * mm,
                             rightMargin=14 * mm, topMargin=14 * mm, bottomMargin=14 * mm, title=title,
                             author=str(game.meta.get("designer") or "cardgen"), subject=subject,
                             creator="cardgen", invariant=1)


def _footer(game: Game, label: str):

    def draw(canv, doc):
        canv.saveState()
        canv.setFont(game.fonts["regular"], 7)
        canv.drawString(14 * mm, 8 * mm, f"{game.title} — {label}")
        canv.drawRightString(doc.pagesize[0] - 14 * mm, 8 * mm, f"page {doc.page}")
        running = getattr(canv, "_cardgen_running", None)
        if running:                 # a sheet that began on an earlier page: say whose it is
            canv.setFont(game.fonts["italic"], 8)
            canv.drawString(14 * mm, doc.pagesize[1] - 9 * mm, f"{running} (continued)")
        canv.restoreState()
    return draw


class _Running(Flowable):
    """Invisible: marks which sheet is in progress, for the page header of the pages it runs over."""

    def __init__(self, name: str | None):
        super().__init__()
        self.name = name

    def wrap(self, *_a):
        return 0, 0

    def draw(self):
        self.canv._cardgen_running = self.name


def build_card_list(laid, **_opts) -> dict[str, bytes]:
    """card-list.pdf — the seed's Card List: every card by set and type, key stats, points."""

    game: Game = laid.game
    st = _styles(game)
    params = game.params if isinstance(game.params, dict) else {}
    sets = params.get("sets") or {}
    kinds = params.get("action_kinds") or {}
    attacks = params.get("attacks") or {}
    consts = params.get("constitutions") or {}
    ptypes = params.get("piece_types") or {}
    stat_names = params.get("stats") or {}
    story: list = [Paragraph(_esc(game.title), st["title"]),
                   Paragraph(f"Card List — {len(game.cards)} unique cards, "
                             f"{sum(c.copies for c in game.cards)} printed. Points are what a card costs a side "
                             f"(the beginner Points Limit is {params.get('points_limit')}); action cards cost "
                             "nothing.", st["sub"])]
    icon = {k: glyph_or_drawn(v) for k, v in game.icons.items()}

    def of(set_key, type_key):
        return sorted((c for c in game.cards if c.get("set") == set_key and c.type == type_key),
                      key=lambda c: (c.get("piece_type") and list(ptypes).index(c.get("piece_type")), c.name))

    def size(c):
        n = len(c.get("footprint") or [])
        return str(n) if n else "—"

    sections = {
        "boss_piece": (["Boss Piece", "Type", "HP", "INT", "STR", "AGI", "Slots", "Size", "Copies", "Points"],
                       [46, 18, 11, 11, 11, 11, 12, 12, 14, 14],
                       lambda c: [f"<b>{_esc(c.name)}</b>", ptypes.get(c.get("piece_type"), c.get("piece_type")),
                                  *(str(c.get(k)) for k in ("health", "intelligence", "strength", "agility",
                                                            "slots")), size(c), str(c.copies),
                                  f"<b>{c.get('points')}</b>"]),
        "hero": (["Hero", "Constitution", "HP", "INT", "STR", "AGI", "Feat", "Slots", "Points"],
                 [52, 30, 11, 11, 11, 11, 12, 12, 14],
                 lambda c: [f"<b>{_esc(c.name)}</b>, {_esc(c.get('title'))}",
                            f"{icon.get(c.get('constitution'), '')} "
                            f"{_esc((consts.get(c.get('constitution')) or {}).get('name', c.get('constitution')))}",
                            *(str(c.get(k)) for k in ("health", "intelligence", "strength", "agility", "feat_cost",
                                                      "slots")), f"<b>{c.get('points')}</b>"]),
        "equipment": (["Equipment", "Slots", "Statistic", "Basic", "Heavy", "Special", "Copies", "Points"],
                      [30, 9, 21, 33, 33, 33, 11, 11],
                      lambda c: [f"<b>{_esc(c.name)}</b>", str(c.get("slots")),
                                 f"{icon.get(c.get('stat'), '')} {_esc(stat_names.get(c.get('stat'), ''))}",
                                 _attack_cell(c.get("basic")), _attack_cell(c.get("heavy")),
                                 _attack_cell(c.get("special")), str(c.copies), f"<b>{c.get('points')}</b>"]),
        "ability": (["Ability", "Use", "Requires", "Copies", "Points"], [44, 18, 94, 14, 14],
                    lambda c: [f"<b>{_esc(c.name)}</b>", c.get("usage").title(),
                               _markup(game, c.get("requires")) if c.get("requires") else "—", str(c.copies),
                               f"<b>{c.get('points')}</b>"]),
        "action": (["Action", "Kind", "Does", "Deck limit", "Copies"], [40, 26, 86, 18, 14],
                   lambda c: [f"<b>{_esc(c.name)}</b>",
                              kinds.get(c.get("kind"), c.get("kind")) +
                              (f" {c.get('move')}" if c.get("move") is not None else "") +
                              (f" · {attacks.get(c.get('attack'))}" if c.get("attack") else ""),
                              _markup(game, c.get("text")),
                              str(c.get("max_copies") or (params.get("deck") or {}).get("copy_limit", "")),
                              str(c.copies)]),
        "token": (["Token", "Obstacle", "Does", "Copies"], [40, 18, 112, 14],
                  lambda c: [f"<b>{_esc(c.name)}</b>", "yes" if c.get("obstacle") else "no",
                             _markup(game, c.get("text")), str(c.copies)]),
    }
    plural = {"boss_piece": "Boss Pieces", "hero": "Heroes", "equipment": "Equipment", "ability": "Abilities",
              "action": "Actions", "token": "Tokens"}
    for set_key, set_name in sets.items():
        story.append(Paragraph(_esc(set_name), st["h1"]))
        for type_key in sorted(game.card_types, key=lambda t: t == "action"):   # actions last, as the seed
            cards = of(set_key, type_key)
            if not cards:
                continue
            head, widths, row = sections[type_key]
            story.append(Paragraph(f"{_esc(plural[type_key])} ({len(cards)})", st["h2"]))
            story.append(_table(game, st, head, [row(c) for c in cards], widths, set_key))
    buf = io.BytesIO()
    doc = _doc(game, buf, f"{game.title} — Card List", "card list")
    doc.build(story, onFirstPage=_footer(game, "Card List"), onLaterPages=_footer(game, "Card List"),
              canvasmaker=IconCanvas)
    return {"card-list.pdf": buf.getvalue()}


class Diagram(Flowable):
    """A platypus flowable drawing scene primitives (millimetres, y down) in a w × h box."""

    def __init__(self, items: list, w: float, h: float):
        super().__init__()
        self.items, self.w, self.h = items, w, h

    def wrap(self, *_a):
        return self.w * MM, self.h * MM

    def draw(self):
        c, h = self.canv, self.h
        for it in self.items:
            if isinstance(it, Polygon):
                p = c.beginPath()
                (x0, y0), *rest = it.points
                p.moveTo(x0 * MM, (h - y0) * MM)
                for x, y in rest:
                    p.lineTo(x * MM, (h - y) * MM)
                p.close()
                if it.fill:
                    c.setFillColor(HexColor(it.fill))
                if it.stroke:
                    c.setStrokeColor(HexColor(it.stroke))
                    c.setLineWidth(it.width * MM)
                c.drawPath(p, stroke=int(bool(it.stroke)), fill=int(bool(it.fill)))
            elif isinstance(it, Circle):
                c.setFillColor(HexColor(it.fill or "#000000"))
                c.circle(it.cx * MM, (h - it.cy) * MM, it.r * MM, stroke=0, fill=1)
            elif isinstance(it, Text):
                c.setFillColor(HexColor(it.color))
                c.setFont(it.font, it.size)
                c.drawCentredString(it.x * MM, (h - it.y) * MM, it.text)


PIECE_TINTS = ("#d9c7a3", "#b9d3c2", "#c9c2e0", "#e6c3b5", "#bcd0e6", "#e3dba6", "#d4b8cf", "#c3d9a5",
               "#e0c9a0", "#a9cfd4")


def build_presets(laid, **_opts) -> dict[str, bytes]:
    """presets.pdf — one reference sheet per preset: computed figures, footprint, cards, deck list."""

    game: Game = laid.game
    st = _styles(game)
    params = game.params if isinstance(game.params, dict) else {}
    story: list = []
    builds = []
    for path in cols.collection_files(game):
        scratch = Problems()
        kind, body, _ = cols.load_collection_file(path, game, scratch)
        b = analyse(game, kind, body, scratch) if kind else None
        if b is not None:
            builds.append((path, b, scratch))
    order = {"boss": 0, "party": 1, "deck": 2}
    builds.sort(key=lambda x: (order[x[1].kind], x[1].name))
    for i, (path, b, scratch) in enumerate(builds):
        if i:
            story += [_Running(None), PageBreak()]
        story += [_Running(b.name), *_sheet(game, st, params, path, b, scratch, KeepTogether, Paragraph)]
    if not story:
        story.append(Paragraph("No presets.", st["base"]))
    buf = io.BytesIO()
    doc = _doc(game, buf, f"{game.title} — Presets", "preset reference sheets")
    doc.build(story, onFirstPage=_footer(game, "Presets"), onLaterPages=_footer(game, "Presets"),
              canvasmaker=IconCanvas)
    return {"presets.pdf": buf.getvalue()}


def _deck_rows(game: Game, entries: list[Entry]) -> list[str]:
    kinds = (game.params or {}).get("action_kinds") or {}
    merged: dict[str, int] = {}
    for e in entries:
        merged[e.id] = merged.get(e.id, 0) + e.count
    by_id = {c.id: c for c in game.cards}
    out = []
    for cid, n in merged.items():
        c = by_id[cid]
        out.append(f"<b>{n}×</b> {_esc(c.name)} <font color='#6b6256'>({kinds.get(c.get('kind'), c.type)})</font>")
    return out


def _sheet(game, st, params, path, b: Build, scratch: Problems, KeepTogether, Paragraph) -> list:

    kind_name = {"boss": "Boss build", "party": "Hero party", "deck": "Action deck"}[b.kind]
    limit = f"of {b.limit}" if b.limit is not None else "(no limit)"
    if b.kind == "deck":
        side = {"boss": "for a boss", "hero": "for a hero"}.get(b.side or "", "for either side")
        figure = f"{sum(e.count for e in b.entries)} cards {side} (actions cost no points)"
    else:
        figure = f"<b>{b.points()} points</b> {limit}"
    out: list = [Paragraph(_esc(b.name), st["title"]),
                 Paragraph(f"{kind_name} · {figure}", st["sub"])]
    if scratch.has_errors:
        out.append(Paragraph(f"<font color='#b3261e'><b>This preset breaks {len(scratch.errors)} rule(s)</b>; run "
                             f"cardgen validate {game.slug} {_esc(path.name)}.</font>", st["base"]))
    set_key = "boss" if b.side == "boss" else "hero" if b.side == "hero" else "neutral"
    stat_names = params.get("stats") or {}
    if b.kind == "boss":
        stats = boss_stats(b)
        out.append(Paragraph("Boss statistics (the sums of its pieces)", st["h2"]))
        head = [stat_names.get(k, k) for k in STATS] + ["Size", "Movement"]
        out.append(_table(game, st, head, [[f"<b>{stats[k]}</b>" for k in STATS] +
                                           [f"<b>{len(b.hexes)}</b> hex{'es' if len(b.hexes) != 1 else ''}",
                                            _esc(movement(game, b))]],
                          [19, 23, 19, 19, 27, 19, 56], set_key))
        tints: dict[tuple[int, int], str] = {}
        for k, p in enumerate(b.pieces):
            for cell in p.cells:
                tints.setdefault((cell.q, cell.r), PIECE_TINTS[k % len(PIECE_TINTS)])
        cells = [(h.q, h.r) for h in b.hexes]
        items = diagram(cells, 0, 0, 80, 52, max_hex=13, fill="#d9c7a3", stroke=game.colors.get("ink", "#000000"),
                        width=0.35, anchor=game.colors.get("boss"), empty="1 hex",
                        font=game.fonts["italic"], fills=tints)
        out.append(Paragraph("Footprint (each colour one piece; the dot marks the hex the build is placed by)", st["h2"]))
        out.append(Diagram(items, 80, 52))
        rows = []
        for k, p in enumerate(b.pieces):
            swatch = inline_swatch(PIECE_TINTS[k % len(PIECE_TINTS)]) if p.cells else "·"
            role = p.label.replace("_", " ").title()      # the piece's role in the build, as players say it
            rows.append([f"{swatch} <b>{_esc(role if role.lower() != p.card.name.lower() else '')}</b>",
                         _esc(p.card.name),
                         _esc((params.get("piece_types") or {}).get(p.card.get("piece_type"), "")),
                         f"{swatch} on the footprint" + (f", turned {p.rotate}×60°" if p.rotate else "")
                         if p.cells else "—",
                         *(str(p.card.get(k)) for k in STATS),
                         _slot_text(p),
                         f"<b>{p.card.get('points')}</b>"])
        out.append(Paragraph("Pieces", st["h2"]))
        short = params.get("stat_short") or {}
        out.append(_table(game, st, ["Piece", "Card", "Type", "Placed", *(short.get(k, k) for k in STATS),
                                     "Equipment slots", "Points"], rows,
                          [26, 28, 14, 19, 9, 9, 9, 9, 11, 39, 11], set_key))
        boss = b.characters[0]
        out += _gear(game, st, boss, set_key)
        out.append(Paragraph(f"Action deck ({sum(e.count for e in boss.deck)} cards)", st["h2"]))
        out.append(_columns(game, st, _deck_rows(game, boss.deck)))
    elif b.kind == "party":
        short = params.get("stat_short") or {}
        consts = params.get("constitutions") or {}
        for h in b.characters:
            c = h.card
            assert c is not None                # a party's characters are its hero cards
            ic = game.icons.get(c.get("constitution"))
            glyph = f"{glyph_or_drawn(ic)} " if ic else ""
            block = [Paragraph(f"{glyph}{_esc(c.name)}, {_esc(c.get('title'))} — "
                               f"{_esc((consts.get(c.get('constitution')) or {}).get('name', ''))} · "
                               f"{c.get('points')} points", st["h1"])]
            keys = ("health", "intelligence", "strength", "agility", "feat_cost", "slots")
            block.append(_table(game, st, [short.get(k, k) for k in keys],
                                [[f"<b>{c.get(k)}</b>" for k in keys]], [30] * 6, set_key))
            block.append(Paragraph(f"<b>{_esc(c.get('ability_name'))}:</b> {_markup(game, c.get('ability'))}<br/>"
                                   f"<b>Heroic Feat — {_esc(c.get('feat_name'))}</b> (expend {c.get('feat_cost')}): "
                                   f"{_markup(game, c.get('feat'))}", st["small"]))
            block += _gear(game, st, h, set_key)
            block.append(Paragraph(f"Action deck ({sum(e.count for e in h.deck)} cards)", st["h2"]))
            block.append(_columns(game, st, _deck_rows(game, h.deck)))
            out.append(KeepTogether(block))
            out.append(Spacer(1, 3 * mm))
    else:
        out.append(Paragraph(f"Action deck ({sum(e.count for e in b.entries)} cards)", st["h2"]))
        out.append(_columns(game, st, _deck_rows(game, b.entries)))
    return out


def _slot_text(p: Piece) -> str:
    if not (p.card.get("slots") or p.equipment):
        return "—"
    held = (": " + ", ".join(_esc(e.name) for e in p.equipment)) if p.equipment else ""
    return f"{p.used} of {p.card.get('slots') or 0} used{held}"


def _gear(game, st, ch: Character, set_key: str) -> list:
    out = []
    stat_names = (game.params or {}).get("stats") or {}
    if ch.equipment:
        rows = [[f"<b>{_esc(e.name)}</b>", str(e.get("slots")), _esc(stat_names.get(e.get("stat"), "")),
                 _attack_cell(e.get("basic")), _attack_cell(e.get("heavy")), _attack_cell(e.get("special")),
                 f"<b>{e.get('points')}</b>"] for e in ch.equipment]
        out.append(Paragraph("Equipment", st["h2"]))
        out.append(_table(game, st, ["Equipment", "Slots", "Statistic", "Basic", "Heavy", "Special", "Points"],
                          rows, [36, 11, 21, 28, 28, 28, 12], set_key))
    if ch.abilities:
        rows = [[f"<b>{_esc(a.name)}</b>", a.get("usage").title(), _markup(game, a.get("text")),
                 f"<b>{a.get('points')}</b>"] for a in ch.abilities]
        out.append(Paragraph("Abilities", st["h2"]))
        out.append(_table(game, st, ["Ability", "Use", "Effect", "Points"], rows, [34, 16, 120, 14], set_key))
    return out


def _columns(game, st, rows: list[str]):
    half = (len(rows) + 1) // 2
    left, right = rows[:half], rows[half:]
    data = [[Paragraph(a, st["base"]), Paragraph(right[i] if i < len(right) else "", st["base"])]
            for i, a in enumerate(left)]
    t = Table(data or [[""]], colWidths=[91 * mm, 91 * mm])
    t.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 0.6), ("BOTTOMPADDING", (0, 0), (-1, -1), 0.6),
                           ("LEFTPADDING", (0, 0), (-1, -1), 1)]))
    return t
