"""Lengths with units. Every length is held in millimetres; a bare number means mm."""

from __future__ import annotations

import math
import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PAPER_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4), "A3": (297.0, 420.0), "A5": (148.0, 210.0),
            "Tabloid": (279.4, 431.8)}
MAX_LENGTH_MM = 10_000.0     # ten metres: no sheet, card or board is larger; NaN and infinity never pass
_LEN = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*$")


class UnitError(ValueError):
    """A value that is not a length."""


def length_mm(value: object) -> float:
    """``63mm``, ``2.5in``, ``10pt``, ``1.2cm`` or a bare number (mm) → millimetres."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length such as '63mm' or '2.5in', got {value!r}")
    mm: float | None = None
    try:
        if isinstance(value, (int, float)):
            mm = float(value)
        elif isinstance(value, str):
            m = _LEN.match(value)
            if m:
                mm = float(m.group(1)) * MM_PER[m.group(2) or "mm"]
    except OverflowError:
        mm = math.inf
    if mm is not None and math.isfinite(mm) and abs(mm) <= MAX_LENGTH_MM:
        return mm
    if mm is not None:
        raise UnitError(f"a length must be a finite number of at most {MAX_LENGTH_MM:g} mm, got {_short(value)}")
    raise UnitError(f"expected a length such as '63mm' or '2.5in', got {_short(value)}")


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text)} characters)"


def mm_to_pt(v: float) -> float:
    return v * 72.0 / 25.4


def pt_to_mm(v: float) -> float:
    return v * 25.4 / 72.0
