"""The simulation report as one self-contained HTML page with plots.

Plots are drawn with matplotlib's object API (no pyplot state, no display) as SVG and inlined
in the page: the page needs no script, no font and no network, and opens offline in any
browser. Win-rate bars carry their 95 % Wilson intervals as error bars; game lengths are
histograms; a ``--vary`` sweep gets lines of each group's win rate (with its band), the draw
rate and the mean length against the swept value.
"""

from __future__ import annotations

import html
import importlib
import io
import os
import re
import sys
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.figure import Figure

from cardgen.simulate import ladder, text
from cardgen.simulate.text import num, pct

_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
COLORS = ["#3b6ea8", "#d0792c", "#4f9a55", "#b0413e", "#7d5ba6", "#8c6d4f", "#c4579b", "#6f6f6f"]

_USER_STATE = ("HOME", "MPLCONFIGDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME")


def _matplotlib() -> tuple[Any, Any]:
    """matplotlib's rc_context and Figure, imported when a report is drawn (it costs every other
    command a quarter of a second at start-up).

    On its first import matplotlib reads the user's ``matplotlibrc`` and builds (or reads from a
    per-user cache) a font list by walking ``~/.fonts`` and ``~/.local/share/fonts``. The report
    needs neither: its text is drawn as paths in matplotlib's own DejaVu Sans, styled by
    :data:`STYLE`. So the first import sees an empty home and a private configuration folder,
    removed afterwards: the same plots on every machine, cold or warm, and nothing read from
    the user's home."""
    if "matplotlib.figure" not in sys.modules:
        saved = {k: os.environ.get(k) for k in _USER_STATE}
        with tempfile.TemporaryDirectory(prefix="cardgen-mpl-") as empty:
            os.environ.update({k: empty for k in _USER_STATE})
            try:
                importlib.import_module("matplotlib.figure")
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
    from matplotlib import rc_context
    from matplotlib.figure import Figure
    return rc_context, Figure


STYLE: dict[str, Any] = {"svg.hashsalt": "cardgen", "svg.fonttype": "path", "font.size": 9, "axes.spines.top": False,
         "axes.spines.right": False}
CSS = """body{font-family:system-ui,sans-serif;margin:2em;max-width:70em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;text-align:right;border-bottom:1px solid #eee}
td:first-child,th:first-child{text-align:left}.plot{display:inline-block;margin:.5em}.flag{color:#b0413e;font-weight:bold}
.meta{color:#555}.pair{display:flex;flex-wrap:wrap;align-items:center;gap:1em}"""


def _svg(fig: Figure) -> str:
    buf = io.StringIO()
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": None})
    text = buf.getvalue()
    return _METADATA.sub("", text[text.index("<svg"):])


def _figure(w: float, h: float) -> Figure:
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        return Figure(figsize=(w, h), layout="constrained")


def win_rate_plot(attr: str, groups: list[dict[str, Any]], fair: float | None) -> str:
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        fig = _figure(5.5, 0.45 * len(groups) + 1.0)
        ax = fig.add_subplot()
        names = [g["group"] for g in groups][::-1]
        rates = [g["rate"] or 0 for g in groups][::-1]
        lo = [(g["rate"] or 0) - g["low"] for g in groups][::-1]
        hi = [g["high"] - (g["rate"] or 0) for g in groups][::-1]
        ax.barh(names, rates, xerr=[lo, hi], color=COLORS[0], ecolor="#222", capsize=3)
        if fair is not None:
            ax.axvline(fair, color="#888", linestyle="--", linewidth=1)
        ax.set_xlim(0, 1)
        ax.set_xlabel(f"win rate by {attr} (95% Wilson interval)")
        return _svg(fig)


def histogram_plot(name: str, hist: dict[str, list[float]]) -> str:
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        fig = _figure(5.5, 2.4)
        ax = fig.add_subplot()
        edges, counts = hist["edges"], hist["counts"]
        if counts:
            ax.bar(edges[:-1], counts, width=[b - a for a, b in zip(edges, edges[1:])], align="edge",
                   color=COLORS[1], edgecolor="white", linewidth=0.5)
        ax.set_xlabel(f"game length: {name}")
        ax.set_ylabel("games")
        return _svg(fig)


def sweep_plot(report: dict[str, Any], attr: str) -> str:
    """Each group's win rate against the swept value, with its interval as a band."""
    blocks = report["results"]
    xs = list(range(len(blocks)))
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        fig = _figure(6.0, 3.0)
        ax = fig.add_subplot()
        groups = sorted({g["group"] for b in blocks for g in b["win_rates"].get(attr, [])})
        for k, name in enumerate(groups):
            rows = [next((g for g in b["win_rates"].get(attr, []) if g["group"] == name), None) for b in blocks]
            ys = [r["rate"] if r and r["rate"] is not None else float("nan") for r in rows]
            ax.plot(xs, ys, marker="o", color=COLORS[k % len(COLORS)], label=f"seat {name}" if attr == "seat" else name)
            ax.fill_between(xs, [r["low"] if r else float("nan") for r in rows],
                            [r["high"] if r else float("nan") for r in rows], color=COLORS[k % len(COLORS)], alpha=0.15)
        ax.set_xticks(xs, [str(b["value"]) for b in blocks])
        ax.set_ylim(0, 1)
        ax.set_xlabel(report["vary"]["param"])
        ax.set_ylabel(f"win rate by {attr}")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        return _svg(fig)


def sweep_lengths_plot(report: dict[str, Any]) -> str:
    blocks = report["results"]
    xs = list(range(len(blocks)))
    rc_context, Figure = _matplotlib()
    with rc_context(STYLE):  # type: ignore[arg-type]  # matplotlib's stubs list every rc key
        fig = _figure(6.0, 2.6)
        ax = fig.add_subplot()
        names = sorted({n for b in blocks for n in b["length"]}, key=lambda n: (n != "steps", n))
        for k, name in enumerate(names):
            ax.plot(xs, [b["length"].get(name, {}).get("mean") or float("nan") for b in blocks], marker="o",
                    color=COLORS[k % len(COLORS)], label=f"mean {name}")
        ax.set_xticks(xs, [str(b["value"]) for b in blocks])
        ax.set_xlabel(report["vary"]["param"])
        ax.set_ylabel("game length")
        ax.set_yscale("log")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.01, 0.5), frameon=False)
        return _svg(fig)


def _plot(kind: str, svg: str) -> str:
    return f'<div class="plot" data-plot="{kind}">{svg}</div>'


def _table(head: list[str], rows: list[list[str]]) -> str:
    h = "".join(f"<th>{html.escape(c)}</th>" for c in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _iv(r: dict[str, Any]) -> str:
    return f"{pct(r['rate'])} [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"


def _effect(x: dict[str, Any] | None) -> str:
    return "–" if not x else f"{100 * x['effect']:+.1f} [{100 * x['low']:+.1f} … {100 * x['high']:+.1f}]"


def _block(b: dict[str, Any]) -> str:
    e = html.escape
    parts = [f"<h2>{e(b['label'] or 'Results')}</h2>",
             f"<p>{b['finished']:,} of {b['games']:,} games finished · draws {b['draws']['count']:,} "
             f"({pct(b['draws']['rate'])}) · no winner {b['no_winner']:,} · unfinished {b['unfinished']['count']:,} · engine errors "
             f"{b['errors']['count']:,}</p>"]
    for fm in b.get("first_mover") or []:
        parts.append(f"<p>First mover ({fm['players']} players): {_iv(fm)}, fair share {pct(fm['fair'])}: advantage "
                     f"{100 * fm['advantage']:+.1f} points (n={fm['games']:,}).</p>")
    fs = b["first_seat"]
    if fs["games"]:
        parts.append(f"<p>First seat (seat order): {_iv(fs)}, fair share {pct(fs['fair'])}: advantage "
                     f"{100 * (fs['advantage'] or 0):+.1f} points.</p>")
    for attr, groups in b["win_rates"].items():
        parts.append('<div class="pair">' + _plot("win-rate", win_rate_plot(attr, groups, fs.get("fair"))) +
                     _table([attr, "games", "win rate [95%]"],
                            [[e(g["group"]), f"{g['games']:,}", _iv(g)] for g in groups]) + "</div>")
    for t in b.get("matchups") or []:
        parts.append(f"<h3>{e(t['rows_by'])} × {e(t['cols_by'])}</h3><p>win rate of {e(t['subject'])}, 95% interval</p>")
        parts.append(_table([f"{t['rows_by']} \\ {t['cols_by']}", *t["cols"]],
                            [[e(r), *(text.cell(x) for x in row)] for r, row in zip(t["rows"], t["cells"])]))
    if b["length"]:
        parts.append('<div class="pair">' + "".join(_plot("length", histogram_plot(name, d["histogram"]))
                                                    for name, d in b["length"].items()) + "</div>")
        parts.append(_table(["length", "mean", "median", "p95", "min", "max"],
                            [[e(n), num(d["mean"]), num(d["median"]), num(d["p95"]), num(d["min"]), num(d["max"])]
                             for n, d in b["length"].items()]))
    if b["cards"]:
        parts.append("<h3>Cards</h3>")
        parts.append("<p>Effect: the win rate of seat-games that drew the card among their first draws minus "
                     "those that did not (the shuffle decides: a controlled comparison), 95% interval. Win played / "
                     "not played are descriptive: cards are played more in games that go well.</p>")
        parts.append(_table(["card", "drawn", "played", "effect", "win played", "win not played", "flags"], [
            [e(c["card"]), f"{c['drawn']:,}", f"{c['played']:,}", _effect(c.get("effect")), _iv(c["win_played"]),
             _iv(c["win_not_played"]),
             '<span class="flag">' + " ".join(f for f, on in (("dead", c["dead"]), ("must-pick", c["must_pick"]))
                                              if on) + "</span>"] for c in b["cards"]]))
    if b.get("rules_in_play"):
        parts.append("<h3>Rules in play</h3><p>Per rule the game's <code>simulate.coverage</code> names: the share "
                     "of games it came into play in, and how often.</p>")
        parts.append(_table(["rule", "title", "games", "times", "note"], [
            [e(r["rule"]), e(r["title"]), _iv(r), f"{r['times']:,}",
             ('<span class="flag">' + ("never came into play" if r["never"] else "seldom in play") + "</span>" +
              (" — the game's coverage ties it to the project's ruling, not the seed's: " + e(" / ".join(r["rulings"])) if r["rulings"] else ""))
             if r["never"] or r.get("seldom") else ""] for r in b["rules_in_play"]]))
    if b["measures"]:
        parts.append("<h3>The game's own measures</h3>")
        rows = []
        for k, m in b["measures"].items():
            if m["kind"] in ("number", "numbers"):
                v = f"mean {num(m['mean'])}, median {num(m['median'])}, p95 {num(m['p95'])}"
            elif m["kind"] == "rate":
                v = _iv(m)
            elif m["kind"] == "values":
                v = ", ".join(f"{e(a)} {n:,}" for a, n in m["counts"].items())
            elif m["kind"] == "totals":
                v = ", ".join(f"{e(a)} {num(t)}" for a, t in m["totals"].items())
            else:
                v = "–"
            rows.append([e(k), m["kind"], v])
        parts.append(_table(["measure", "kind", "over the finished games"], rows))
    for title, key, extra in (("Unfinished games (step cap)", "unfinished", ""), ("Engine errors", "errors", "error")):
        if b[key]["count"]:
            items = "".join(f"<li>game {g['index']}, seed {g['seed']}" + (f": {e(g[extra])}" if extra else "") + "</li>"
                            for g in b[key]["games"][:50])
            parts.append(f"<h3>{title}: {b[key]['count']:,}</h3><ul>{items}</ul>")
    return "\n".join(parts)


def render(report: dict[str, Any]) -> str:
    """The report page (UTF-8 HTML, no external resource)."""
    e = html.escape
    title = f"{report['title']}: simulated playtests"
    head = (f"<p class='meta'>{report['games']:,} games a block · seed {report['seed']} · agents "
            f"{e(', '.join(report['agents']))} · {len(report['setups'])} setup(s) · step cap {report['max_steps']:,}</p>")
    body = [f"<h1>{e(title)}</h1>", head]
    if report.get("ladder"):
        body.append(ladder.as_html(report["ladder"]))
    if report.get("compare"):
        body.append(ladder.compare_html(report["compare"], ", ".join(report["agents"])))
    if report["vary"]:
        body.append(f"<h2>Sweep of {e(report['vary']['param'])}</h2>")
        attrs = list(dict.fromkeys(a for b in report["results"] for a in b["win_rates"]))
        body.append('<div class="pair">' + "".join(_plot("sweep", sweep_plot(report, a)) for a in attrs) +
                    _plot("sweep", sweep_lengths_plot(report)) + "</div>")
    body += [_block(b) for b in report["results"]]
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{e(title)}</title>"
            f"<style>{CSS}</style></head>"
            f"<body>{''.join(body)}</body></html>\n")
