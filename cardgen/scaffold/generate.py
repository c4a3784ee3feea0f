"""The generated files of a new game, written right after ``cardgen new`` wrote its sources, so
the suite passes at once: ``docs/rules/<slug>.md`` (from the catalogue), the game's section of
``docs/playtest-logs.md`` (its guide, and the event reference regenerated), the log schema
``docs/schemas/<slug>.schema.json`` and the golden traces of its example logs
(``tests/goldens/traces/<slug>/``, what ``cardgen check --trace`` prints). ``make goldens``
writes the same files; this spares a designer the step."""

from __future__ import annotations

import contextlib
import importlib
from pathlib import Path

from cardgen import gamehooks
from cardgen.builder import check as checker
from cardgen.content.catalogue import load_catalogue
from cardgen.core import sources
from cardgen.core.problems import Problems
from cardgen.reference import logschema
from cardgen.reference.ruledocs import catalogue_markdown
from cardgen.scaffold import Spec, playtest_guide


def importable(slug: str) -> bool:
    """The new game package can be imported (from the project's games/, see cardgen.gamehooks)."""
    importlib.invalidate_caches()
    try:
        return gamehooks.package(slug) is not None
    except ImportError:
        return False


def trace(root: Path, slug: str, log: Path) -> str:
    """``cardgen check SLUG LOG --trace`` as printed from the project folder."""
    with contextlib.chdir(root):
        done = checker.check_output(root, slug, log, strict=False, trace=True, fmt="text")
    return done.stdout.replace(str(root) + "/", "")


def generate(root: Path, spec: Spec) -> tuple[list[Path], list[str]]:
    """Write the generated files; returns (files written, what is left to do)."""
    written: list[Path] = []
    todo: list[str] = []
    cat = load_catalogue(root, spec.slug, Problems())
    if cat is not None:
        p = root / "docs" / "rules" / f"{spec.slug}.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(catalogue_markdown(cat, root), encoding="utf-8")
        written.append(p)
    docs = logschema.docs_path(root)
    if docs.is_file():
        text = sources.read_bytes(docs, root).decode("utf-8")
        if f"\n## {spec.title}\n" not in text and "\n## Event reference\n" in text:
            i = text.index("\n## Event reference\n") + 1
            docs.write_text(text[:i] + playtest_guide(spec) + text[i:], encoding="utf-8")
            written.append(docs)
    if not importable(spec.slug):
        todo.append("the new game package cannot be imported (see the error above, or `cardgen check`), so its "
                    "log schema, event reference and golden traces are not written")
        return written, todo
    engine = gamehooks.engine(spec.slug)
    schema = logschema.schema_path(root, spec.slug)
    schema.parent.mkdir(parents=True, exist_ok=True)
    schema.write_text(logschema.render(logschema.log_schema(spec.slug, engine, spec.title)), encoding="utf-8")
    written.append(schema)
    if docs.is_file():
        docs.write_text(logschema.refresh_docs(sources.read_bytes(docs, root).decode("utf-8"), logschema.docs_reference(root)),
                        encoding="utf-8")
    goldens = root / "tests" / "goldens" / "traces"
    if goldens.is_dir():
        for log in sorted((root / "examples" / "logs" / spec.slug).glob("*.yaml")):
            g = goldens / spec.slug / f"{log.stem}.txt"
            g.parent.mkdir(parents=True, exist_ok=True)
            g.write_text(trace(root, spec.slug, log), encoding="utf-8")
            written.append(g)
    return written, todo
