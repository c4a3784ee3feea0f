"""A card file parsed again only where it changed (content.cardmemo): whatever the edit, the cards
and the problems (rule, message, FILE:LINE:COL) are those of the file parsed whole."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image as PILImage

from cardgen.cli import main
from cardgen.content import cardfile
from cardgen.content.cardmemo import CardMemo, split
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import parse_yaml
from cardgen.layout.cachestore import Store

GAME = Path(__file__).resolve().parent.parent / "bench" / "game"


def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(GAME, root)
    PILImage.new("RGB", (8, 8), "#336699").save(root / "templates" / "bench" / "icon.png")
    (root / "cards" / "bench").mkdir(parents=True)
    return root


def card_text(c: dict, block: bool) -> str:
    vals = {k: v for k, v in c.items() if not k.startswith("_")}
    if not block:
        inner = ", ".join(f"{k}: {v}" for k, v in vals.items())
        return f"  - {{{inner}}}\n"
    rows = [f"{k}: {v}" for k, v in vals.items()]
    return "  - " + rows[0] + "\n" + "".join(f"    {r}\n" for r in rows[1:])


def render(cards: list[dict], header: str, tail: str) -> str:
    out = [header, "cards:\n"]
    for c in cards:
        out.append(c.get("_before", ""))
        out.append(card_text(c, c.get("_block", False)))
    return "".join(out) + tail


def fresh(n: int) -> list[dict]:
    return [{"id": f'"{k}"', "name": f"Card {k}", "atk": k % 5, "def": 2, "cost": 1, "rules": f"Rule {k}.",
             "color": '"#8b1e3f"', "_block": k % 3 == 0} for k in range(1, n + 1)]


def seen(root: Path, memo: CardMemo | None) -> tuple[list, list]:
    """The cards loaded (values, positions, own keys) and the problems, as comparable text."""
    problems = Problems()
    game = load_game(root, "bench", problems, memo)
    cards = [] if game is None else [(c.id, c.name, c.type, c.copies, c.fields, str(c.loc),
                                      {k: str(v) for k, v in c.field_locs.items()}, sorted(c.own))
                                     for c in game.cards]
    return cards, [p.text() for p in problems]


def _delete(cards: list[dict], c: dict) -> None:
    if len(cards) > 1:
        cards.remove(c)


def _defaults(header: list[str]) -> None:
    header[0] = "defaults: {type: card, cost: 3}\n" if "cost" not in header[0] else "defaults: {type: card}\n"


EDIT = {
    "rename": lambda cards, c, h: c.update(name=c.get("name", "X") + " II"),
    "bad_value": lambda cards, c, h: c.update(atk='"x"'),
    "unknown_key": lambda cards, c, h: c.update(atq=1),
    "bad_color": lambda cards, c, h: c.update(color='"#zz0000"'),
    "blank_above": lambda cards, c, h: c.update(_before=c.get("_before", "") + "\n"),
    "comment_above": lambda cards, c, h: c.update(_before=c.get("_before", "") + "  # a note\n"),
    "delete": lambda cards, c, h: _delete(cards, c),
    "duplicate_id": lambda cards, c, h: c.update(id=cards[0]["id"]),
    "to_block": lambda cards, c, h: c.update(_block=True),
    "to_flow": lambda cards, c, h: c.update(_block=False),
    "missing_name": lambda cards, c, h: c.pop("name", None),
    "defaults": lambda cards, c, h: _defaults(h),
}
EDITS = list(EDIT)


def edit(cards: list[dict], header: list[str], what: str, k: int) -> None:
    EDIT[what](cards, cards[k % len(cards)], header)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(EDITS), st.integers(0, 11)), min_size=1, max_size=6),
       st.booleans())
def test_edits_load_as_the_whole_file_would(tmp_path_factory, edits, tail):
    """Edit after edit (each loaded with the kept cards of the load before): the same cards, the
    same positions, the same problems as the file parsed whole."""
    root = project(tmp_path_factory.mktemp("memo"))
    memo = CardMemo(Store(root / "cache"), "ctx")
    cards, header = fresh(12), ["# the cards\ndefaults: {type: card}\n"]
    path = root / "cards" / "bench" / "cards.yaml"
    trail = "components: []\n" if tail else ""
    path.write_text(render(cards, header[0], trail))
    assert seen(root, memo) == seen(root, None)
    for what, k in edits:
        edit(cards, header, what, k)
        path.write_text(render(cards, header[0], trail))
        assert seen(root, memo) == seen(root, None), (what, k)


def _counted(tmp_path, monkeypatch, n: int):
    """A project of ``n`` fresh cards written, a memo on its cache, and the ids of the cards
    parsed from now on (``cardfile.parse_card`` counted)."""
    parsed: list = []
    real = cardfile.parse_card
    monkeypatch.setattr(cardfile, "parse_card",
                        lambda cd, *a, **k: parsed.append(cd.get("id")) or real(cd, *a, **k))
    root = project(tmp_path)
    cards = fresh(n)
    path = root / "cards" / "bench" / "cards.yaml"
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    return parsed, root, CardMemo(Store(root / "cache"), "ctx"), cards, path


def test_a_kept_card_is_not_parsed_and_a_broken_one_reports_at_its_line(tmp_path, monkeypatch):
    parsed, root, memo, cards, path = _counted(tmp_path, monkeypatch, 30)
    first = seen(root, memo)
    assert first == seen(root, None) and not first[1]
    cards[20]["atk"] = '"many"'                     # a breaking edit, below a line inserted above
    cards[3]["_before"] = "\n\n"
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    parsed.clear()
    got = seen(root, memo)
    assert parsed == ["3", "21"]            # the blank lines end card 3's lines; card 21 is the one broken
    assert got == seen(root, None)
    line = next(n for n, row in enumerate(path.read_text().splitlines(), 1) if '"many"' in row)
    assert len(got[1]) == 1 and f"cards.yaml:{line}:" in got[1][0] and "YAML-TYPE" in got[1][0], got[1]
    cards[20]["atk"] = 4                            # its legal twin: no problem
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    assert seen(root, memo) == seen(root, None) and not seen(root, memo)[1]


@pytest.mark.parametrize(("text", "starts"), [
    ("defaults: {type: card}\ncards:\n  - {id: a}\n  # note\n\n  - id: b\n    name: B\ncomponents: []\n",
     [2, 5]),
    ("cards:\n- {id: a}\n- {id: b}\n", [1, 2]),
    ("cards:\n  - {id: a}\n", [1]),
])
def test_the_cut_finds_each_card(text, starts):
    cut = split(text)
    assert cut is not None and cut.starts == starts
    assert "".join(cut.item(k) for k in range(len(starts))) + cut.skeleton().split("\0")[-1] \
        == "".join(cut.lines[starts[0]:])


@pytest.mark.parametrize("text", [
    "cards:\n  - &a {id: a}\n  - *a\n",              # an anchor: an alias could reach across cards
    "cards: [{id: a}]\n",                             # a flow list
    "cards:\n\t- {id: a}\n",                          # a tab
    "cards:\n  id: a\n",                              # not a list
])
def test_an_unusual_file_is_parsed_whole(text):
    assert split(text) is None


def test_a_card_that_runs_on_past_the_margin_is_never_kept(tmp_path):
    """A flow mapping continued on a line at the margin looks like the next top-level key to the
    cut: the parse shows it is not, and the file is read whole, every time."""
    root = project(tmp_path)
    memo = CardMemo(Store(root / "cache"), "ctx")
    path = root / "cards" / "bench" / "cards.yaml"
    text = render(fresh(3), "defaults: {type: card}\n", "")
    path.write_text(text[:-2] + ",\nrules: Ends here.}\n")
    first = seen(root, None)
    for _ in range(2):
        assert seen(root, memo) == first
    assert not list((root / "cache").rglob("*.bin")) or seen(root, memo) == first


def test_the_sparse_file_keeps_every_live_card_where_it_was(tmp_path):
    text = render(fresh(9), "defaults: {type: card}\n", "components: []\n")
    cut = split(text)
    assert cut is not None
    whole = parse_yaml(text, "f.yaml", Problems())
    part = parse_yaml(cut.sparse([1, 4, 8]), "f.yaml", Problems())
    assert [dict(c) for c in part["cards"]] == [dict(whole["cards"][k]) for k in (1, 4, 8)]
    assert [c.loc for c in part["cards"]] == [whole["cards"][k].loc for k in (1, 4, 8)]
    assert part["defaults"].loc == whole["defaults"].loc


def build(root: Path, out: Path, cache: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, ["--root", str(root), "build", "bench", "--out", str(out)],
                             env={"CARDGEN_CACHE": cache})
    return res.exit_code, res.stdout + res.stderr


def test_a_build_after_an_edit_reports_and_writes_what_a_clean_build_does(tmp_path):
    """The breaking edit: the same problems at the same FILE:LINE:COL (exit 1); its legal twin: the
    same files, byte for byte."""
    root = project(tmp_path)
    cards = fresh(20)
    path = root / "cards" / "bench" / "cards.yaml"
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    out = tmp_path / "out"
    assert build(root, out, "on")[0] == 0
    cards[0]["_before"] = "  # moved down\n"
    cards[11]["cost"] = '"free"'
    cards[15]["colour"] = '"#000000"'
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    inc, clean = build(root, out, "on"), build(root, tmp_path / "clean", "off")
    assert inc[0] == clean[0] == 1, inc[1]
    assert [ln for ln in inc[1].splitlines() if "cards.yaml:" in ln] == \
        [ln for ln in clean[1].splitlines() if "cards.yaml:" in ln] != [], (inc[1], clean[1])
    cards[11]["cost"] = 0
    del cards[15]["colour"]
    path.write_text(render(cards, "defaults: {type: card}\n", ""))
    assert build(root, out, "on")[0] == 0 and build(root, tmp_path / "clean", "off")[0] == 0
    for name in ("cards.pdf", "cards.json"):
        assert (out / "bench" / name).read_bytes() == (tmp_path / "clean" / "bench" / name).read_bytes(), name


def test_an_edit_writes_only_what_the_whole_memo_lacks_and_the_next_load_keeps_it(tmp_path, monkeypatch):
    """A one-card edit keeps its card in a memo of additions beside the whole memo (the whole one
    is not written again): the next load keeps it from there; edits past an eighth of the cards
    write the whole memo again. Every load as the file parsed whole."""
    parsed, root, memo, cards, path = _counted(tmp_path, monkeypatch, 40)
    assert seen(root, memo) == seen(root, None)
    files = sorted((root / "cache").rglob("*.bin"))
    assert len(files) == 1
    whole = files[0].read_bytes()
    for k in (5, 9, 13, 17, 21, 25, 29, 33):
        cards[k]["name"] = f"renamed {k}"
        path.write_text(render(cards, "defaults: {type: card}\n", ""))
        parsed.clear()
        got = seen(root, memo)
        assert parsed == [str(k + 1)], (k, parsed)      # the cards renamed before: kept
        assert got == seen(root, None), k
        if k == 5:          # an addition beside the whole memo, which stays as it was
            assert files[0].read_bytes() == whole and len(list((root / "cache").rglob("*.bin"))) == 2
    assert files[0].read_bytes() != whole               # more than an eighth differ: written whole again


@pytest.mark.parametrize("bad", [b'{"broken":', b"[1,2]", b"1,2", b'"\xff"'])
def test_a_row_that_does_not_decode_is_a_card_parsed_and_the_others_are_kept(tmp_path, monkeypatch, bad):
    """A kept row that is no JSON, or no card, is that card parsed; every other card is kept."""
    parsed, root, memo, cards, path = _counted(tmp_path, monkeypatch, 12)
    first = seen(root, memo)
    key = memo._key(str(path))
    rows = bytes(memo.store.get_view("cardfile", key) or b"").split(b"\n")
    at = next(i for i, row in enumerate(rows) if row and not row.startswith(b"=") and i > 3)
    victim = rows[at][:65] + bad
    memo.store.put_bytes("cardfile", key, [b"\n".join([*rows[:at], victim, *rows[at + 1:]])])
    parsed.clear()
    assert seen(root, memo) == first == seen(root, None)
    assert len(parsed) == 1 + 12           # the broken row's card; then the whole parse's twelve
