"""game.yaml ``fonts``: the four text roles a template draws with, each a bundled font."""

from __future__ import annotations

from cardgen.core.fonts import available as available_fonts
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.yamlsrc import YDict

FONT_ROLES = {"regular": "LiberationSans-Regular", "bold": "LiberationSans-Bold",
              "italic": "LiberationSans-Italic", "bolditalic": "LiberationSans-BoldItalic"}


def checked_fonts(raw: YDict, problems: Problems) -> dict[str, str]:
    """game.yaml ``fonts``: a bundled font for some of the four roles; the others keep their default."""
    fonts = dict(FONT_ROLES)
    bundled = available_fonts()
    for role, fname in raw.items():
        if role not in FONT_ROLES:
            problems.error("YAML-UNKNOWN-KEY", f"unknown font role '{role}' in game.yaml fonts", raw.key_at(role),
                           hint=did_you_mean(str(role), FONT_ROLES) or f"roles: {', '.join(FONT_ROLES)}")
        elif not isinstance(fname, str) or fname not in bundled:
            problems.error("YAML-TYPE", f"font {fname!r} for '{role}' is not a bundled font", raw.at(role),
                           hint=did_you_mean(str(fname), bundled) or f"bundled: {', '.join(bundled)}")
        else:
            fonts[role] = fname
    return fonts
