"""The house's shape, checked: imports go one way, nothing imports the command line, the framework
imports no game, the play core stays small, and no module hides an import inside a function
(except the start-up guard and the optional dependencies listed below, and the known debt
that this test keeps from growing)."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.conftest import ROOT

PKG = ROOT / "cardgen"
CLI_PREFIX = "cardgen.cli"     # the command line package: cardgen.cli and its modules
ENTRY = "cardgen.entry"
#: heavy or optional libraries a command loads only when it runs
OPTIONAL = {"openpyxl", "svglib", "reportlab.graphics", "uvicorn", "starlette", "watchfiles", "dask", "distributed",
            "matplotlib", "jsonschema"}
#: function-level imports of project modules that remain (known debt, not to grow): the start-up
#: guard (Ctrl-C during imports) and the command line's lazy subcommands, the rulebook/board
#: picture schemes that still register on import
DEBT = {"cardgen/entry.py", "cardgen/cli/rules.py", "cardgen/cli/authoring.py",
        "cardgen/builder/pipeline.py", "cardgen/rulebook/printable.py", "cardgen/rulebook/presets.py",
        "cardgen/boards/common.py", "cardgen/boards/maps.py", "cardgen/serve/app.py", "cardgen/serve/preview.py",
        "cardgen/simulate/command.py", "cardgen/simulate/backends.py", "cardgen/printables/__init__.py"}


def modules() -> dict[str, ast.Module]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        out[name] = ast.parse(p.read_text(encoding="utf-8"))
    return out


def imported(name: str, tree: ast.Module, top_only: bool) -> list[tuple[str, int]]:
    """Absolute module names a module imports (top level only, or anywhere)."""
    is_pkg = (PKG / Path(*name.split(".")[1:]) / "__init__.py").exists() if name != "cardgen" else True
    base = name.split(".") if is_pkg else name.split(".")[:-1]
    nodes = tree.body if top_only else list(ast.walk(tree))
    out = []
    for n in nodes:
        if isinstance(n, ast.Import):
            out += [(a.name, n.lineno) for a in n.names]
        elif isinstance(n, ast.ImportFrom):
            if n.level:
                mod = ".".join(base[: len(base) - n.level + 1] + ([n.module] if n.module else []))
            else:
                mod = n.module or ""
            out.append((mod, n.lineno))
            out += [(f"{mod}.{a.name}", n.lineno) for a in n.names]
    return out


def _is_cli(name: str) -> bool:
    return name == ENTRY or name == CLI_PREFIX or name.startswith(CLI_PREFIX + ".")


def test_nothing_imports_the_command_line():
    for name, tree in modules().items():
        if _is_cli(name):
            continue
        bad = [(m, ln) for m, ln in imported(name, tree, False) if _is_cli(m)]
        assert not bad, f"{name} imports the command line: {bad}"


def test_the_framework_imports_no_game_package():
    for name, tree in modules().items():
        if name.startswith("cardgen.games.") or _is_cli(name):
            continue
        bad = [(m, ln) for m, ln in imported(name, tree, False) if m.startswith("cardgen.games.")]
        assert not bad, f"{name} imports a game: {bad} (the framework finds games through cardgen.gamehooks)"


def test_the_play_core_depends_only_on_the_core():
    allowed = ("cardgen.play", "cardgen.content.model", "cardgen.content.playlog", "cardgen.core.problems", "cardgen.core.options")
    for name, tree in modules().items():
        if name != "cardgen.play" and not name.startswith("cardgen.play."):
            continue
        for m, ln in imported(name, tree, False):
            if m.startswith("cardgen.") and not m.startswith(allowed):
                raise AssertionError(f"{name}:{ln} imports {m}: the play core stays below content and layout")


def test_no_new_function_level_imports():
    found = {}
    for p in sorted(PKG.rglob("*.py")):
        tree = ast.parse(p.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for sub in ast.walk(fn):
                    if isinstance(sub, (ast.Import, ast.ImportFrom)):
                        mod = sub.module if isinstance(sub, ast.ImportFrom) else sub.names[0].name
                        if sub.level == 0 if isinstance(sub, ast.ImportFrom) else True:
                            if mod and mod.split(".")[0] in {m.split(".")[0] for m in OPTIONAL}:
                                continue
                        found.setdefault(str(p.relative_to(ROOT)), []).append(sub.lineno)
    new = {f: lines for f, lines in found.items() if f not in DEBT}
    assert not new, f"imports inside functions (move them to the top of the module): {new}"


def test_no_module_over_the_size_limit():
    big = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not big, f"modules over ~400 lines, split them by topic: {big}"
