"""The house's shape, checked: imports go one way, nothing imports the command line, the framework
imports no game, the play core stays small, and no module hides an import inside a function
(except the start-up guard and the optional dependencies listed below)."""

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
#: function-level imports of project modules allowed: the start-up guard (Ctrl-C during imports is
#: exit 130, so the command line is imported inside it)
STARTUP = {"cardgen/entry.py"}
#: the layers, bottom up: a module imports its own layer or a lower one, never a higher one
#: (``lazy("cardgen.x")`` counts as an import); the package root only holds the version
RANK = {"core": 0, "content": 1, "play": 2, "gamehooks": 3, "scene": 3, "layout": 4, "render": 4,
        "boards": 5, "rulebook": 6, "printables": 6, "builder": 7, "export": 8, "reference": 8, "simulate": 8,
        "serve": 9, "scaffold": 9, "testing": 9, "tune": 9, "games": 10, "cli": 11, "entry": 12}


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
        elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "lazy" and n.args
              and isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str)):
            out.append((n.args[0].value, n.lineno))     # a module loaded on first use is still imported
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
    allowed = ("cardgen.play", "cardgen.content.model", "cardgen.content.playlog", "cardgen.core.problems", "cardgen.core.options",
               "cardgen.core.params", "cardgen.core.record")
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
    new = {f: lines for f, lines in found.items() if f not in STARTUP}
    assert not new, f"imports inside functions (move them to the top of the module): {new}"


def test_no_module_over_the_size_limit():
    big = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 450}
    assert not big, f"modules over ~400 lines, split them by topic: {big}"


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "cardgen" else None


def _is_module(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_every_top_level_module_and_folder_has_a_layer():
    names = {p.stem for p in PKG.glob("*.py") if p.stem != "__init__"} | \
            {p.name for p in PKG.iterdir() if (p / "__init__.py").exists()}
    assert names - set(RANK) == set(), "give the new module or folder a layer in RANK (and in cardgen/README.md)"


def test_imports_go_down_the_layers():
    for name, tree in modules().items():
        src = _layer(name)
        if src is None:
            continue
        for mod, line in imported(name, tree, False):
            dst = _layer(mod)
            if dst is None or dst == src or not _is_module(mod):
                continue
            assert RANK[dst] < RANK[src], (f"{name}:{line} imports {mod}: layer '{src}' (rank {RANK[src]}) may only "
                                           f"import lower layers, not '{dst}' (rank {RANK[dst]})")
