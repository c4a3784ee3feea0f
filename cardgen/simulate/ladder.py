"""The skill ladder: every pair of agents in both seat orders, Bradley–Terry ratings with
bootstrap intervals, the skill-vs-luck figure and balance under strong play.

A pair's game scores each agent by the mean return of the seats it held; the agent with the
larger score won it (equal scores: half a win each). Ratings are Bradley–Terry strengths
(Hunter's MM iterations) on those wins, as Elo points (400·log10), the first agent at 0;
their 95 % intervals come from resampling each pair's games (seeded by the run's seed, 200
resamples). Skill vs luck: how often the agent rated higher wins a game against one rated
lower — 50 % in a coin-flip game, near 100 % in chess.
"""

from __future__ import annotations

import html
import math
import random
from collections.abc import Sequence
from typing import Any

from cardgen.simulate.stats import r6, rate

RESAMPLES = 200
ITERATIONS = 200


def game_score(rec: dict[str, Any], a: str, b: str) -> float | None:
    """``a``'s share of one finished game against ``b`` (1 win, 0 loss, ½ even), else None."""
    if rec.get("status") != "finished":
        return None
    sa = [r for r, n in zip(rec["returns"], rec["agents"]) if n == a]
    sb = [r for r, n in zip(rec["returns"], rec["agents"]) if n == b]
    if not sa or not sb:
        return None
    ma, mb = sum(sa) / len(sa), sum(sb) / len(sb)
    return 1.0 if ma > mb + 1e-9 else 0.0 if mb > ma + 1e-9 else 0.5


def bradley_terry(agents: Sequence[str], scores: dict[tuple[int, int], list[float]]) -> list[float]:
    """Elo-scaled Bradley–Terry ratings (first agent 0) from each pair's game scores (i's
    share against j, i < j). A half win is added to each side of every pair so that a clean
    sweep gives a finite rating."""
    n = len(agents)
    wins = [[0.0] * n for _ in range(n)]
    for (i, j), xs in scores.items():
        s = sum(xs)
        wins[i][j] += s + 0.5
        wins[j][i] += len(xs) - s + 0.5
    p = [1.0] * n
    for _ in range(ITERATIONS):
        new = []
        for i in range(n):
            w = sum(wins[i])
            d = sum((wins[i][j] + wins[j][i]) / (p[i] + p[j]) for j in range(n) if j != i)
            new.append(w / d if d > 0 else p[i])
        g = math.exp(sum(math.log(x) for x in new) / n)
        p = [x / g for x in new]
    elo = [400 * math.log10(x) for x in p]
    return [e - elo[0] for e in elo]


def ladder(agents: Sequence[str], pairs: dict[tuple[int, int], list[dict[str, Any]]], seed: int) -> dict[str, Any]:
    """The ladder's report from each pair's records (pair (i, j), i < j)."""
    scores = {k: [s for r in recs if (s := game_score(r, agents[k[0]], agents[k[1]])) is not None]
              for k, recs in pairs.items()}
    elo = bradley_terry(agents, scores)
    rng = random.Random(seed)
    samples: list[list[float]] = []
    for _ in range(RESAMPLES):
        boot = {k: [xs[rng.randrange(len(xs))] for _ in xs] for k, xs in scores.items() if xs}
        samples.append(bradley_terry(agents, boot))
    ratings = []
    for i, name in enumerate(agents):
        xs = sorted(s[i] for s in samples)
        ratings.append({"agent": name, "elo": r6(round(elo[i], 1)), "low": r6(round(xs[int(0.025 * len(xs))], 1)),
                        "high": r6(round(xs[min(len(xs) - 1, int(0.975 * len(xs)))], 1))})
    table = []
    won = games = 0.0
    for (i, j), xs in sorted(scores.items()):
        s = sum(xs)
        r = rate(s, len(xs))
        table.append({"a": agents[i], "b": agents[j], "a_wins": r["wins"], "games": len(xs), "rate": r["rate"],
                      "low": r["low"], "high": r["high"]})
        if elo[i] != elo[j]:
            won += s if elo[i] > elo[j] else len(xs) - s
            games += len(xs)
    skill = rate(won, games)
    order = sorted(range(len(agents)), key=lambda k: (-elo[k], k))
    return {"agents": list(agents), "ratings": ratings, "pairs": table, "strongest": agents[order[0]],
            "skill": {"games": skill["games"], "rate": skill["rate"], "low": skill["low"], "high": skill["high"]}}


def _pct(r: dict[str, Any]) -> str:
    return f"{100 * r['rate']:.0f} % [{100 * r['low']:.0f}–{100 * r['high']:.0f}]" if r.get("rate") is not None else "–"


def summary(lad: dict[str, Any], strong: dict[str, Any], weak: dict[str, Any]) -> list[str]:
    """Sentences a designer can quote: skill vs luck, and the first mover's and each side's
    shares under strong play beside random play."""
    if lad["skill"]["rate"] is None:
        out = ["the ladder cannot tell the agents apart: they rate the same (no pair had a decisive result)"]
    else:
        out = [f"the agent rated higher wins {_pct(lad['skill'])} of its games against one rated lower "
               "(a coin-flip game: 50 %, chess: near 100 %)"]
    return out + plain_words(lad["strongest"], strong, weak)


def plain_words(best: str, strong: dict[str, Any], weak: dict[str, Any], weak_name: str = "random") -> list[str]:
    """The first mover's and each side's shares under strong play (``best`` in every seat) beside
    ``weak_name`` play, as sentences."""
    out = []
    base_fm = {r["players"]: r for r in weak.get("first_mover") or []}
    for fm in strong.get("first_mover") or []:
        w = base_fm.get(fm["players"])
        out.append(f"under strong play ({best} in every seat) the first mover wins {_pct(fm)} of "
                   f"{fm['players']}-player games (fair share {100 * fm['fair']:.0f} %)"
                   + (f"; under {weak_name} play {_pct(w)}" if w else ""))
    fs, fw = strong["first_seat"], weak["first_seat"]
    if fs["games"] and fw["games"]:
        out.append(f"under strong play the first-listed seat wins {_pct(fs)}; under {weak_name} play {_pct(fw)}")
    for attr, groups in strong["win_rates"].items():
        if attr in ("seat", "agent"):
            continue
        base = {g["group"]: g for g in weak["win_rates"].get(attr, [])}
        for g in groups:
            if g["group"] in base:
                out.append(f"under strong play {attr} {g['group']} wins {_pct(g)}; under {weak_name} play "
                           f"{_pct(base[g['group']])}")
    return out


def side_by_side(strong: dict[str, Any], weak: dict[str, Any]) -> list[dict[str, Any]]:
    """Win rates by seat/team/deck/class/role under random play and under strong play."""
    rows = []
    keep = ("games", "rate", "low", "high")
    base_fm = {r["players"]: r for r in weak.get("first_mover") or []}
    for fm in strong.get("first_mover") or []:
        w = base_fm.get(fm["players"])
        rows.append({"attr": "first mover", "group": f"{fm['players']} players",
                     "random": None if w is None else {k: w[k] for k in keep}, "strong": {k: fm[k] for k in keep}})
    for attr, groups in strong["win_rates"].items():
        if attr == "agent":
            continue
        base = {g["group"]: g for g in weak["win_rates"].get(attr, [])}
        for g in groups:
            w = base.get(g["group"])
            rows.append({"attr": attr, "group": g["group"],
                         "random": None if w is None else {k: w[k] for k in ("games", "rate", "low", "high")},
                         "strong": {k: g[k] for k in ("games", "rate", "low", "high")}})
    return rows


def compare(agents: str, this: list[dict[str, Any]], other: list[dict[str, Any]], other_name: str) -> dict[str, Any]:
    """``--compare``: each result block's win rates beside the same games played by ``other_name``
    in every seat, and the plain-words sentences."""
    blocks = []
    for b, w in zip(this, other):
        rows = [{"attr": r["attr"], "group": r["group"], "this": r["strong"], "compared": r["random"]}
                for r in side_by_side(b, w)]
        blocks.append({"label": b["label"], "rows": rows, "summary": plain_words(agents, b, w, other_name)})
    return {"agent": other_name, "blocks": blocks}


def compare_html(cmp: dict[str, Any], agents: str) -> str:
    e = html.escape
    out = []
    for b in cmp["blocks"]:
        rows = "".join(f"<tr><td>{e(r['attr'])} {e(r['group'])}</td><td>{_cell(r['compared'])}</td><td>{_cell(r['this'])}</td></tr>"
                       for r in b["rows"])
        words = "".join(f"<li>{e(s)}</li>" for s in b["summary"])
        out.append(f"<h2>Balance: {e(agents)} beside {e(cmp['agent'])}{' — ' + e(b['label']) if b['label'] else ''}</h2>"
                   f"<table><tr><th>side</th><th>{e(cmp['agent'])} in every seat</th><th>{e(agents)}</th></tr>{rows}</table>"
                   f"<ul>{words}</ul>")
    return "".join(out)


def _cell(r: dict[str, Any] | None) -> str:
    return "–" if r is None or r.get("rate") is None else \
        f"{100 * r['rate']:.1f}% [{100 * r['low']:.1f}–{100 * r['high']:.1f}] n={r['games']:,}"


def as_html(lad: dict[str, Any]) -> str:
    """The ladder's section of the HTML report: ratings, pairs, skill vs luck, balance."""
    e = html.escape
    rows = "".join(f"<tr><td>{e(r['agent'])}</td><td>{r['elo']:+.0f}</td><td>[{r['low']:+.0f} … {r['high']:+.0f}]</td></tr>"
                   for r in sorted(lad["ratings"], key=lambda r: -r["elo"]))
    pairs = "".join(f"<tr><td>{e(p['a'])} vs {e(p['b'])}</td><td>{_cell(p)}</td></tr>" for p in lad["pairs"])
    bal = "".join(f"<tr><td>{e(r['attr'])} {e(r['group'])}</td><td>{_cell(r['random'])}</td><td>{_cell(r['strong'])}</td></tr>"
                  for r in lad["balance"])
    words = "".join(f"<li>{e(s)}</li>" for s in lad["summary"])
    return (f"<h2>Skill ladder</h2><table><tr><th>agent</th><th>rating (Elo points)</th><th>95% interval</th></tr>{rows}"
            f"</table><table><tr><th>pair</th><th>first agent's share</th></tr>{pairs}</table>"
            f"<p>Skill vs luck: the higher-rated agent wins {_cell(lad['skill'])} (a coin flip 50%, chess near 100%).</p>"
            f"<h2>Balance under strong play</h2><table><tr><th>side</th><th>random</th><th>{e(lad['strongest'])} "
            f"in every seat</th></tr>{bal}</table><ul>{words}</ul>")
