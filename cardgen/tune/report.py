"""What tune writes: ``report.html`` (objective history or Pareto front, before/after with
intervals, importances), ``params.diff`` (the proposal as a diff of ``params.yaml``) and, with
``--apply``, the edited ``params.yaml`` (only the numbers' text changes) and a changelog entry.
"""

from __future__ import annotations

import base64
import difflib
import html as h
import io
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.atomic import write_bytes
from cardgen.core.params import lookup
from cardgen.core.yamlsrc import loc_of
from cardgen.rulebook import notes
from cardgen.simulate.html import _matplotlib
from cardgen.tune import cardfields
from cardgen.tune import objectives as objs
from cardgen.tune.search import UNIMPORTANT, Result

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def edited(game: Game, values: Mapping[str, Any]) -> str:
    """params.yaml's text with each value's number replaced in place (comments and layout kept)."""
    path = game.rules_dir / "params.yaml"
    lines = sources.read_bytes(path, game.root).decode("utf-8").splitlines(keepends=True)
    for p, v in values.items():
        if cardfields.is_card(p):
            continue
        *parents, last = p.split(".")
        node = lookup(game.params, parents) if parents else game.params
        loc = loc_of(node, last if last in node or not last.isdigit() else int(last))
        if loc is None or not loc.line:
            raise ValueError(f"no position known for {p}")
        i, col = loc.line - 1, loc.col - 1
        m = _NUMBER.match(lines[i], col)
        if m is None:
            raise ValueError(f"{path}:{loc.line}: no number where {p} is")
        lines[i] = lines[i][:m.start()] + _text(v) + lines[i][m.end():]
    return "".join(lines)


def _text(v: Any) -> str:
    return str(v) if isinstance(v, int) else repr(float(v))


def texts(game: Game, values: Mapping[str, Any]) -> dict[Path, str]:
    """Every source file the proposal changes → its new text (params.yaml, card files)."""
    out = {game.rules_dir / "params.yaml": edited(game, values)}
    out.update(cardfields.edited(game, {p: v for p, v in values.items() if cardfields.is_card(p)}))
    return out


def diff(game: Game, values: Mapping[str, Any]) -> str:
    """The proposal as a unified diff of the files it changes."""
    parts = []
    for path, new in texts(game, values).items():
        old = sources.read_bytes(path, game.root).decode("utf-8")
        rel = path.relative_to(game.root).as_posix() if path.is_relative_to(game.root) else str(path)
        parts.append("".join(difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True),
                                                  f"a/{rel}", f"b/{rel}")))
    return "".join(parts)


def named(p: str) -> str:
    """A knob's param as a designer reads it: a card field as ``<card id>.<field> (card)``."""
    return f"{p.removeprefix(cardfields.PREFIX)} (card)" if cardfields.is_card(p) else p


def changes(game: Game, r: Result) -> str:
    """A changelog entry the rulebook can quote."""
    out = ["## Balance changes (cardgen tune)", ""]
    for p, v in r.after.values.items():
        if r.before.values[p] != v:
            out.append(f"- `{named(p)}`: {r.before.values[p]} → {v}")
    out.append("")
    for i, o in enumerate(r.settings.objectives):
        b, a = r.before.measured[i], r.after.measured[i]
        verdict = f" ({verdict_of(r, i)})"
        out.append(f"- {objs.label(o)}: {_m(b)} → {_m(a)}{verdict}, re-measured on "
                   f"{r.settings.check_games or 4 * r.settings.games} fresh games")
    return "\n".join(out) + "\n"


def verdict_of(r: Result, i: int) -> str:
    b, a = r.before.measured[i], r.after.measured[i]
    if r.significant(i):
        return "improved beyond the noise"
    return "better, inside the noise" if a.value < b.value else "no better on fresh games"


def _m(m: objs.Measured) -> str:
    return f"{m.value:.3f} [{m.low:.3f}, {m.high:.3f}]"


def apply(game: Game, r: Result) -> list[Path]:
    """Write the proposal into params.yaml and the card files (each atomically) and append the
    changelog entry."""
    written = []
    for path, text in texts(game, r.after.values).items():
        old_text = sources.read_bytes(path, game.root).decode("utf-8")
        if text != old_text:
            write_bytes(path, text.encode("utf-8"))
            written.append(path)
    log = game.rules_dir / notes.FOLDER / "tune.md"
    old = sources.read_bytes(log, game.root).decode("utf-8") if sources.is_file(log) else ""
    write_bytes(log, (old + ("\n" if old else "") + changes(game, r)).encode("utf-8"))
    return [*written, log]


def plot(r: Result) -> str:
    rc_context, figure = _matplotlib()
    with rc_context({"svg.fonttype": "path"}):
        fig = figure(figsize=(6, 3.2))
        ax = fig.add_subplot()
        names = [objs.label(o) for o in r.settings.objectives]
        if len(names) == 2:
            xs, ys = [v[0] for _n, _p, v in r.history], [v[1] for _n, _p, v in r.history]
            ax.scatter(xs, ys, s=12, color="#999")
            front = [v for n, _p, v in r.history if n in r.pareto]
            ax.scatter([v[0] for v in front], [v[1] for v in front], s=20, color="#c33", label="Pareto front")
            ax.set_xlabel(names[0])
            ax.set_ylabel(names[1])
            ax.legend()
        else:
            for i, name in enumerate(names):
                xs, ys = [n for n, _p, _v in r.history], [v[i] for _n, _p, v in r.history]
                ax.plot(xs, ys, ".", label=name)
                if len(names) == 1:
                    ax.step(xs, [min(ys[:j + 1]) for j in range(len(ys))], where="post", label="best so far")
            ax.set_xlabel("trial")
            ax.set_ylabel("objective (lower is better)")
            ax.legend()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=96, bbox_inches="tight", metadata={"Software": None})
    return base64.b64encode(buf.getvalue()).decode("ascii")


def render(game: Game, r: Result, diff_text: str) -> str:
    rows = []
    for i, o in enumerate(r.settings.objectives):
        b, a = r.before.measured[i], r.after.measured[i]
        rows.append(f"<tr><td>{h.escape(objs.label(o))}</td><td>{_m(b)}</td><td>{_m(a)}</td>"
                    f"<td>{verdict_of(r, i)}</td></tr>")
    imp = []
    for i, shares in enumerate(r.importances):
        for k, v in sorted(shares.items(), key=lambda kv: -kv[1]):
            imp.append(f"<tr><td>{h.escape(objs.label(r.settings.objectives[i]))}</td><td>{h.escape(k)}</td>"
                       f"<td>{v:.2f}</td><td>{'unimportant' if v < UNIMPORTANT else ''}</td></tr>")
    vals = "".join(f"<tr><td>{h.escape(named(p))}</td><td>{r.before.values[p]}</td><td>{v}</td></tr>"
                   for p, v in r.after.values.items())
    n = r.settings.check_games or 4 * r.settings.games
    race = "".join(f"<tr><td>trial {t}</td>" + "".join(f"<td>{v:.3f}</td>" for v in vals_) + "</tr>"
                   for t, vals_ in r.race)
    heads = "".join(f"<th>{h.escape(objs.label(o))}</th>" for o in r.settings.objectives)
    race = (f"<p>The best trials replayed on {n} games of the search's seed; the proposal is the best there.</p>"
            f"<table><tr><th></th>{heads}</tr>{race}</table>" if race else "<p>(one candidate: no race)</p>")
    return f"""<!doctype html><html><head><meta charset="utf-8"><title>tune: {h.escape(game.title)}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto}}td,th{{padding:.2em .8em;text-align:left}}</style>
</head><body><h1>cardgen tune: {h.escape(game.title)}</h1>
<p>{len(r.history)} trials of {r.settings.games} games (seed {2 * r.settings.seed}); before and after re-measured
on {n} fresh games (seed {2 * r.settings.seed + 1}), 95 % intervals.</p>
<img alt="search" src="data:image/png;base64,{plot(r)}">
<h2>Objectives (lower is better)</h2><table><tr><th>objective</th><th>today</th><th>proposed</th><th></th></tr>
{''.join(rows)}</table>
<h2>The race</h2>{race}
<h2>Proposed numbers</h2><table><tr><th>param</th><th>today</th><th>proposed</th></tr>{vals}</table>
<h2>Parameter importances</h2>{'<table>' + ''.join(imp) + '</table>' if imp else '<p>(one knob: none computed)</p>'}
<h2>params.diff</h2><pre>{h.escape(diff_text) or '(no change)'}</pre></body></html>
"""
