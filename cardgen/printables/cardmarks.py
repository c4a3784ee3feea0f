"""What a card's front carries besides its design: its number in the game's set ("23/60") and
the edition it belongs to ("v1.0", the current rulebook's version), small, in the bottom-right
corner of the safe area, on a white tab that reads on any background (``print: card_numbers``,
on by default).

Numbers follow the game's card order (the order ``cardgen cards`` lists them); every copy of a
design carries the same number.
"""

from __future__ import annotations

from cardgen.content.model import Game
from cardgen.core.fonts import METRICS
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import YDict, load_yaml
from cardgen.scene import Rect, Text

FONT = "LiberationSans-Regular"
SIZE = 6.0          # pt: the smallest size the kit prints
PAD = 0.5           # mm around the text on its tab
INK = "#3a3632"


def edition(game: Game) -> str:
    """The current rulebook's version as a short code ("v1.0"); "" without a rulebook."""
    meta = game.rules_dir / "rulebook" / "rulebook.yaml"    # the rulebook checks it (RULEBOOK-META)
    raw = load_yaml(meta, Problems()) if meta.is_file() else None
    version = raw.get("version") if isinstance(raw, YDict) else None
    return f"v{version}" if isinstance(version, (str, int, float)) and str(version).strip() else ""


def numbering(game: Game) -> dict[str, str]:
    """card id → its printed number and edition, e.g. "23/60 · v1.0"."""
    code = edition(game)
    total = len(game.cards)
    return {c.id: f"{k}/{total}" + (f" · {code}" if code else "") for k, c in enumerate(game.cards, 1)}


def number_tab(label: str, trim: list[float] | tuple[float, ...], safe: float) -> list:
    """The tab with ``label`` in the bottom-right corner of the safe area of the card at ``trim``."""
    x, y, w, h = trim
    tw = METRICS.width_mm(label, FONT, SIZE)
    asc, desc = METRICS.ascent_mm(FONT, SIZE), METRICS.descent_mm(FONT, SIZE)
    right, bottom = x + w - safe, y + h - safe
    box_w, box_h = tw + 2 * PAD, asc + desc + 2 * PAD
    return [Rect(right - box_w, bottom - box_h, box_w, box_h, "#ffffff", None, 0.0, box_h / 3),
            Text(right - PAD, bottom - PAD - desc, label, FONT, SIZE, INK, "right")]


TINT = "#f3f1ed"     # an ink-saver back's fill: a light tint instead of full-bleed colour


def ink_saver_back(title: str, kind: str, trim: list[float] | tuple[float, ...], bleed: float, ink: str) -> list:
    """A card back that spends little ink (``print: ink_saver``): a light tint over the bleed, an
    outline just inside the trim, the card type and the game's title — still one back per type,
    and the same size and place as the full back it stands for."""
    x, y, w, h = trim
    inset = 2.0
    return [Rect(x - bleed, y - bleed, w + 2 * bleed, h + 2 * bleed, TINT),
            Rect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, None, ink, 0.5, 2.5),
            Text(x + w / 2, y + h / 2, kind.upper(), "LiberationSans-Bold", 14.0, ink, "center"),
            Text(x + w / 2, y + h / 2 + 6.0, title, FONT, 8.0, ink, "center")]
