"""The build, top to bottom: load → validate → lay out → write.

Validation lays every card out too (text that does not fit is a content error), so a
``validate`` that passes means ``build`` will succeed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, field
from pathlib import Path
from typing import Any

from cardgen import gamehooks
from cardgen.builder.proof import unread_problems
from cardgen.content import collection_files as cols
from cardgen.content import constraints, deckstats
from cardgen.content.cardmemo import CardMemo
from cardgen.content.catalogue import load_catalogue
from cardgen.content.loader import load_game
from cardgen.content.model import Card, Game
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problem, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.layout.cache import cached_files, code_fingerprint, digest, files_digest
from cardgen.layout.cachestore import Store
from cardgen.layout.card import CardLayout
from cardgen.layout.errorcard import error_card
from cardgen.layout.imposition import Placement
from cardgen.layout.pictograms import DRAWINGS
from cardgen.layout.scenecodec import encode
from cardgen.layout.siderun import Runs
from cardgen.layout.streamed import Streamed
from cardgen.layout.streamed import uses as streamed_uses

boards = lazy("cardgen.boards")        # the board and rulebook checks load their printables when a
rulebook = lazy("cardgen.rulebook")    # game has them (0.25 s of imports a cards-only command skips)


@record
class Laid:
    """A game validated and laid out: what the printables draw from."""

    game: Game
    layout: CardLayout
    groups: dict[str, list[Placement]] = field(default_factory=dict)   # card size → copies in order
    draft: bool = False                 # a draft build: DRAFT marks, error cards, constraints as warnings
    relaxed: int = 0                    # construction problems a draft build turned into warnings
    absorbed: list[Problem] = field(default_factory=list)   # card errors printed as error cards
    error_cards: int = 0
    streamed: bool = False              # groups of ``layout.streamed.Streamed``: laid out as printed


DRAFT_TAG = " [draft build: printed anyway]"


def _relax(into: Problems, found: Problems) -> int:
    """A draft build: construction problems become warnings (the deck prints anyway)."""
    n = 0
    for p in found:
        if p.severity == "error":
            into.warning(p.rule, f"{p.message}{DRAFT_TAG}", p.loc, p.hint)
            n += 1
        else:
            into.extend([p])
    return n


def sources_key(game: Game) -> str:
    """Everything of a game a printable may read but the card pool: its rules folder (params,
    rulebook sources), maps, templates and art, deck-like files, components, settings."""
    files = [game.rules_dir, game.root / "maps" / game.slug, game.templates_dir, game.root / "art" / game.slug,
             *cols.collection_files(game)]
    return digest(files_digest(files), asdict(game.print), game.meta, game.printables,
                  [[c.id, c.kind, c.count, c.fields] for c in game.components])


def symbols_key(symbols: dict) -> str:
    """The exact content of the symbols (forms) a document may place."""
    return digest({n: [s.w, s.h, encode(s.items)] for n, s in sorted(symbols.items())})


def check_game(game: Game, problems: Problems, errors_before: int | None = None, draft: bool = False,
               store: Store | None = None) -> int:
    """Every content rule of the game: constraints over pool, components and kept decks.

    ``errors_before``: how many errors ``problems`` held before this game was loaded (other
    games' errors); by default, before this call. ``draft``: construction problems are
    reported as warnings; returns how many were.
    """
    if errors_before is None:
        errors_before = len(problems.errors)
    construction = Problems() if draft else problems
    check_drawings(game, problems)
    collections = {"cards": cols.pool(game), "components": cols.components(game)}
    constraints.evaluate(game.constraints, collections, game.params, construction)
    kept = {e.id for e in collections["cards"].entries}
    for card in game.cards:     # a card outside a closed set (a bad value, reported): not laid out either
        card.dangling = card.dangling or card.id not in kept
    for path in cols.collection_files(game):
        check_file(game, path, construction)
    pkg = gamehooks.package(game.slug)
    extra = pkg.check_game if pkg is not None else None
    if extra:
        extra(game, construction)
    relaxed = _relax(problems, construction) if draft else 0
    if set(game.printables) & {"maps", "board", "mats", "tokens", "reference"}:

        def check_boards(g: Game, p: Problems) -> dict[str, bytes]:
            boards.check_game(g, p)
            return {}
        cached_files(store, "boards-check", sources_key(game), game, problems, check_boards)
    if "rulebook" in game.printables and len(problems.errors) == errors_before:
        # The rulebook prints the content: while the content has errors, checking it would only
        # repeat them (a card that failed to load is also an unknown card of the rulebook).
        def check(g: Game, p: Problems) -> dict[str, bytes]:
            rulebook.check(g, p)
            return {}
        cached_files(store, "rulebook-check", sources_key(game), game, problems, check)
    return relaxed


def check_drawings(game: Game, problems: Problems) -> None:
    """ICON-DRAWING: an icon's ``draw:`` names a pictogram cardgen draws (else its glyph prints)."""
    for name, icon in game.icons.items():
        if icon.draw is not None and icon.draw not in DRAWINGS:
            problems.error("ICON-DRAWING", f"icon '{name}': cardgen draws no '{icon.draw}'", icon.draw_loc,
                           hint=did_you_mean(icon.draw, DRAWINGS) or f"drawings: {', '.join(sorted(DRAWINGS))}")


def check_file(game: Game, path: Path, problems: Problems) -> dict[str, Any] | None:
    """A deck-like file against the game's construction rules; returns computed figures."""
    kind, body, collections = cols.load_collection_file(path, game, problems)
    if not kind or body is None:
        return None
    constraints.evaluate(game.constraints, {c.kind: c for c in collections}, game.params, problems)
    for coll in collections:
        check_backs(game, coll, problems)
    pkg = gamehooks.package(game.slug)
    hook = pkg.check_file if pkg is not None else None
    report = hook(game, kind, body, problems) if hook else None
    summary = {"file": str(path), "kind": kind, "cards": sum(e.count for c in collections for e in c.entries)}
    if report:
        summary.update(report)
    listed = [(e.fields, e.count) for c in collections for e in c.entries]
    if any(n for _, n in listed):
        summary["statistics"] = deckstats.summary(game, listed)
    return summary


def check_backs(game: Game, coll: Any, problems: Problems) -> None:
    """DECK-BACKS: cards of one type in a deck are shuffled together, so they must look the same
    from behind, or players can tell what they will draw next. Compares the backs as drawn (a
    back template may show a card's set). Different card types may differ: they are kept apart."""
    by_id = {c.id: c for c in game.cards}
    cards = [by_id[e.id] for e in coll.entries if e.id in by_id and not by_id[e.id].dangling]
    layout = CardLayout(game, Problems())       # the cards' own problems are validate's to report
    for type_key in dict.fromkeys(c.type for c in cards):
        looks: dict[str, list[str]] = {}
        for c in (c for c in cards if c.type == type_key):
            looks.setdefault(digest(encode(layout.draw(c, "back"))), []).append(c.name)
        if len(looks) > 1:
            groups = sorted(looks.values(), key=len, reverse=True)
            shown = "; ".join(", ".join(g[:3]) + (" …" if len(g) > 3 else "") for g in groups[:3])
            problems.warning("DECK-BACKS", f"{coll.label} mixes {game.card_types[type_key].name} cards with "
                             f"{len(looks)} different backs ({shown}): players can tell what they will draw next",
                             coll.loc, hint="give the deck's cards one back, or keep them in separate decks")


def lay_out(game: Game, problems: Problems, draft: bool = False, store: Store | None = None) -> Laid:
    """Both sides of every copy of every card, grouped by card size. In a draft build a card
    that cannot be drawn right (or read at all) prints as an error card naming its problems."""
    layout = CardLayout(game, problems, store)
    laid = Laid(game, layout, draft=draft)
    order = list(game.card_types)
    cards = sorted(game.cards, key=lambda c: order.index(c.type))
    backs: dict[str, Sequence[Any] | None] = {}
    relaxed_at: dict[tuple[str, int], list[Problem]] = {}    # a card's own construction problems
    if draft:
        _unread_error_cards(laid, problems)
        for p in problems.items:
            if p.severity == "warning" and p.loc is not None and p.message.endswith(DRAFT_TAG):
                relaxed_at.setdefault((p.loc.file, p.loc.line), []).append(p)
    if layout.entries is not None and not draft:        # the fronts restored by runs where unchanged
        layout.runs["front"] = Runs(layout, layout.entries, "front", [c for c in cards if not c.dangling])
    for card in cards:
        if card.dangling and not draft:     # names a card that is not there: reported as CARD-REF
            continue
        mark = len(problems.items)
        front: Sequence[Any] = layout.draw_deferred(card, "front") if not card.dangling else []
        ct = game.card_types[card.type]
        back = _back(layout, card, backs)
        if draft:
            own = [p for loc in {card.loc, *card.field_locs.values()} if loc is not None     # naming it:
                   for p in relaxed_at.get((loc.file, loc.line), ())                         # not a count
                   if p.message.startswith(f"{card.id} (") or f"'{card.id}'" in p.message]   # it tops
            front = _error_front(laid, card, front, problems.items[mark:], problems, own)
        for k in range(card.copies):
            laid.groups.setdefault(ct.size, []).append(
                Placement(card.id, card.name, k + 1, front, back, game.print.bleed))
    if layout.entries is not None:      # the sides read and made, and their runs: one file for the next build
        for runs in layout.runs.values():
            runs.keep()
        layout.entries.save()
    return laid


def _back(layout: CardLayout, card: Card, backs: dict[str, Sequence[Any] | None]) -> Sequence[Any]:
    """A card's back: its type's, drawn from its first card, when the template is the same on
    every card (known by its content, not by the card drawn); else its own. ``backs``: by card
    type, the back drawn once or None (each card its own)."""
    back = backs.get(card.type, _UNSEEN)
    if back is _UNSEEN:
        tpl = layout.template_for(card, "back")
        back = backs[card.type] = None
        if tpl is not None and tpl.static_prefix() == len(tpl.elements):
            back = backs[card.type] = layout.draw(card, "back")
            layout.content_ids[id(back)] = (back, digest(encode(back)))
    return back if back is not None else layout.draw_deferred(card, "back")


_UNSEEN: Any = object()


def lay_out_streamed(game: Game, problems: Problems) -> Laid:
    """:func:`lay_out` (no draft, no cache) with each size's placements laid out as the sheets
    take them (``layout.streamed``): the forms are made now, each card when its sheet is drawn,
    so the cards' problems are known once the card sheets are (or :func:`finish`)."""
    layout = CardLayout(game, problems)
    laid = Laid(game, layout, streamed=True)
    order = list(game.card_types)
    made: dict[str | None, list] = {}
    groups: dict[str, Streamed] = {}
    by_type: dict[str, tuple[list, list]] = {}      # the forms a card places: its type's templates'
    for card in sorted(game.cards, key=lambda c: order.index(c.type)):
        if card.dangling:                   # names a card that is not there: reported as CARD-REF
            continue
        size = game.card_types[card.type].size
        group = groups.get(size)
        if group is None:
            group = groups[size] = Streamed(layout, game.print.bleed)
        uses = by_type.get(card.type)
        if uses is None:
            uses = by_type[card.type] = streamed_uses(layout, card, made)
        group.add(card, uses)
    laid.groups = groups            # type: ignore[assignment]   # a Streamed is read as a list is
    return laid


def finish(laid: Laid) -> None:
    """Every card of a streamed layout laid out and let go (its problems reported), for a build
    that stops before printing."""
    for group in laid.groups.values():
        for _ in group:
            pass


def _error_front(laid: Laid, card: Card, front: Sequence[Any], new: list[Problem], problems: Problems,
                 relaxed: Sequence[Problem] = ()) -> Sequence[Any]:
    """The card's front, or an error card when drawing it (or its refs) found errors, or when a
    construction rule the draft relaxed is broken by the card itself (a required field left out:
    never a silent "None" on a player-facing card)."""
    errs = [p for p in new if p.severity == "error"] + list(relaxed)
    if card.dangling:
        errs += [p for p in problems.errors if p.rule == "CARD-REF" and f"card '{card.id}'" in p.message]
        errs = errs or [Problem("CARD-REF", "error", "names a card that is not there", card.loc)]
    if not errs:
        return front
    ct = laid.game.card_types[card.type]
    laid.absorbed += errs
    laid.error_cards += card.copies
    return error_card(ct.width, ct.height, laid.game.print.bleed, f"{card.name} ({card.id})", errs)


def _unread_error_cards(laid: Laid, problems: Problems) -> None:
    """Cards that failed to load, and card files that could not be read, as error cards."""
    game = laid.game
    types = game.card_types
    if not types:
        return
    first = next(iter(types.values()))
    mine = {id(u): errs for u, errs in unread_problems(game, problems)}
    for u in game.unread_cards:
        ct = types.get(str(u.get("type")), first)
        n = u.get("copies", 1)
        n = n if isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 100 else 1
        errs = mine.get(id(u)) or [Problem("CARD-INVALID", "error", "the card failed its checks",
                                           getattr(u, "loc", None))]
        _add_error_cards(laid, ct, f"{u.get('name', '?')} ({u.get('id', '?')})", errs, n)
    for f in game.unread_files:
        errs = [p for p in problems.errors if p.loc is not None and p.loc.file == str(f)]
        _add_error_cards(laid, first, f"{f.name} could not be read", errs, 1)


def _add_error_cards(laid: Laid, ct: Any, title: str, errs: list[Problem], n: int) -> None:
    items = error_card(ct.width, ct.height, laid.game.print.bleed, title, errs)
    laid.absorbed += errs
    laid.error_cards += n
    for k in range(n):
        laid.groups.setdefault(ct.size, []).append(
            Placement(f"error:{title}", title, k + 1, items, items, laid.game.print.bleed))


def validate(root: Path, slug: str, problems: Problems, draft: bool | None = None,
             store: Store | None = None, stream: Callable[[Game], bool] | None = None) -> Laid | None:
    """Load, check and lay out a game. ``draft``: None follows the game's ``print.draft``;
    ``store``: the build cache (card layouts, slow checks); ``stream``: whether a game (not a
    draft, no store) is laid out as its card sheets are printed (:func:`lay_out_streamed`)."""
    before = len(problems.errors)
    memo = CardMemo(store, digest(code_fingerprint(store), files_digest([root / "rules" / slug]))) \
        if store is not None else None
    game = load_game(root, slug, problems, memo)
    load_catalogue(root, slug, problems)         # the game's rule catalogue, when it has one
    if game is None:
        return None
    draft = game.print.draft if draft is None else draft
    relaxed = check_game(game, problems, before, draft, store)
    if stream is not None and not draft and store is None and stream(game):
        return lay_out_streamed(game, problems)
    laid = lay_out(game, problems, draft, store)
    laid.relaxed = relaxed
    return laid
