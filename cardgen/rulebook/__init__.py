"""Rulebooks: each game's rules typeset from Markdown + YAML metadata, numbers from the game's YAML.

Sources: ``rules/<game>/rulebook/`` (current version) and ``rules/<game>/versions/<v>/`` (older
ones), each with ``rulebook.yaml`` (title, version, edition, date, …) and Markdown chapters
that read game numbers through Jinja2. See docs/rulebooks.md.

Public API::

    Rulebook(game, problems, layout=None)   # versions, chapters(), sections(), changes(), pdf(), files(), check()
    build(laid, problems=…)                  # the "rulebook" printable
    check(game, problems)                    # all rulebook problems, no typesetting (for validate)
    register_image_scheme(name, factory)     # ![alt](name:target) images from other pipelines
    booklet_order(n), impose_booklet(pdf, sheet_w_mm, sheet_h_mm)
    load_versions(game, problems), find_version(versions, name), diff(), format_text()
"""

from cardgen.rulebook import presets as presets  # registers the preset: image scheme
from cardgen.rulebook.booklet import booklet_order
from cardgen.rulebook.booklet import impose as impose_booklet
from cardgen.rulebook.diff import Change, Section, diff, format_text
from cardgen.rulebook.printable import IMAGE_SCHEMES, Rulebook, build, check, register_image_scheme
from cardgen.rulebook.source import META_FILE, Version, find_version, load_versions

__all__ = ["Rulebook", "build", "check", "register_image_scheme", "IMAGE_SCHEMES", "booklet_order",
           "impose_booklet", "Change", "Section", "diff", "format_text", "META_FILE", "Version",
           "find_version", "load_versions"]
