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
#: cardgen's own modules that load on first use (``core.lazymod``: the others are plain imports), each
#: saving more than 5 ms of start-up to the commands that never use it (measured with ``python -X importtime``
#: and a timed import after ``import cardgen.entry``; a comment at each says why). The list only shrinks:
#: a new stand-in fails the test, and so does one listed here that the code no longer has.
LAZY_OWN = {
    # the element kinds: the first one drawn pulls 0.1-0.5 s (text: fonts and fitting; rect: the pen), and
    # `cardgen --help` and `validate` load the table without drawing
    "cardgen/layout/elements/__init__.py": {f"cardgen.layout.elements.{k}" for k in (
        "rect", "frame", "line", "text", "badge", "icon", "image", "footprint", "art")},
    "cardgen/layout/templates.py": {"cardgen.core.sandbox"},         # Jinja (~0.1 s): only for an expression
    "cardgen/gamehooks.py": {"cardgen.play.package"},                 # ~10 ms; gamehooks is being rewritten
    "cardgen/reference/explain.py": {"cardgen.rulebook", "cardgen.rulebook.jinja"},     # the rulebook: > 0.4 s
    "cardgen/cli/authoring.py": {"cardgen.serve.app", "cardgen.serve.preview",          # starlette, uvicorn
                                 "cardgen.reference.editorschema"},                     # the boards' specs: 0.1 s
    "cardgen/cli/rules.py": {"cardgen.rulebook", "cardgen.rulebook.diff"},              # typesetting: > 0.4 s
    "cardgen/builder/pipeline.py": {"cardgen.boards", "cardgen.rulebook"},              # 0.25 s: boards' games only
    "cardgen/printables/__init__.py": {"cardgen.boards", "cardgen.rulebook",            # the same, for a build
                                       "cardgen.printables.readme"},                    # the kit's readme: boards
}
#: the layers, bottom up: a module imports its own layer or a lower one, never a higher one
#: (a module loaded by name — ``lazy("cardgen.x")``, ``importlib.import_module`` and their aliases and
#: wrappers — counts as an import); the package root only holds the version. The printables table
#: reaches the rulebook and the boards, so it sits above both.
RANK = {"core": 0, "content": 1, "play": 2, "gamehooks": 3, "scene": 3, "layout": 4, "render": 4,
        "boards": 5, "rulebook": 6, "printables": 7, "builder": 8, "export": 9, "reference": 9, "simulate": 9,
        "serve": 10, "scaffold": 10, "testing": 10, "tune": 10, "games": 11, "cli": 12, "entry": 13}
#: what a game package may import: the layers a game needs (its data, the play core, the scene and the
#: drawing layers for printables of its own, gamehooks for its own hooks) — never the builder, the
#: printables table, export, simulate, serve or the command line, which call the game, not the reverse
GAME_LAYERS = {"core", "content", "play", "scene", "gamehooks", "layout", "render", "boards", "games"}


def modules() -> dict[str, ast.Module]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(ROOT).with_suffix("")
        name = ".".join(rel.parts[:-1] if rel.name == "__init__" else rel.parts)
        out[name] = ast.parse(p.read_text(encoding="utf-8"))
    return out


LAZYMOD = "cardgen.core.lazymod"


def _loader_of(call: ast.Call, loaders: dict[str, int]) -> int | None:
    """The index of the module-name argument if ``call`` loads a module by name: ``importlib.import_module``,
    ``lazy`` (or ``lazymod.lazy``) and a name bound to either or to a function that wraps one."""
    f = call.func
    if isinstance(f, ast.Name):
        return loaders.get(f.id)
    if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
        if (f.value.id, f.attr) == ("importlib", "import_module") or f"{f.value.id}.{f.attr}" in loaders:
            return loaders.get(f"{f.value.id}.{f.attr}", 0)
    return None


def loaders(tree: ast.Module) -> dict[str, int]:
    """Names in a module that load a module given by name (→ which argument is the name): what it imports of
    ``cardgen.core.lazymod.lazy`` (under any name), aliases (``load = lazy``) and functions that pass one of
    their parameters on to a loader (``def _lazy(module, …): … import_module(module, __package__)``)."""
    out: dict[str, int] = {"importlib.import_module": 0}
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module == LAZYMOD:
            out.update({a.asname or a.name: 0 for a in n.names if a.name == "lazy"})
        elif isinstance(n, ast.ImportFrom) and n.module == "cardgen.core":
            out.update({f"{a.asname or a.name}.lazy": 0 for a in n.names if a.name == "lazymod"})
        elif isinstance(n, ast.Import):
            out.update({f"{a.asname}.lazy": 0 for a in n.names if a.name == LAZYMOD and a.asname})
        elif isinstance(n, ast.ImportFrom) and n.module == "importlib":
            out.update({a.asname or a.name: 0 for a in n.names if a.name == "import_module"})
    grew = True
    while grew:             # aliases and wrappers of wrappers
        grew = False
        for n in ast.walk(tree):
            found: int | None = None
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                v = n.value
                key = v.id if isinstance(v, ast.Name) else (f"{v.value.id}.{v.attr}" if isinstance(v, ast.Attribute)
                                                           and isinstance(v.value, ast.Name) else None)
                found, name = out.get(key) if key else None, n.targets[0].id
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                params = [a.arg for a in n.args.posonlyargs + n.args.args]
                name = n.name if not isinstance(n, ast.Lambda) else ""
                for c in ast.walk(n):
                    i = _loader_of(c, out) if isinstance(c, ast.Call) else None
                    if i is not None and len(c.args) > i and isinstance(c.args[i], ast.Name) and c.args[i].id in params:
                        found = params.index(c.args[i].id)
            if found is not None and name and out.get(name) != found:
                out[name] = found
                grew = True
    return out


def _absolute(target: str, package: str) -> str:
    """``importlib``'s resolution of a relative module name against ``package``."""
    level = len(target) - len(target.lstrip("."))
    if not level:
        return target
    base = package.split(".")[: len(package.split(".")) - level + 1]
    return ".".join(base + ([target[level:]] if target[level:] else []))


def _base(name: str) -> list[str]:
    """The package a module's relative imports start from."""
    is_pkg = (PKG / Path(*name.split(".")[1:]) / "__init__.py").exists() if name != "cardgen" else True
    return name.split(".") if is_pkg else name.split(".")[:-1]


def loaded_by_name(name: str, tree: ast.Module) -> list[tuple[str, int]]:
    """Modules a module loads by name (``lazy("cardgen.x")``, ``importlib.import_module``, their aliases and
    wrappers), as absolute names; a name computed at run time (a game's slug) is not a layer's."""
    load, out = loaders(tree), []
    for n in ast.walk(tree):
        if isinstance(n, ast.Call) and (i := _loader_of(n, load)) is not None and len(n.args) > i:
            arg = n.args[i]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.append((_absolute(arg.value, ".".join(_base(name))), n.lineno))
    return out


def imported(name: str, tree: ast.Module, top_only: bool) -> list[tuple[str, int]]:
    """Absolute module names a module imports (top level only, or anywhere): import statements, and
    modules loaded by name (loaded on first use: still imported)."""
    base = _base(name)
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
    return out + loaded_by_name(name, tree)


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


def test_a_game_imports_only_the_layers_a_game_needs():
    for name, tree in modules().items():
        if not name.startswith("cardgen.games."):
            continue
        for mod, line in imported(name, tree, False):
            dst = _layer(mod)
            assert dst is None or dst in GAME_LAYERS or not _is_module(mod), (
                f"{name}:{line} imports {mod}: a game package imports only {sorted(GAME_LAYERS)}")


LOADERS = """
import importlib
from cardgen.core.lazymod import lazy as later
from cardgen.core import lazymod
load = later

def _lazy(module, name):
    def builder():
        return getattr(importlib.import_module(module, __package__), name)
    return builder

def _twice(what):
    return _lazy(what, "x")

A = later("cardgen.boards")
B = lazymod.lazy("cardgen.rulebook")
C = load("cardgen.export")
D = {"x": _lazy("..builder", "build"), "y": _twice(".calibration")}
E = importlib.import_module("cardgen.serve")
F = _lazy(f"cardgen.{A}", "dynamic")
"""


def test_modules_loaded_by_name_count_as_imports():
    """The layer rule sees through aliases and wrappers of lazy() and importlib (a hole once:
    printables reached the rulebook through its own ``_lazy``)."""
    got = sorted({m for m, _ in imported("cardgen.printables", ast.parse(LOADERS), False) if m.startswith("cardgen.")})
    assert got == ["cardgen.boards", "cardgen.builder", "cardgen.core", "cardgen.core.lazymod",
                   "cardgen.core.lazymod.lazy", "cardgen.export", "cardgen.printables.calibration",
                   "cardgen.rulebook", "cardgen.serve"]


def test_cardgens_own_modules_load_on_first_use_only_where_listed():
    found: dict[str, set[str]] = {}
    for p in sorted(PKG.rglob("*.py")):
        rel = p.relative_to(ROOT)
        name = ".".join(rel.with_suffix("").parts[:-1] if p.name == "__init__.py" else rel.with_suffix("").parts)
        own = {m for m, _ in loaded_by_name(name, ast.parse(p.read_text(encoding="utf-8"))) if m.startswith("cardgen.")}
        if own:
            found[str(rel)] = own
    assert found == LAZY_OWN, ("cardgen's own modules are plain imports (core/lazymod.py); a stand-in that saves "
                               "more than 5 ms of start-up is listed in LAZY_OWN with the reason")
