"""Debt that only shrinks (issue 34): functions over the complexity cap (ruff C901, McCabe 12) and
lines over the declared length (E501, 110) are listed in tests/goldens/debt.json; a new one fails
this test (fix it: split the function, wrap the line), and so does a listed one that is gone
(refresh the list with ``pytest --update-goldens`` so it shrinks for good)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

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
    return {"complexity_cap": CAP, "too_complex": complex_, "long_lines": dict(sorted(long_.items()))}


def test_debt_only_shrinks(update_goldens: bool) -> None:
    now: dict[str, Any] = measured()
    if update_goldens or not GOLDEN.exists():
        GOLDEN.write_text(json.dumps(now, indent=1) + "\n", encoding="utf-8")
    was: dict[str, Any] = json.loads(GOLDEN.read_text(encoding="utf-8"))
    new = sorted(set(now["too_complex"]) - set(was["too_complex"]))
    assert not new, f"over the complexity cap of {CAP} (split them): {new}"
    longer = {f: n for f, n in now["long_lines"].items() if n > was["long_lines"].get(f, 0)}
    assert not longer, f"lines over 110 characters added (wrap them): {longer}"
    paid = sorted(set(was["too_complex"]) - set(now["too_complex"]))
    shorter = {f for f, n in was["long_lines"].items() if now["long_lines"].get(f, 0) < n}
    assert not paid and not shorter, ("debt paid: refresh tests/goldens/debt.json with `pytest --update-goldens` "
                                      f"so it stays paid ({paid or sorted(shorter)})")
