"""Drawn diagrams in rulebooks: ``![caption](diagram:<name>)``.

``<name>`` is a top-level key of ``rules/<game>/diagrams.yaml``; its ``kind`` says what it draws:

``setup``  the table at the start of a game: the decks, boards and tokens in the middle, each
           player's cards at their seat (:mod:`cardgen.rulebook.diagram_setup`)
``flow``   steps of play in boxes joined by arrows (:mod:`cardgen.rulebook.diagram_flow`)

The diagram is described as data and drawn by this one framework module for every game; its texts
are Jinja2 with the chapters' context and its numbers come from params.yaml, so a number of the
rules is written once. It is drawn for the width of the page (a booklet's half page too) at printed
size: no text under 6.5 pt, never scaled down.

Problems: ``RULEBOOK-DIAGRAM`` at the image (an unknown diagram, with did-you-mean; no
diagrams.yaml) or at the diagram's own line in diagrams.yaml (an unknown kind, key, card type,
colour or step; a number that is not one); ``RULEBOOK-JINJA`` for a template error in its texts.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.yamlsrc import YDict, load_yaml, plain
from cardgen.rulebook import diagram_flow, diagram_setup
from cardgen.rulebook.context import build_context
from cardgen.rulebook.diagram_kit import RULE, DiagramPicture, Reader
from cardgen.rulebook.jinja import make_environment

SCHEME = "diagram"
FILE = "diagrams.yaml"
KINDS = ("setup", "flow")


class _Diagrams:
    """One game's diagrams.yaml, read once per rulebook."""

    def __init__(self, rulebook):
        self.rulebook = rulebook
        self.game = rulebook.game
        self.path: Path = self.game.rules_dir / FILE
        self._data: YDict | None = None
        self._loaded = False
        self._reader: Reader | None = None

    def data(self, problems: Problems) -> YDict | None:
        if not self._loaded:
            self._loaded = True
            if self.path.is_file():
                data = load_yaml(self.path, problems)
                if data is not None and not isinstance(data, YDict):
                    problems.error(RULE, f"{FILE} must map diagram names to diagrams", Loc(str(self.path), 1, 1))
                    data = None
                self._data = data
        return self._data

    def reader(self, problems: Problems) -> Reader:
        book = self.rulebook
        version = book.current or book.versions[-1]
        ctx = build_context(self.game, version, book.versions)
        env = make_environment([], sorted(ctx))
        params = plain(self.game.params) if isinstance(self.game.params, dict) else {}
        return Reader(lambda text: env.from_string(text).render(ctx), params, dict(self.game.colors or {}), problems)


def factory(rulebook):
    """The ``diagram:`` resolver for one rulebook."""
    diagrams = _Diagrams(rulebook)

    def resolve(target: str, alt: str, loc: Loc, problems: Problems):
        name = target.strip()
        data = diagrams.data(problems)
        if data is None:
            problems.error(RULE, f"no diagram '{name}': {rulebook.game.slug} has no rules/"
                           f"{rulebook.game.slug}/{FILE}", loc,
                           hint="describe the diagram there (see docs/rulebooks.md)")
            return None
        if name not in data:
            problems.error(RULE, f"no diagram '{name}' in {FILE}", loc,
                           hint=did_you_mean(name, [str(k) for k in data]) or
                           f"diagrams: {', '.join(str(k) for k in data) or 'none'}")
            return None
        spec = data[name]
        if not isinstance(spec, YDict):
            problems.error(RULE, f"diagram '{name}' must be a mapping with a kind", data.at(name))
            return None
        kind = spec.get("kind")
        if kind not in KINDS:
            problems.error(RULE, f"diagram '{name}': unknown kind '{kind}'" if kind else
                           f"diagram '{name}' has no kind", spec.at("kind") if kind else data.key_at(name),
                           hint=did_you_mean(str(kind), KINDS) or f"kinds: {', '.join(KINDS)}")
            return None
        r = diagrams.reader(problems)
        if kind == "setup":
            setup = diagram_setup.read(spec, r, rulebook.game)
            if setup is None:
                return None
            return DiagramPicture(lambda width: diagram_setup.draw(setup, width), keep_with_next=bool(alt))
        steps = diagram_flow.read(spec, r)
        if steps is None:
            return None
        return DiagramPicture(lambda width: diagram_flow.draw(steps, width), keep_with_next=bool(alt))

    return resolve


__all__ = ["SCHEME", "FILE", "KINDS", "factory"]

