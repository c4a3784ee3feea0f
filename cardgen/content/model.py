"""The model: plain data for a game, its cards and its settings. No I/O here."""

from __future__ import annotations

from dataclasses import field
from pathlib import Path
from typing import Any

from cardgen.core.options import Opt
from cardgen.core.problems import Loc
from cardgen.core.record import maker, record


@record
class Card:
    """One card design; ``copies`` is how many the game holds."""

    id: str
    name: str
    type: str
    copies: int
    fields: dict[str, Any]
    loc: Loc
    field_locs: dict[str, Loc] = field(default_factory=dict)
    own: frozenset = frozenset()      # keys the card writes itself (not from its file's defaults)
    dangling: bool = False            # a ``ref`` field names no loaded card: not laid out

    def own_at(self, name: str) -> Loc:
        """Where the card itself writes ``name``, else the card's own line."""
        return self.field_locs.get(name, self.loc) if name in self.own else self.loc

    def at(self, name: str) -> Loc:
        return self.field_locs.get(name, self.loc)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def context(self) -> dict[str, Any]:
        """What a template sees as ``card``."""
        return self.fields

    def values_text(self) -> bytes | None:
        """``[id, name, type, copies, fields]`` as the lay-out's key digests them, when the card
        holds them as that text (a card kept by the card memo whose fields were never read:
        ``content.keptcard``); None: make the key from the values."""
        return None

    def may_hold_brace(self) -> bool:
        """Whether a value of the card may hold ``{`` (an icon's name): False only when known not to."""
        return True


#: ``Card(...)`` made without the class's call (:func:`cardgen.core.record.maker`): a deck's cards
make_card = maker(Card)


@record
class CardType:
    """A card type from game.yaml: its templates, its size and its fields' specs."""

    key: str
    name: str
    template: str
    back: str | None
    size: str
    width: float
    height: float
    fields: dict[str, Opt]
    loc: Loc
    template_loc: Loc | None = None
    back_loc: Loc | None = None


@record
class Component:
    """A non-card component (token, die, board piece) with its count."""

    id: str
    name: str
    kind: str
    count: int
    fields: dict[str, Any]
    loc: Loc


@record
class PrintSettings:
    """How a game prints: paper, bleed, duplex, marks, margins (mm)."""

    paper: str = "A4"
    page_w: float = 210.0
    page_h: float = 297.0
    bleed: float = 3.0
    duplex: str = "long"
    offset: tuple[float, float] = (0.0, 0.0)
    crop_marks: bool = True
    draft: bool = False          # build as a draft unless told otherwise
    safe: float = 3.0            # safe margin inside the trim, mm
    gutter: float = 0.0          # space between neighbouring cards' bleeds, mm (crop marks go there)
    margin: float = 4.2          # the printer's unprintable margin, mm: no card, bleed or mark in it
    registration: str = "none"   # "silhouette": a cutting machine's registration marks and cut files
    # where each printer setting came from: "flag", "printer", "default printer", "game" or "built-in"
    origin: dict[str, str] = field(default_factory=dict)
    card_numbers: bool = True    # each front's number in the set and edition ("23/60 · v1.0")
    ink_saver: bool = False      # backs drawn as a light tint with an outline, not full-bleed colour
    layout: str = "duplex"       # "fold": front and back side by side on one side, a fold line between
    boards: str = "tiled"        # "poster": each board or mat one page of its own size (no tiling)
    mats: str = "full"           # "compact": a mat that offers a compact layout prints it (fewer sheets)


@record
class Icon:
    """An inline icon a game names: its glyph, colour and an optional drawn pictogram."""

    key: str
    glyph: str
    color: str | None
    draw: str | None = None     # its drawn pictogram (cardgen.layout.pictograms), wherever it stands
    draw_loc: Loc | None = None
    words: str | None = None    # what it stands for (the rulebook's Icons glossary)


@record
class Game:
    """A game as data: everything the validator, layout, checker and rulebook read."""

    slug: str
    title: str
    root: Path
    meta: dict[str, Any]
    params: dict[str, Any]      # rules/<game>/params.yaml as read (a YDict; empty when the file is)
    card_types: dict[str, CardType]
    cards: list[Card]
    components: list[Component]
    constraints: list[Any]
    colors: dict[str, str]
    icons: dict[str, Icon]
    print: PrintSettings
    printables: list[str]
    fonts: dict[str, str]
    game_file: Path
    unread_cards: list[dict[str, Any]] = field(default_factory=list)   # raw keys of cards that failed to load
    unread_files: list[Path] = field(default_factory=list)             # card files that could not be read
    unread_components: list[dict[str, Any]] = field(default_factory=list)   # components that failed their checks
    failed_ids: set[str] = field(default_factory=set)   # ids of cards that failed to load or lie in unread files
    icon_slips: dict[str, frozenset[str]] = field(default_factory=dict)   # card id → unknown icons its text
    #                                                  names (reported with the content: the layout does not again)

    @property
    def cards_by_id(self) -> dict[str, Card]:
        return {c.id: c for c in self.cards}

    @property
    def rules_dir(self) -> Path:
        return self.root / "rules" / self.slug

    @property
    def cards_dir(self) -> Path:
        return self.root / "cards" / self.slug

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates" / self.slug

    @property
    def maps_dir(self) -> Path:
        return self.root / "maps" / self.slug
