"""Collections the constraints run over: the card pool, components, and deck-like files
(decks, parties, builds) — loaded from YAML anywhere on disk."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardgen.content.constraints import Collection, Entry
from cardgen.content.entries import ANY_KEY
from cardgen.content.model import Card, Game
from cardgen.core.lazymod import lazy
from cardgen.core.options import Opt, check_value
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, YList, load_yaml

difflib = lazy("difflib")       # "did you mean": only for a misspelt key


class CardEntry(Entry):
    """A card of the pool as an entry: its fields and positions read from the card when asked
    (a kept card's are then decoded: a pool no constraint reads decodes none)."""

    def __init__(self, card: Card) -> None:
        self.id, self.name, self.count = card.id, card.name, card.copies
        self._card = card
        self._set: dict[str, Any] = {}

    @property                                   # type: ignore[override]
    def fields(self) -> dict[str, Any]:
        return self._set["fields"] if "fields" in self._set else self._card.fields

    @fields.setter
    def fields(self, value: dict[str, Any]) -> None:
        self._set["fields"] = value

    @property                                   # type: ignore[override]
    def loc(self) -> Loc:
        return self._set["loc"] if "loc" in self._set else self._card.own_at("copies")

    @loc.setter
    def loc(self, value: Loc) -> None:
        self._set["loc"] = value

    @property                                   # type: ignore[override]
    def field_locs(self) -> dict[str, Loc]:
        return self._set["field_locs"] if "field_locs" in self._set else self._card.field_locs

    @field_locs.setter
    def field_locs(self, value: dict[str, Loc]) -> None:
        self._set["field_locs"] = value

    @property                                   # type: ignore[override]
    def card_loc(self) -> Loc | None:
        return self._set["card_loc"] if "card_loc" in self._set else self._card.loc

    @card_loc.setter
    def card_loc(self, value: Loc | None) -> None:
        self._set["card_loc"] = value


def pool(game: Game) -> Collection:
    """The card pool. Cards that failed to load, cards naming a card that is not there and the
    cards of unreadable files are known but invalid: the counts that may include them wait."""
    loc = Loc(str(game.cards_dir), 0, 0)
    entries: list[Entry] = [CardEntry(c) for c in game.cards if not c.dangling]
    unread = list(game.unread_cards)
    for c in game.cards:
        if c.dangling:
            raw = YDict(c.fields)
            raw.bad = frozenset(k for k, o in game.card_types[c.type].fields.items()    # type: ignore[attr-defined]
                                if o.ref or (o.item and o.item.ref))
            unread.append(raw)
    if game.unread_files:
        unknown = YDict()
        unknown.bad = frozenset({ANY_KEY})          # type: ignore[attr-defined]
        unread.append(unknown)
    return Collection("cards", entries, loc, f"the {game.title} card pool", unread=unread,
                      unreadable=[str(p) for p in game.unread_files])


def components(game: Game) -> Collection:
    loc = Loc(str(game.cards_dir), 0, 0)
    return Collection("components", [Entry(c.id, c.name, c.fields, c.count, c.loc) for c in game.components],
                      loc, f"the {game.title} components", unread=list(game.unread_components))


def deck_kinds(game: Game) -> dict[str, Any]:
    """Deck-like file kinds the game declares in game.yaml under ``collections``."""
    return dict(game.meta.get("collections") or {})


def entries_from(items: Any, game: Game, problems: Problems, what: str, where: Loc | None = None,
                 unread: list[dict] | None = None) -> list[Entry]:
    """``{id: count}`` or ``[{id, count}]`` or ``[id, id, …]`` → entries; unknown ids are problems.

    A card that failed to load (reported at its own line) is known but invalid: naming it is no
    problem; its raw keys go to ``unread`` so the counts that may include it wait."""
    by_id = game.cards_by_id
    raw_of = {u.get("id"): u for u in game.unread_cards}
    out: list[Entry] = []

    def add(cid: Any, count: Any, loc: Loc) -> None:
        if not isinstance(cid, str):
            problems.error("YAML-TYPE", f"a card id in {what} must be text, not {cid!r}", loc)
            return
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            problems.error("YAML-TYPE", f"the count of '{cid}' in {what} must be a whole number ≥ 0", loc)
            return
        card = by_id.get(cid)
        if card is None and (cid in game.failed_ids or len(by_id) < len(game.cards)):
            # known but invalid — or, while an id is used twice (CARD-DUPLICATE-ID), maybe that card
            if unread is not None:
                unread.append(raw_of.get(cid) or _unknown(cid))
            return
        if card is None:
            problems.error("CARD-UNKNOWN-ID", f"{what} names card '{cid}', which does not exist in {game.title}",
                           loc, hint=did_you_mean(cid, by_id))
            return
        out.append(Entry(cid, card.name, card.fields, count, loc))

    if isinstance(items, YDict):
        for cid, n in items.items():
            add(cid, n, items.key_at(cid))
    elif isinstance(items, YList):
        for i, it in enumerate(items):
            if isinstance(it, YDict):
                extra = set(it) - {"id", "count"}
                for k in extra:
                    problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in a card line of {what}", it.key_at(k),
                                   hint=did_you_mean(k, ("id", "count")))
                add(it.get("id"), it.get("count", 1), it.at("id"))
            else:
                add(it, 1, items.at(i))
    elif items is not None:
        problems.error("YAML-TYPE", f"the cards of {what} must be a mapping id → count or a list",
                       getattr(items, "loc", None) or where)
    return out


def _unknown(cid: str) -> YDict:
    """A card of an unreadable file: nothing known of it but its id."""
    raw = YDict({"id": cid})
    raw.bad = frozenset({ANY_KEY})      # type: ignore[attr-defined]
    return raw


def load_collection_file(path: Path, game: Game, problems: Problems) -> tuple[str, Any, list[Collection]]:
    """A deck-like file → (kind, its document, the collections the constraints check).

    The file's single top-level key names its kind (e.g. ``deck:``), as declared in
    game.yaml ``collections``. A game's engine may read more from the document.
    """
    n_before = len(problems)
    doc = load_yaml(path, problems)
    kinds = deck_kinds(game)
    if doc is None and len(problems) == n_before:
        problems.error("YAML-TYPE", f"the file is empty; a {game.title} file holds one of: {', '.join(kinds)}",
                       Loc(str(path), 1, 1))
        return "", None, []
    if not isinstance(doc, YDict) or len(doc) != 1:
        if doc is not None:
            problems.error("YAML-TYPE", f"a {game.title} file must hold exactly one of: {', '.join(kinds)}",
                           getattr(doc, "loc", Loc(str(path), 1, 1)))
        return "", None, []
    kind = next(iter(doc))
    if kind not in kinds:
        problems.error("YAML-UNKNOWN-KEY", f"'{kind}' is not a {game.title} file kind", doc.key_at(kind),
                       hint=did_you_mean(str(kind), kinds) or f"expected one of: {', '.join(kinds)}")
        return "", None, []
    body = doc[kind]
    if not isinstance(body, YDict):
        problems.error("YAML-TYPE", f"'{kind}' must be a mapping", doc.at(kind))
        return kind, None, []
    allowed = set((kinds[kind] or {}).get("keys", [])) | {"name", "cards", "notes"}
    slips = set()           # keys that are absent because they are misspelt: what reads them waits
    for k in body:
        if k not in allowed:
            near = difflib.get_close_matches(str(k), sorted(allowed), n=1, cutoff=0.6)
            problems.error("YAML-UNKNOWN-KEY", f"unknown key '{k}' in {kind} file", body.key_at(k),
                           hint=did_you_mean(str(k), allowed))
            slips |= {n for n in near if n not in body}
    if slips - {"name", "notes"}:
        # its cards (or a key the game's own checks read) are unknown: counting them would only
        # repeat the slip as deck-size problems (one mistake, one problem)
        return kind, None, []
    for key in ("name", "notes"):          # free text, but text: a list or mapping is a mistake
        if key in body and body[key] is not None:
            ok, text = check_value(body[key], Opt("str"), body.at(key), problems, f"'{key}' of the {kind} file")
            body[key] = text if ok else None
    name = body.get("name") or path.stem
    label = f"{kind} '{name}'"
    unread: list[dict] = []
    entries = entries_from(body.get("cards"), game, problems, label, body.at("cards"), unread)
    col = Collection(kind, entries, body.key_at("cards") if "cards" in body else body.loc, label, unread=unread)
    return kind, body, [col]


def collection_files(game: Game) -> list[Path]:
    """Every deck-like file kept with the game (in the folders its kinds declare)."""
    out: list[Path] = []
    for _kind, spec in deck_kinds(game).items():
        folder = (spec or {}).get("folder")
        if folder:
            out += sorted((game.cards_dir / folder).glob("*.yaml"))
    return sorted(set(out))
