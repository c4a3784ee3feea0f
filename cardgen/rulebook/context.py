"""What every rulebook chapter sees: ``game``, ``params``, ``cards`` (made on use, so the build
cache learns which cards a chapter reads), ``counts``, ``rules``, ``collections`` and the
helper functions (see :mod:`cardgen.rulebook.jinja`)."""


from __future__ import annotations

import re
from typing import Any

from jinja2.exceptions import UndefinedError

from cardgen.content.catalogue import load_catalogue
from cardgen.content.collection_files import collection_files, load_collection_file
from cardgen.content.model import Card, Game
from cardgen.core import sources
from cardgen.core.problems import Problems, did_you_mean
from cardgen.core.yamlsrc import plain
from cardgen.layout import cache
from cardgen.rulebook.source import Version


class PathDict(dict):
    """A dict that knows its place in the context (``params.some.key``), for messages."""

    _path: str = ""


class PathList(list):
    _path: str = ""


class MissingCard(UndefinedError):
    pass


class CardIndex(PathDict):
    """``cards``: a missing id is an unknown card, reported as RULEBOOK-CARD where it is named.

    Each card's data is made on first use (so the build cache learns which cards a rulebook
    actually reads)."""

    def __missing__(self, key):
        hint = did_you_mean(str(key), self)
        raise MissingCard(f"unknown card id '{key}'" + (f" ({hint})" if hint else ""))

    def __getitem__(self, key):
        v = dict.__getitem__(self, key)
        if isinstance(v, Card):
            raw = v.__dict__        # not through the card: the fields read are recorded one by one
            data = wrap({**raw["fields"], "id": raw["id"], "name": raw["name"], "type": raw["type"],
                         "copies": raw["copies"]}, f"cards.{raw['id']}")
            v = CardData(data)
            v._path, v._id = data._path, raw["id"]
            dict.__setitem__(self, key, v)
        return v

    def get(self, key, default=None):
        return self[key] if key in self else default

    def values(self):  # type: ignore[override]
        return [self[k] for k in self]

    def items(self):  # type: ignore[override]
        return [(k, self[k]) for k in self]


class CardData(PathDict):
    """One card's data in a chapter; tells the build cache which fields a chapter reads."""

    _id: str = ""

    def _note(self, key: Any = None) -> None:
        rec = cache.active()
        if rec is not None:
            rec.card(self._id) if key is None else rec.field(self._id, str(key))

    def __getitem__(self, key):
        self._note(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        self._note(key)
        return dict.get(self, key, default)

    def __contains__(self, key) -> bool:
        self._note(key)
        return dict.__contains__(self, key)

    def __iter__(self):
        self._note()
        return dict.__iter__(self)

    def keys(self):  # type: ignore[override]
        self._note()
        return dict.keys(self)

    def values(self):  # type: ignore[override]
        self._note()
        return dict.values(self)

    def items(self):  # type: ignore[override]
        self._note()
        return dict.items(self)


def wrap(value: Any, path: str) -> Any:
    """Plain data → PathDict/PathList, each knowing its path."""
    if isinstance(value, dict):
        d = PathDict()
        d._path = path
        for k, v in value.items():
            d[k] = wrap(v, f"{path}.{k}" if isinstance(k, str) and k.isidentifier() else f"{path}[{k!r}]")
        return d
    if isinstance(value, list):
        lst = PathList(wrap(v, f"{path}[{i}]") for i, v in enumerate(value))
        lst._path = path
        return lst
    return value


def _describe_keys(obj: dict) -> str:
    keys = [str(k) for k in obj]
    if not keys:
        return "it is empty"
    if len(keys) > 8:
        return "it has " + ", ".join(keys[:8]) + f", … ({len(keys)} keys)"
    return "it has " + ", ".join(keys)


def _collections(game: Game) -> dict[str, list[dict]]:
    """Deck-like files kept with the game (starter decks, parties, boss presets), by kind:
    ``{kind: [{file, name, notes, cards: [{id, name, type, count}], count}]}``."""
    kinds: dict[str, list[dict]] = {}
    for path in collection_files(game):
        kind, body, cols = load_collection_file(path, game, Problems())
        if body is None or not cols:
            continue
        cards = [{"id": e.id, "name": e.name, "type": game.cards_by_id[e.id].type, "count": e.count}
                 for e in cols[0].entries]
        kinds.setdefault(kind, []).append({
            "file": path.stem, "name": str(body.get("name") or path.stem), "notes": str(body.get("notes") or ""),
            "cards": cards, "count": sum(c["count"] for c in cards)})
    return kinds


def build_context(game: Game, version: Version, versions: list[Version]) -> dict[str, Any]:
    """The names every chapter sees (see the module docstring)."""
    params = plain(game.params) if isinstance(game.params, dict) else {}
    cards = CardIndex()
    cards._path = "cards"
    order_ids: dict[str, list[str]] = {}
    for c in game.cards:
        dict.__setitem__(cards, c.id, c)
        order_ids.setdefault(c.type, []).append(c.id)

    class _Order(dict):
        """Card type → its cards' data, made on use."""

        def get(self, key, default=None):
            return [cards[i] for i in order_ids[key]] if key in order_ids else default

    order = _Order.fromkeys(order_ids)
    counts: dict[str, int] = {}
    for c in game.cards:
        counts[c.type] = counts.get(c.type, 0) + c.copies
    types = {k: {"key": k, "name": ct.name, "count": counts.get(k, 0), "designs": len(order_ids.get(k, []))}
             for k, ct in game.card_types.items()}
    comps = [wrap({**plain(c.fields), "id": c.id, "name": c.name, "kind": c.kind, "count": c.count},
                  f"components[{i}]") for i, c in enumerate(game.components)]
    meta = game.meta or {}
    cat = load_catalogue(game.rules_dir.parent.parent, game.slug, Problems())    # validate reports its problems
    rules = {rid: {"id": rid, "title": r.title, "section": r.section, "statement": " ".join(r.statement.split()),
                   "rulings": list(r.rulings)} for rid, r in (cat.rules.items() if cat else [])}
    ctx: dict[str, Any] = {
        "game": wrap({"title": game.title, "slug": game.slug, "subtitle": meta.get("subtitle"),
                      "designer": meta.get("designer"), "players": plain(params.get("players")) or {}}, "game"),   # params.yaml holds the count
        "params": wrap(params, "params"),
        "rulings": wrap(params.get("rulings") or [], "rulings"),
        "rules": wrap(rules, "rules"),
        "cards": cards,
        "card_types": wrap(types, "card_types"),
        "counts": wrap(counts, "counts"),
        "components": wrap(comps, "components"),
        "rulebook": wrap(version.context(), "rulebook"),
        "versions": wrap([v.context() for v in versions], "versions"),
        "collections": wrap(_collections(game), "collections"),
    }

    def card(card_id: str):
        if card_id not in cards:
            raise MissingCard(f"unknown card id '{card_id}'" +
                              (f" ({h})" if (h := did_you_mean(card_id, cards)) else ""))
        return cards[card_id]

    def cards_of(type_key: str, **where):
        if type_key not in game.card_types:
            raise UndefinedError(f"cards_of: unknown card type '{type_key}'" +
                                 (f" ({h})" if (h := did_you_mean(type_key, game.card_types)) else ""))
        out = order.get(type_key, [])
        for k, v in where.items():
            out = [c for c in out if (v in c.get(k) if isinstance(c.get(k), list) and not isinstance(v, list)
                                      else c.get(k) in v if isinstance(v, list) else c.get(k) == v)]
        return out

    def component(comp_id: str):
        for c in comps:
            if c["id"] == comp_id:
                return c
        raise UndefinedError(f"unknown component id '{comp_id}'" +
                             (f" ({h})" if (h := did_you_mean(comp_id, [c['id'] for c in comps])) else ""))

    def components_table(details: bool = True) -> str:
        rows = ["| Component | Count |" + (" Details |" if details else ""),
                "| --- | ---: |" + (" --- |" if details else "")]
        for k, t in types.items():
            if not t["count"]:
                continue
            row = f"| {_cell(t['name'])} cards | {t['count']} |"
            if details:
                designs = order.get(k, [])
                if len(designs) <= 8:
                    same = len({d["copies"] for d in designs}) == 1 and len(designs) > 1
                    if same:
                        row += f" {designs[0]['copies']} each of " + ", ".join(_cell(d["name"]) for d in designs) + " |"
                    else:
                        row += " " + ", ".join(f"{_cell(d['name'])} ×{d['copies']}" for d in designs) + " |"
                else:
                    row += f" {len(designs)} different cards |"
            rows.append(row)
        for c in comps:
            row = f"| {_cell(c['name'])} | {c['count']} |"
            if details:
                row += f" {_cell(c['kind'])} |"
            rows.append(row)
        return "\n".join(rows)

    def plural(n, word: str, words: str | None = None) -> str:
        return word if n == 1 else (words or word + "s")

    def rulings_by_rule(order: list[str] | None = None) -> list[dict]:
        """The rulings grouped by rule ID, ``{id, title, texts}`` (the title from the catalogue, or
        ''): in the order of the rule families
        in ``order`` (``["BW-SETUP", "BW-ATK"]``; by rule number within a family), the other
        families after them; without ``order``, in the order of params.yaml."""
        groups: dict[str, list[str]] = {}
        for r in params.get("rulings") or []:
            groups.setdefault(str(r.get("id", "")), []).append(str(r.get("text", "")))
        fams = list(order or [])

        def key(item: tuple[int, str]) -> tuple:
            first, rid = item
            fam, _, num = rid.rpartition("-")
            if fam in fams:
                return (fams.index(fam), int(num) if num.isdigit() else 0, first)
            return (len(fams), 0, first)
        ids = [rid for _, rid in sorted(enumerate(groups), key=key)] if fams else list(groups)
        heads = _rule_headings(version)
        return [wrap({"id": rid, "title": rules[rid]["title"] if rid in rules else "", "texts": groups[rid],
                      "heading": heads.get(rid) or (rules[rid]["section"] if rid in rules else rid)},
                     f"rulings_by_rule[{i}]") for i, rid in enumerate(ids)]

    ctx.update(card=card, cards_of=cards_of, component=component, components_table=components_table,
               icon=lambda name: "{" + str(name) + "}", plural=plural, rulings_by_rule=rulings_by_rule)
    return ctx


def _rule_headings(version) -> dict[str, str]:
    """Rule ID → the heading of the section that explains it (``{rule="…"}`` on the line before a
    heading): how a player's book names a rule."""
    out: dict[str, str] = {}
    for path in getattr(version, "chapters", []):
        try:
            lines = sources.read_bytes(path).decode("utf-8").splitlines()
        except (sources.SourceError, UnicodeDecodeError):
            continue                      # the renderer reports it
        for attrs, head in zip(lines, lines[1:]):
            m = re.search(r'\brule="([^"]+)"', attrs)
            if m and attrs.lstrip().startswith("{") and head.startswith("#") and "{{" not in head:
                for rid in m.group(1).split():
                    out.setdefault(rid, head.lstrip("#").strip())
    return out


def _cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return str(text).replace("|", "\\|")


