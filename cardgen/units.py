"""Lengths with units. Every length is held in millimetres; a bare number means mm."""

from __future__ import annotations

import re

MM_PER = {"mm": 1.0, "cm": 10.0, "in": 25.4, "pt": 25.4 / 72.0}
PAPER_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4), "A3": (297.0, 420.0), "A5": (148.0, 210.0)}
_LEN = re.compile(r"^\s*(-?\d+(?:\.\d+)?|-?\.\d+)\s*(mm|cm|in|pt)?\s*$")


class UnitError(ValueError):
    """A value that is not a length."""


def length_mm(value: object) -> float:
    """``63mm``, ``2.5in``, ``10pt``, ``1.2cm`` or a bare number (mm) → millimetres."""
    if isinstance(value, bool):
        raise UnitError(f"expected a length such as '63mm' or '2.5in', got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        m = _LEN.match(value)
        if m:
            return float(m.group(1)) * MM_PER[m.group(2) or "mm"]
    raise UnitError(f"expected a length such as '63mm' or '2.5in', got {value!r}")


def mm_to_pt(v: float) -> float:
    return v * 72.0 / 25.4


def pt_to_mm(v: float) -> float:
    return v * 25.4 / 72.0
