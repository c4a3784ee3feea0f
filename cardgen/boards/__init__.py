"""Boards: hex maps, zone boards, play mats and token sheets from ``maps/<game>/*.yaml``.

Printables (register in :mod:`cardgen.printables`; a game lists the ones it wants):

``maps``    ``maps/<map>.pdf`` (tiled, true scale) and ``maps/<map>.svg`` (whole map) per hex map
``board``   ``board.pdf``: every ``board:`` file, tiled
``mats``    ``mats.pdf``: every mat, one per ``copies`` entry, tiled
``tokens``  ``tokens.pdf``: every token sheet, fronts and mirrored backs
``reference`` ``reference.pdf``: the quick-reference sheets (player aids)

:func:`check_game` validates every board file of a game (``cardgen validate`` should call it);
each builder checks its files again and reports into the build's problems.
"""

from __future__ import annotations

from cardgen.boards import common, maps, matfile, mats, reference, tokens, zoneboard
from cardgen.boards.tilepages import tile_document_pages
from cardgen.boards.tiling import Board, TilingError, fit
from cardgen.core.problems import Problems
from cardgen.layout.legibility import MIN_PT, describe, small_texts
from cardgen.render.pdf import render
from cardgen.render.svg import render_page
from cardgen.scene import Document, Page, translate

__all__ = ["check_game", "build_maps", "build_board", "build_mats", "build_tokens", "build_reference", "PRINTABLES"]


POSTER_MARGIN = 5.0        # mm of blank paper round a poster board (a copy shop trims to it)


def poster_page(board: Board) -> Page:
    """The whole board on one page of its own size plus a margin, true scale: its trim box the
    board's edge."""
    m = POSTER_MARGIN
    return Page(board.w + 2 * m, board.h + 2 * m, translate(board.items, m, m),
                trim_box=(m, m, board.w, board.h))


def _tile(board: Board, game, fonts, problems: Problems, loc) -> list[Page] | None:
    if game.print.boards == "poster":
        return [poster_page(board)]
    try:
        pages, _ = tile_document_pages(board, game.print.page_w, game.print.page_h, fonts)
    except TilingError as e:
        problems.error("BOARD-TOO-LARGE", str(e), loc)
        return None
    return pages


def _boards(game, problems: Problems, files=None) -> dict:
    """Everything of the game's maps folder, loaded: {kind: [(model, board scenes)]}."""
    files = files if files is not None else common.board_files(game.maps_dir, problems)
    fonts = common.fonts_of(game)
    out: dict = {"maps": [], "board": [], "mats": [], "tokens": [], "reference": []}
    for m in maps.load_all(game, problems, files):
        out["maps"].append((m, [maps.scene(m, fonts)]))
    for path, doc in files["board"]:
        r = zoneboard.load(path, doc, game, problems)
        if r is not None:
            out["board"].append((r, [zoneboard.scene(r, fonts)]))
    found = Problems()
    defs = tokens.all_defs(game, found, files)        # token problems are reported once, below
    for path, doc in files["mats"]:     # a broken token file: the tokens the mats name wait (None)
        for mat in matfile.load(path, doc, game, problems, None if found.has_errors else defs):
            out["mats"].append((mat, [mats.scene(mat, c, game, fonts) for c in mat.copies]))
    for path, doc in files["tokens"]:
        sheet = tokens.load(path, doc, game, problems)
        if sheet is not None:
            out["tokens"].append((sheet, []))
    for path, doc in files["reference"]:
        ref = reference.load(path, doc, game, problems)
        if ref is not None:
            out["reference"].append((ref, []))
    return out


def check_game(game, problems: Problems) -> None:
    """Validate every file of ``maps/<game>/``: content rules, and that every board can be printed."""
    if game is None or not game.maps_dir.is_dir():
        return
    loaded = _boards(game, problems)
    for kind in ("maps", "board", "mats"):
        for model, scenes in loaded[kind]:
            for b in scenes:
                try:
                    fit(b, game.print.page_w, game.print.page_h)
                except TilingError as e:
                    problems.error("BOARD-TOO-LARGE", str(e), model.loc)
            _legible(kind, model, [it for b in scenes for it in b.items], problems)
    for sheet, _ in loaded["tokens"]:
        pages, _manifest = tokens.pages(sheet, game, common.fonts_of(game))
        _legible("tokens", sheet, [it for p in pages for it in p.items], problems)
    for ref, _ in loaded["reference"]:
        pages = reference.pages(ref, game, common.fonts_of(game), problems)
        _legible("reference", ref, [it for p in pages for it in p.items], problems)


def _legible(kind: str, model, items: list, problems: Problems) -> None:
    """TEXT-SMALL: text a board, mat or token sheet prints under the floor, once per board."""
    tiny = small_texts(items)
    if tiny:
        what = {"maps": "the map", "board": "the board", "mats": "the mat", "tokens": "the token sheet",
                "reference": "the quick reference"}[kind]
        problems.warning("TEXT-SMALL", f"{what} '{getattr(model, 'name', '') or model.loc.file}' prints "
                         f"{describe(tiny)}, under the {MIN_PT:g} pt minimum for text at the table", model.loc,
                         hint="enlarge the text in the board file (or the space it is given)")


def _problems(opts) -> Problems:
    p = opts.get("problems")
    return p if p is not None else Problems()


def build_maps(laid, **opts) -> dict[str, bytes]:
    """``maps/<map>.pdf`` and ``maps/<map>.svg`` for every hex map of the game."""
    game = laid.game
    problems = _problems(opts)
    fonts = common.fonts_of(game)
    out: dict[str, bytes] = {}
    for m, (board,) in _boards(game, problems)["maps"]:
        pages = _tile(board, game, fonts, problems, m.loc)
        if pages is None:
            continue
        doc = Document(f"{game.title} — {m.name}", pages=pages, subject=f"hex map, {m.size:g} mm hexes, tiled")
        out[f"maps/{m.key}.pdf"] = render(doc)
        out[f"maps/{m.key}.svg"] = render_page(Page(board.w, board.h, board.items),
                                               Document(f"{game.title} — {m.name}"))
    return out


def build_board(laid, **opts) -> dict[str, bytes]:
    """``board.pdf``: the game's boards, each tiled over sheets."""
    return _tiled(laid, opts, "board", "board.pdf", "board")


def build_mats(laid, **opts) -> dict[str, bytes]:
    """``mats.pdf``: every mat (one per player or copy), each tiled over sheets."""
    return _tiled(laid, opts, "mats", "mats.pdf", "play mats")


def _tiled(laid, opts, kind: str, fname: str, what: str) -> dict[str, bytes]:
    game = laid.game
    problems = _problems(opts)
    fonts = common.fonts_of(game)
    pages: list[Page] = []
    for model, scenes in _boards(game, problems)[kind]:
        for b in scenes:
            p = _tile(b, game, fonts, problems, model.loc)
            if p:
                pages += p
    if not pages:
        return {}
    return {fname: render(Document(f"{game.title} — {what}", pages=pages, subject=what))}


def build_tokens(laid, **opts) -> dict[str, bytes]:
    """``tokens.pdf``: token sheets, each front page followed by its mirrored back page."""
    game = laid.game
    problems = _problems(opts)
    fonts = common.fonts_of(game)
    pages: list[Page] = []
    for sheet, _ in _boards(game, problems)["tokens"]:
        p, _manifest = tokens.pages(sheet, game, fonts)
        pages += p
    if not pages:
        return {}
    return {"tokens.pdf": render(Document(f"{game.title} — tokens", pages=pages, subject="token sheets"))}


def build_reference(laid, **opts) -> dict[str, bytes]:
    """``reference.pdf``: the game's quick-reference sheets."""
    game = laid.game
    problems = _problems(opts)
    pages: list[Page] = []
    for ref, _ in _boards(game, problems)["reference"]:
        pages += reference.pages(ref, game, common.fonts_of(game), problems)
    if not pages:
        return {}
    return {"reference.pdf": render(Document(f"{game.title} — quick reference", pages=pages,
                                             subject="quick reference"))}


PRINTABLES = {"maps": build_maps, "board": build_board, "mats": build_mats, "tokens": build_tokens,
              "reference": build_reference}
