"""A card kept by the card memo is made without decoding its values (content.keptcard): its
lay-out key comes from the values text the memo kept, which must be the key its values give; its
values, positions and own keys, once read, are those of the file parsed; a kept card changed in
place is keyed by its values; and an edit's build decodes none of the cards it did not change."""

from __future__ import annotations

import shutil
from pathlib import Path

from click.testing import CliRunner
from PIL import Image as PILImage

from cardgen.cli import main
from cardgen.content import keptcard
from cardgen.content.cardmemo import CardMemo
from cardgen.content.loader import load_game
from cardgen.core.problems import Problems
from cardgen.layout.cache import Recorder, digest, digest_on, watched
from cardgen.layout.cachestore import Store

GAME = Path(__file__).resolve().parent.parent / "bench" / "game"
CARDS = "cards/bench/cards.yaml"


def project(tmp_path: Path, n: int = 12) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(GAME, root)
    PILImage.new("RGB", (8, 8), "#336699").save(root / "templates" / "bench" / "icon.png")
    rows = ["defaults: {type: card}", "cards:"]
    for i in range(1, n + 1):
        rules = "A lone { brace." if i == 3 else f"Rules of card {i}: é ü \\t."
        rows.append(f'  - {{id: "{i}", name: "Card {i}", atk: {i % 9}, def: {-i}, cost: {i % 5}, '
                    f'rules: "{rules}", color: "#8b1e3f"}}')
    rows.append('  - id: "b"\n    name: "Block"\n    cost: 2\n    atk: 1\n    def: 0\n'
                '    rules: "x"\n    color: "#1e5a8b"')
    (root / "cards" / "bench").mkdir(parents=True)
    (root / CARDS).write_text("\n".join(rows) + "\n", encoding="utf-8")
    return root


def loaded(root: Path, memo: CardMemo) -> list:
    game = load_game(root, "bench", Problems(), memo)
    assert game is not None
    return game.cards


def test_a_kept_cards_key_is_its_values_key_and_its_values_those_parsed(tmp_path):
    root = project(tmp_path)
    memo = CardMemo(Store(tmp_path / "cache"), "ctx")
    parsed = loaded(root, memo)
    kept = loaded(root, memo)
    assert all(type(c) is keptcard.KeptCard for c in kept[1:])       # (a file's first is parsed)
    assert not any(type(c) is keptcard.KeptCard for c in parsed)
    assert len(kept) == len(parsed) == 13
    for p, k in zip(parsed[1:], kept[1:]):
        text = k.values_text()
        assert p.values_text() is None
        if p.id == "3":         # its text holds a brace: read by the icons' check
            assert text is None
            continue
        assert text is not None
        for side in ("front", "back"):
            assert digest_on(("static", side), text) == digest("static", side, p.id, p.name, p.type, p.copies,
                                                                 p.fields)
        assert (k.id, k.name, k.type, k.copies) == (p.id, p.name, p.type, p.copies)
        assert k.fields == p.fields and list(k.fields) == list(p.fields)          # order too
        assert all(type(k.fields[f]) is type(v) for f, v in p.fields.items())
        assert (k.loc, k.field_locs, k.own) == (p.loc, p.field_locs, p.own)
        assert k == p and p == k
        assert k.values_text() is None              # its fields read: keyed by them from now on
    assert [c.may_hold_brace() for c in loaded(root, memo)[1:]] == [c.id == "3" for c in parsed[1:]]


def test_a_kept_card_changed_in_place_is_keyed_by_its_new_values(tmp_path):
    root = project(tmp_path)
    memo = CardMemo(Store(tmp_path / "cache"), "ctx")
    loaded(root, memo)
    card = loaded(root, memo)[1]
    old = digest_on(("s", "front"), card.values_text() or b"")
    card.fields["atk"] = 99                          # as tune sets a value
    assert card.values_text() is None
    assert digest("s", "front", card.id, card.name, card.type, card.copies, card.fields) != old


def test_an_edit_decodes_no_card_it_did_not_change(tmp_path, monkeypatch):
    """The whole build of a one-card edit (load, checks, lay-out, sheets) reads no kept card's
    values or positions: each is found by its text."""
    root = project(tmp_path)
    out, clean = tmp_path / "out", tmp_path / "clean"
    runner = CliRunner()
    assert runner.invoke(main, ["--root", str(root), "build", "bench", "--out", str(out)],
                         env={"CARDGEN_CACHE": "on"}).exit_code == 0
    made: list[keptcard.KeptCard] = []
    real = keptcard.KeptCard.__init__

    def init(self: keptcard.KeptCard, *a: object) -> None:
        real(self, *a)                               # type: ignore[arg-type]
        made.append(self)
    monkeypatch.setattr(keptcard.KeptCard, "__init__", init)
    path = root / CARDS
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('name: "Card 5"', 'name: "Card V"'), encoding="utf-8")
    res = runner.invoke(main, ["--root", str(root), "build", "bench", "--out", str(out)],
                        env={"CARDGEN_CACHE": "on"})
    assert res.exit_code == 0, res.output
    assert len(made) == 12 and all(c.id == "3" or c._fields is None and c._locs is None for c in made)
    assert runner.invoke(main, ["--root", str(root), "build", "bench", "--out", str(clean)],
                         env={"CARDGEN_CACHE": "off"}).exit_code == 0
    for f in ("cards.pdf", "cards.json"):
        assert (out / "bench" / f).read_bytes() == (clean / "bench" / f).read_bytes()


def test_a_watched_view_of_kept_cards_reads_them_as_cards(tmp_path):
    """A printable's watched view of the game (the cache's recording) copies each card's
    attributes: a kept card's are read (decoded) for it, and its reads are recorded."""
    root = project(tmp_path)
    memo = CardMemo(Store(tmp_path / "cache"), "ctx")
    parsed = loaded(root, memo)
    game = load_game(root, "bench", Problems(), memo)
    assert game is not None and type(game.cards[5]) is keptcard.KeptCard
    rec = Recorder()
    view = watched(game, rec)
    card = view.cards[5]
    assert card.fields.get("rules") == parsed[5].fields["rules"]
    assert rec.cards[parsed[5].id] == {"rules"}
    assert (card.name, card.loc, card.field_locs) == (parsed[5].name, parsed[5].loc, parsed[5].field_locs)
    assert parsed[5].id in rec.cards and rec.cards[parsed[5].id] is None     # then the whole card
