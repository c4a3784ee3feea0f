"""The CLI only parses arguments and prints (issue 34): no module under cardgen/cli imports the
layout, the renderers or the printables — the build is :mod:`cardgen.builder.build`, one pipeline
every command uses — and the builder prints nothing."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

CLI = ROOT / "cardgen" / "cli"
BUILDER = ROOT / "cardgen" / "builder"
FORBIDDEN = ("cardgen.layout", "cardgen.render", "cardgen.printables")


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module a file imports, directly or through a lazy stand-in (``lazy("…")``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found += [(node.lineno, node.module)] + [(node.lineno, f"{node.module}.{a.name}") for a in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("lazy", "_lazy",
                                                                                                          "import_module"):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.lineno, node.args[0].value))
    return found


def test_no_cli_module_reaches_layout_render_or_printables() -> None:
    bad = [f"{p.relative_to(ROOT)}:{line} {mod}" for p in sorted(CLI.rglob("*.py")) for line, mod in _imports(p)
           if mod.startswith(FORBIDDEN)]
    assert not bad, bad


def test_the_builder_prints_nothing() -> None:
    bad = []
    for p in sorted(BUILDER.rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "print":
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} print")
            if isinstance(node, ast.Attribute) and node.attr == "echo" and getattr(node.value, "id", "") == "click":
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} click.echo")
            if isinstance(node, ast.Attribute) and node.attr in ("stdout", "stderr") and getattr(node.value, "id", "") == "sys":
                bad.append(f"{p.relative_to(ROOT)}:{node.lineno} sys.{node.attr}")
    assert not bad, bad
