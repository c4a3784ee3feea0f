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
    for fm in b.get("first_mover") or []:
        lines.append(f"first mover ({fm['players']} players): {interval(fm)}, fair share {pct(fm['fair'])}: "
                     f"advantage {100 * fm['advantage']:+.1f} points  n={fm['games']:,}")
    fs = b["first_seat"]
    if fs["games"]:
        adv = 100 * (fs["advantage"] or 0)
        lines.append(f"first seat (seat order): {interval(fs)}, fair share {pct(fs['fair'])}: advantage {adv:+.1f} points")
    return lines


def cell(r: dict[str, Any] | None) -> str:
    return "–" if r is None or r.get("rate") is None else f"{pct(r['rate'])} [{100 * r['low']:.0f}–{100 * r['high']:.0f}]"


def _matchups(b: dict[str, Any]) -> list[str]:
    lines = []
    for t in b.get("matchups") or []:
        lines.append(f"{t['rows_by']} × {t['cols_by']}: win rate of {t['subject']} (95% interval)")
        w = max(len(r) for r in t["rows"])
        cw = max(17, *(len(c) for c in t["cols"]))
        lines.append(f"  {'':<{w}}  " + "  ".join(f"{c:>{cw}}" for c in t["cols"]))
        for r, row in zip(t["rows"], t["cells"]):
            lines.append(f"  {r:<{w}}  " + "  ".join(f"{cell(x):>{cw}}" for x in row))
    return lines


def bars(hist: dict[str, Any], width: int = 40) -> list[str]:
    """A histogram as text bars, one a bin."""
    counts, edges = hist["counts"], hist["edges"]
    top = max(counts, default=0)
    if not top:
        return []
    out = []
    for k, n in enumerate(counts):
        lo, hi = edges[k], edges[k + 1]
        if float(lo + 0.5).is_integer() and float(hi - lo).is_integer():   # whole-number bins: the values they hold
            a, z = int(lo + 0.5), int(hi - 0.5)
            span = str(a) if a == z else f"{a}–{z}"
        else:
            span = f"{num(lo)}–{num(hi)}"
        if k == 0 and hist.get("clipped", [0, 0])[0]:
            span = "≤" + span
        if k == len(counts) - 1 and hist.get("clipped", [0, 0])[1]:
            span += "+"
        out.append(f"    {span:>13} {'█' * round(width * n / top):<{width}} {n:,}")
    return out


def _lengths(b: dict[str, Any]) -> list[str]:
    if not b["length"]:
        return []
    lines = [f"{'length':<10} {'mean':>8} {'median':>8} {'p95':>8} {'min':>6} {'max':>6}"]
    for name, d in b["length"].items():
        lines.append(f"  {name:<8} {num(d['mean']):>8} {num(d['median']):>8} {num(d['p95']):>8} "
                     f"{num(d['min']):>6} {num(d['max']):>6}")
    # the length that varies most (most bins in use): a game of a fixed number of rounds shows its turns
    pref = {"rounds": 0, "turns": 1, "steps": 2}
    name = max(b["length"], key=lambda k: (sum(1 for c in b["length"][k]["histogram"]["counts"] if c), -pref.get(k, 3)))
    if b["length"][name].get("histogram"):
        lines += [f"  {name} histogram"] + bars(b["length"][name]["histogram"])
    return lines


def _cards(b: dict[str, Any]) -> list[str]:
    if not b["cards"]:
        return []
    w = max(8, *(len(c["card"]) for c in b["cards"]))
    lines = ["cards: effect = win rate when drawn early minus when not (controlled: the shuffle decides; "
             "95% interval); win played / not played are descriptive (survivorship)",
             f"{'card':<{w + 2}} {'drawn':>7} {'played':>7} {'effect':>22} {'win played':>20} {'win not played':>20}  flags"]
    for c in b["cards"]:
        flags = " ".join(f for f, on in (("dead", c["dead"]), ("must-pick", c["must_pick"])) if on)
        e = c.get("effect")
        eff = "–" if not e else f"{100 * e['effect']:+.1f} [{100 * e['low']:+.1f} … {100 * e['high']:+.1f}]"
        lines.append(f"  {c['card']:<{w}} {c['drawn']:>7} {c['played']:>7} {eff:>22} {interval(c['win_played']):>20} "
                     f"{interval(c['win_not_played']):>20}  {flags}")
    return lines


def _rules(b: dict[str, Any]) -> list[str]:
    rows = b.get("rules_in_play")
    if not rows:
        return []
    w = max(len(r["rule"]) for r in rows)
    lines = ["rules in play (the game's simulate.coverage): share of games a rule came into play, times in all"]
    for r in rows:
        flag = "  NEVER came into play" if r["never"] else "  seldom in play" if r.get("seldom") else ""
        lines.append(f"  {r['rule']:<{w}}  {interval(r)}  ×{r['times']:,}  {r['title']}{flag}")
    for r in rows:
        if (r["never"] or r.get("seldom")) and r["rulings"]:
            lines.append(f"  {r['rule']} {'never comes' if r['never'] else 'seldom comes'} into play; the game's "
                         "coverage ties it to the project's ruling (not the seed's):")
            lines += [f"    {x}" for x in r["rulings"]]
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


def _compare(report: dict[str, Any]) -> list[str]:
    cmp = report["compare"]
    agents = ", ".join(report["agents"])
    lines = []
    for b in cmp["blocks"]:
        lines += ["", f"balance: {agents} beside {cmp['agent']} in every seat" + (f" ({b['label']})" if b["label"] else "")]
        a = max((len(r["attr"]) + len(r["group"]) for r in b["rows"]), default=4) + 1
        for r in b["rows"]:
            left = interval(r["compared"]) if r["compared"] else "–"
            lines.append(f"  {r['attr'] + ' ' + r['group']:<{a}}  {cmp['agent']} {left:<22}  {agents} {interval(r['this'])}")
        lines += ["in plain words:"] + [f"  {s}" for s in b["summary"]]
    return lines


def render(report: dict[str, Any]) -> str:
    agents = ", ".join(report["agents"])
    lines = [f"{report['title']}: {report['games']:,} game(s) a block, seed {report['seed']}, agents {agents}, "
             f"{len(report['setups'])} setup(s), step cap {report['max_steps']:,}"]
    if report.get("ladder"):
        lines += _ladder(report["ladder"])
    if report.get("compare"):
        lines += _compare(report)
    for b in report["results"]:
        lines.append("")
        if b["label"]:
            lines.append(f"== {b['label']} ==")
        lines.append(f"finished {b['finished']:,} · draws {b['draws']['count']:,} ({pct(b['draws']['rate'])}) · "
                     f"no winner {b['no_winner']:,} · unfinished {b['unfinished']['count']:,} · errors {b['errors']['count']:,}")
        for part in (_win_rates(b), _matchups(b), _lengths(b), _cards(b), _rules(b), _measures(b),
                     _listed("unfinished (hit the step cap)", b["unfinished"]["games"], b["unfinished"]["count"]),
                     _listed("engine errors", b["errors"]["games"], b["errors"]["count"], "error")):
            lines += part
    return "\n".join(lines) + "\n"


def note(report: dict[str, Any], date: str | None = None) -> str | None:
    """A designer's note from a run that compared agents (``--ladder`` or ``--compare``): its
    plain-words sentences as Markdown, for ``rules/<game>/notes/`` (the designer's edition of the
    rulebook quotes every note there), labelled as simulated play with its seed and ``date``.
    None for a run that compared nothing."""
    lad, cmp = report.get("ladder"), report.get("compare")
    if not lad and not cmp:
        return None
    agents = ", ".join(report["agents"])
    out = [f"## Balance under strong play (cardgen simulate, seed {report['seed']})", "",
           "*Simulated play: agents, not people — " + (f"run on {date}, " if date else "")
           + f"seed {report['seed']}, {report['games']:,} games per line up; search agents are "
           "MCTS (`mcts:N`: N playouts a move, information-set MCTS where the game hides cards).*", ""]
    if lad:
        names = ", ".join(r["agent"] for r in lad["ratings"])
        out.append(f"- Ladder of {names}, {report['games']:,} games a pair: the higher-rated agent wins "
                   f"{interval(lad['skill'])} of its games (a coin flip is 50 %).")
        out += [f"- {s}" for s in lad["summary"]]
    if cmp:
        for b in cmp["blocks"]:
            out += [f"- {s}" + (f" ({b['label']})" if b["label"] else "") for s in b["summary"]]
        out.append(f"- {report['games']:,} games with {agents} in every seat beside the same games under "
                   f"{cmp['agent']}.")
    return "\n".join(out) + "\n"

