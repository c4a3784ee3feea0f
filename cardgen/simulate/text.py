"""The simulation report as text, for a terminal (stdout)."""

from __future__ import annotations

from typing import Any

MAX_LISTED = 10     # unfinished / failed games named one by one before "… and N more"


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def interval(r: dict[str, Any]) -> str:
    return f"{pct(r['rate']):>6}  [{100 * r['low']:.1f}–{100 * r['high']:.1f}]"


def num(x: float | None) -> str:
    if x is None:
        return "–"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.2f}"


def _win_rates(b: dict[str, Any]) -> list[str]:
    lines = ["win rate (95% Wilson interval)"]
    w = max((len(g["group"]) for groups in b["win_rates"].values() for g in groups), default=1)
    a = max((len(attr) for attr in b["win_rates"]), default=4)
    for attr, groups in b["win_rates"].items():
        for g in groups:
            lines.append(f"  {attr:<{a}}  {g['group']:<{w}}  {interval(g)}  n={g['games']:,}")
    fs = b["first_seat"]
    if fs["games"]:
        adv = 100 * (fs["advantage"] or 0)
        lines.append(f"first seat: {interval(fs)}, fair share {pct(fs['fair'])}: advantage {adv:+.1f} points")
    return lines


def _lengths(b: dict[str, Any]) -> list[str]:
    if not b["length"]:
        return []
    lines = [f"{'length':<10} {'mean':>8} {'median':>8} {'p95':>8} {'min':>6} {'max':>6}"]
    for name, d in b["length"].items():
        lines.append(f"  {name:<8} {num(d['mean']):>8} {num(d['median']):>8} {num(d['p95']):>8} "
                     f"{num(d['min']):>6} {num(d['max']):>6}")
    return lines


def _cards(b: dict[str, Any]) -> list[str]:
    if not b["cards"]:
        return []
    w = max(8, *(len(c["card"]) for c in b["cards"]))
    lines = [f"{'card':<{w + 2}} {'drawn':>7} {'played':>7} {'win played':>20} {'win not played':>20}  flags"]
    for c in b["cards"]:
        flags = " ".join(f for f, on in (("dead", c["dead"]), ("must-pick", c["must_pick"])) if on)
        lines.append(f"  {c['card']:<{w}} {c['drawn']:>7} {c['played']:>7} {interval(c['win_played']):>20} "
                     f"{interval(c['win_not_played']):>20}  {flags}")
    return lines


def _measures(b: dict[str, Any]) -> list[str]:
    if not b["measures"]:
        return []
    lines = ["measures"]
    for k, m in b["measures"].items():
        kind = m["kind"]
        if kind in ("number", "numbers"):
            lines.append(f"  {k}: mean {num(m['mean'])}, median {num(m['median'])}, p95 {num(m['p95'])} (n={m['n']})")
        elif kind == "rate":
            lines.append(f"  {k}: {interval(m)}")
        elif kind == "values":
            lines.append(f"  {k}: " + ", ".join(f"{v} {n} ({pct(n / m['n'])})" for v, n in m["counts"].items()))
        elif kind == "totals":
            lines.append(f"  {k}: " + ", ".join(f"{a} {num(t)} ({num(m['mean_per_game'][a])}/game)"
                                                 for a, t in m["totals"].items()))
    return lines


def _listed(title: str, games: list[dict[str, Any]], count: int, extra: str = "") -> list[str]:
    if not count:
        return []
    lines = [f"{title}: {count}"]
    for g in games[:MAX_LISTED]:
        lines.append(f"  game {g['index']} seed {g['seed']}" + (f": {g[extra]}" if extra else ""))
    if count > MAX_LISTED:
        lines.append(f"  … and {count - MAX_LISTED} more (see --format json)")
    return lines


def _ladder(lad: dict[str, Any]) -> list[str]:
    w = max(len(r["agent"]) for r in lad["ratings"])
    lines = ["", "skill ladder (Bradley–Terry, Elo points, first agent 0; 95% bootstrap interval)"]
    for r in sorted(lad["ratings"], key=lambda r: -r["elo"]):
        lines.append(f"  {r['agent']:<{w}}  {r['elo']:>+7.0f}  [{r['low']:+.0f} … {r['high']:+.0f}]")
    lines.append("pairs (first agent's share, both seat orders)")
    for p in lad["pairs"]:
        lines.append(f"  {p['a']} vs {p['b']}: {interval(p)}  n={p['games']:,}")
    sk = lad["skill"]
    lines.append(f"skill vs luck: the higher-rated agent wins {interval(sk)} (coin flip 50%, chess ~100%)")
    lines.append(f"balance: random beside {lad['strongest']} in every seat")
    a = max((len(r["attr"]) + len(r["group"]) for r in lad["balance"]), default=4) + 1
    for r in lad["balance"]:
        left = interval(r["random"]) if r["random"] else "–"
        lines.append(f"  {r['attr'] + ' ' + r['group']:<{a}}  random {left:<22}  strong {interval(r['strong'])}")
    lines += ["in plain words:"] + [f"  {s}" for s in lad["summary"]]
    lines += ["", f"the report below: {lad['strongest']} in every seat"]
    return lines


def render(report: dict[str, Any]) -> str:
    agents = ", ".join(report["agents"])
    lines = [f"{report['title']}: {report['games']:,} game(s) a block, seed {report['seed']}, agents {agents}, "
             f"{len(report['setups'])} setup(s), step cap {report['max_steps']:,}"]
    if report.get("ladder"):
        lines += _ladder(report["ladder"])
    for b in report["results"]:
        lines.append("")
        if b["label"]:
            lines.append(f"== {b['label']} ==")
        lines.append(f"finished {b['finished']:,} · draws {b['draws']['count']:,} ({pct(b['draws']['rate'])}) · "
                     f"no winner {b['no_winner']:,} · unfinished {b['unfinished']['count']:,} · errors {b['errors']['count']:,}")
        for part in (_win_rates(b), _lengths(b), _cards(b), _measures(b),
                     _listed("unfinished (hit the step cap)", b["unfinished"]["games"], b["unfinished"]["count"]),
                     _listed("engine errors", b["errors"]["games"], b["errors"]["count"], "error")):
            lines += part
    return "\n".join(lines) + "\n"
