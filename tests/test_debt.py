"""Debt that only shrinks (issue 34): functions over the complexity cap (ruff C901, McCabe 12),
lines over the declared length (E501, 110) and modules mypy lets off annotating their functions
(pyproject.toml's debt override) are listed in tests/goldens/debt.json; a new one fails this test
(fix it: split the function, wrap the line, annotate), and so does a listed one that is gone
(refresh the list with ``pytest --update-goldens`` so it shrinks for good)."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import tomllib

from tests.conftest import ROOT

GOLDEN = ROOT / "tests" / "goldens" / "debt.json"
CAP = 12
RUFF = Path(sys.executable).parent / "ruff"


def _ruff(code: str) -> list[dict]:
    out = subprocess.run([str(RUFF), "check", "cardgen", "tests", "bench", "--select", code, "--output-format", "json",
                          "--config", f"lint.mccabe.max-complexity={CAP}", "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True, check=False).stdout
    return json.loads(out or "[]")


def measured() -> dict[str, Any]:
    complex_ = sorted({f"{Path(d['filename']).relative_to(ROOT).as_posix()}::{m.group(1)}"
                       for d in _ruff("C901") if (m := re.match(r"`([^`]+)` is too complex", d["message"]))})
    long_ = Counter(Path(d["filename"]).relative_to(ROOT).as_posix() for d in _ruff("E501"))
    return {"complexity_cap": CAP, "too_complex": complex_, "long_lines": dict(sorted(long_.items())),
            "untyped_modules": untyped_modules()}


def untyped_modules() -> list[str]:
    """The modules of pyproject.toml's mypy override that turns ``disallow_untyped_defs`` off."""
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    return sorted(m for o in conf.get("overrides", []) if o.get("disallow_untyped_defs") is False
                  for m in ([o["module"]] if isinstance(o["module"], str) else o["module"]))


def _module_file(name: str) -> Path:
    base = ROOT / Path(*name.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _unannotated(path: Path) -> list[str]:
    """Functions of a module mypy's disallow_untyped_defs would flag (a parameter or the return
    without a type; ``self``/``cls`` aside)."""
    out = []
    for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = [*n.args.posonlyargs, *n.args.args, *n.args.kwonlyargs, n.args.vararg, n.args.kwarg]
            params = [a for a in args if a is not None and a.arg not in ("self", "cls")]
            if any(a.annotation is None for a in params) or (n.returns is None and (params or n.name != "__init__")):
                out.append(n.name)
    return out


def test_debt_only_shrinks(update_goldens: bool) -> None:
    now: dict[str, Any] = measured()
    if update_goldens or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
    was: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    new = sorted(set(now["too_complex"]) - set(was["too_complex"]))
    assert not new, f"over the complexity cap of {CAP} (split them): {new}"
    longer = {f: n for f, n in now["long_lines"].items() if n > was["long_lines"].get(f, 0)}
    assert not longer, f"lines over 110 characters added (wrap them): {longer}"
    grown = sorted(set(now["untyped_modules"]) - set(was.get("untyped_modules", now["untyped_modules"])))
    assert not grown, f"modules added to pyproject.toml's untyped debt (annotate them instead): {grown}"
    paid = sorted(set(was["too_complex"]) - set(now["too_complex"]))
    paid += sorted(set(was.get("untyped_modules", [])) - set(now["untyped_modules"]))
    shorter = {f for f, n in was["long_lines"].items() if now["long_lines"].get(f, 0) < n}
    assert not paid and not shorter, ("debt paid: refresh tests/goldens/debt.json with `pytest --update-goldens` "
                                      f"so it stays paid ({paid or sorted(shorter)})")


def test_every_module_of_the_untyped_debt_still_owes() -> None:
    """A listed module that is gone, or whose functions are all annotated, leaves the list."""
    done = [m for m in untyped_modules() if not _module_file(m).exists() or not _unannotated(_module_file(m))]
    assert not done, f"take these off pyproject.toml's untyped debt (and refresh the golden): {done}"
