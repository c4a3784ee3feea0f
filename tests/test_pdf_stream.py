"""The card sheets' PDF written as it goes: the file formatted object by object is reportlab's own
file byte for byte; text objects share their font operator and their lines, and still put every
character where the scene says, in its font and colour; cards.json written sheet by sheet is
the text of the whole manifest."""

from __future__ import annotations

import io
import json
import re

import pdfplumber
import pytest
from pypdf import PdfReader
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase.pdfdoc import PDFDocument, PDFStream
from reportlab.pdfgen import canvas

from cardgen.builder import pipeline
from cardgen.core import fonts
from cardgen.core.jsonout import dumps
from cardgen.core.problems import Problems
from cardgen.printables import cards
from cardgen.render import pdf as pdf_render
from cardgen.render.pdf import MM, render
from cardgen.render.pdffmt import Formatter
from cardgen.render.pdfwrite import pack_page, pdf_data
from cardgen.render.pen import Pen, save_state
from cardgen.scene import Clip, Document, Image, Moved, Page, Rect, Text, translate
from tests.conftest import ROOT

REG, BOLD = "LiberationSans-Regular", "LiberationSans-Bold"


def _canvas(spill: bool = True) -> canvas.Canvas:
    """A document with forms, TrueType text, an outline entry and two packed pages (their
    streams kept in a temporary file, or in memory)."""
    c = canvas.Canvas(io.BytesIO(), pagesize=(300, 400), invariant=1, pageCompression=1)
    c.setTitle("t")
    fonts.font(REG)
    c.beginForm("F1", 0, 0, 50, 50)
    c.rect(0, 0, 50, 50, fill=1)
    c.endForm()
    for k in range(2):
        c.setFont(REG, 9)
        c.drawString(20, 300 - k, f"page {k} – ünïcödé")
        c.doForm("F1")
        c.bookmarkPage(f"p{k}")
        c.addOutlineEntry(f"page {k}", f"p{k}")
        c.showPage()
        pack_page(c, spill)
    return c


def test_the_file_formatted_as_it_goes_is_reportlabs_byte_for_byte():
    expected = _canvas(spill=False).getpdfdata()
    assert pdf_data(_canvas()) == expected
    assert pdf_data(_canvas(spill=False)) == expected


def _face(name: str) -> str:
    return fonts.font(name).face.name.decode()


def _texts(doc_items: list, h: float = 100.0) -> bytes:
    doc = Document("t")
    doc.pages.append(Page(100.0, h, items=doc_items))
    return render(doc)


def _content(data: bytes) -> str:
    page = PdfReader(io.BytesIO(data)).pages[0]
    return page.get_contents().get_data().decode("latin-1")


def test_lines_share_one_text_object_and_land_where_the_scene_puts_them():
    lines = [Text(10.0, 20.0 + 3.36 * k, f"line {k} of the rules", REG, 8, "#000000", "left") for k in range(6)]
    lines += [Text(60.5, 80.25, "#12", BOLD, 6, "#000000", "left")]
    data = _texts(lines)
    ops = _content(data).split("\n", 1)[1]        # after reportlab's page preamble
    first = ops[ops.index("BT"):ops.index("ET") + 2]
    assert all(f"(line {k} of the rules) Tj" in first for k in range(6))     # one text object
    assert first.count(" Tf") == 1 and ops.count(" Tf") == 2       # a font operator per font
    assert " Tm" not in ops and " TL" not in ops and "T*" not in ops
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
    assert "".join(ch["text"] for ch in chars) == "".join(t.text for t in lines)
    at = 0
    for t in lines:     # each text's origin where drawString puts it: its position as fp_str writes it
        ch = chars[at]
        at += len(t.text)
        assert ch["matrix"][4] == pytest.approx(float(fp_str(t.x * MM)), abs=1e-9)
        assert ch["matrix"][5] == pytest.approx(float(fp_str((100.0 - t.y) * MM)), abs=1e-9)
        assert ch["fontname"].split("+")[-1] == _face(t.font) and ch["size"] == pytest.approx(t.size)


def test_after_a_clip_the_outer_font_and_colour_hold_again():
    """The font and colour operators are written only when they change: inside a clip (``q``…
    ``Q``) another font and colour, after it the outer ones again without writing them."""
    outer = Text(10.0, 20.0, "before", REG, 9, "#000000", "left")
    inner = Text(10.0, 40.0, "inside", BOLD, 12, "#cc0000", "left")
    after = Text(10.0, 60.0, "after", REG, 9, "#000000", "left")
    data = _texts([outer, Clip(0.0, 30.0, 100.0, 20.0, (inner,)), after])
    ops = _content(data).split("\n", 1)[1]
    assert ops.count(" Tf") == 2 and ops.count(" rg") == 2        # not again after the Q
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        chars = pdf.pages[0].chars
    seen = {}
    for ch in chars:
        seen.setdefault(ch["text"] if ch["text"] in "bia" else None, (ch["fontname"], ch["size"],
                                                                  tuple(ch["non_stroking_color"])))
    assert [seen[k][0].split("+")[-1] for k in "bia"] == [_face(REG), _face(BOLD), _face(REG)]
    assert seen["b"][1:] == seen["a"][1:] == (9, (0, 0, 0))
    assert seen["i"][1] == 12 and seen["i"][2] == pytest.approx((0.8, 0, 0))


def test_a_text_after_other_drawing_starts_its_own_text_object():
    data = _texts([Text(10.0, 20.0, "one", REG, 9, "#000000", "left"),
                   Rect(5.0, 25.0, 10.0, 5.0, fill="#00ff00"),
                   Text(10.0, 40.0, "two", REG, 9, "#000000", "left")])
    ops = _content(data).split("\n", 1)[1]
    assert ops.count("BT") == 2 and ops.count(" Tf") == 1
    assert re.search(r"ET\s.*re f\*?\s.*BT", ops, re.S)


def _state(c: canvas.Canvas) -> tuple:
    """What a canvas's saved state is made of: its stack, its extended graphics state, its code."""
    stack = [{k: (v._d if k == "_extgstate" else v) for k, v in s.items()} for s in c.state_stack]
    now = {k: v for k, v in c.__dict__.items() if k in canvas.Canvas.STATE_ATTRIBUTES and k != "_extgstate"}
    return stack, c._extgstate._d, list(c._code), now


def test_save_state_is_reportlabs_save_state():
    """The pen's clip saves the state as ``saveState`` does: the same stack, a copy of the extended
    graphics state (its values, not its names), ``q``; restored by ``restoreState`` alike."""
    made = []
    for save in (canvas.Canvas.saveState, save_state):
        c = canvas.Canvas(io.BytesIO())
        c.setFillColorRGB(0.2, 0.4, 0.6)
        c.setFillAlpha(0.5)
        c.setLineWidth(2.5)
        before = c._extgstate
        save(c)
        assert c._extgstate is not before and c._extgstate._c is before._c and c._extgstate._d == before._d
        c.setFillAlpha(0.25)
        assert before.getValue("ca") == 0.5            # the saved values are not shared
        mid = _state(c)
        c.restoreState()
        assert c._extgstate is before
        made.append((mid, _state(c)))
    assert made[0] == made[1]



def test_a_font_set_again_is_the_state_set_font_sets():
    """A TrueType font set again by the pen (its state set, no ``setFont`` call) leaves the canvas
    as ``setFont`` leaves it: name, size, leading, nothing written."""
    fonts.font(REG)
    fonts.font(BOLD)
    ours = canvas.Canvas(io.BytesIO())
    pen = Pen(ours, Document("t"))
    theirs = canvas.Canvas(io.BytesIO())
    for name, size in ((REG, 9), (BOLD, 12), (REG, 7.5), (BOLD, 12), (REG, 9)):
        pen.set_font(name, size)
        theirs.setFont(name, size)
        assert (ours._fontname, ours._fontsize, ours._leading, ours._code) \
            == (theirs._fontname, theirs._fontsize, theirs._leading, theirs._code)
        assert pen._ttf is fonts.font(name) and pen._direct and pen.font == (name, size)
    assert set(pen._fonts) == {REG, BOLD}

def test_a_line_width_written_again_is_the_operator_and_width_it_wrote():
    """A width met before is written from memory: the same operator, the canvas's width the same."""
    rects = [Rect(5.0, 5.0 + 12 * k, 10.0, 10.0, stroke="#000000", width=w)
             for k, w in enumerate((0.35, 0.5, 0.35))]
    ops = _content(_texts(rects)).split("\n", 1)[1]
    widths = re.findall(r"(\S+) w\b", ops)
    assert widths == [fp_str(0.35 * MM), fp_str(0.5 * MM), fp_str(0.35 * MM)]


def test_rects_of_a_moved_side_write_what_they_write_one_by_one():
    """A card side's rects one after the other (its frame and boxes), placed again at the same
    place from the same state, write the operators they wrote (kept from the second time on) and
    leave the state they left; from another state, what that state needs (a colour or width set
    again): the same stream as the rects drawn one by one."""
    side = [Rect(0.0, 0.0, 69.0, 94.0, fill="#8b1e3f"),
            Rect(3.0, 3.0, 57.0, 82.0, fill="#ffffff", stroke="#000000", width=0.35, radius=3.0),
            Rect(6.0, 39.0, 51.0, 35.0, fill="#edede6", stroke="#000000", width=0.35)]
    other = Rect(1.0, 1.0, 2.0, 2.0, fill="#00ff00", stroke="#0000ff", width=0.5)
    last = Rect(1.0, 5.0, 2.0, 2.0, fill="#edede6", stroke="#000000", width=0.35)    # as the side leaves it
    at, there = (5.0, 7.0), (90.0, 7.0)
    order = [at, at, at, other, at, other, at, other, at, last, there]
    moved = [Moved(*at, side) if isinstance(at, tuple) else at for at in order]
    flat = [it for at in order for it in (translate(side, *at) if isinstance(at, tuple) else [at])]
    assert _content(_texts(moved, 200.0)) == _content(_texts(flat, 200.0))


@pytest.fixture(scope="module")
def laid():
    found = pipeline.validate(ROOT, "loot_battles", Problems())
    assert found is not None
    return found


def test_cards_json_written_sheet_by_sheet_is_the_whole_manifest_as_dumps_writes_it(laid, monkeypatch):
    monkeypatch.setattr(cards, "BATCH", 3)          # batches end inside the pages
    files = cards.build(laid)
    text = files["cards.json"].decode("utf-8")
    manifest = json.loads(text)
    assert len(manifest["pages"]) > 2 * cards.BATCH
    assert dumps(manifest, indent=1, inline=cards.ONE_LINE) + "\n" == text
    assert [p["page"] for p in manifest["pages"]] == list(range(1, len(manifest["pages"]) + 1))
    monkeypatch.setattr(cards, "BATCH", 200)
    assert cards.build(laid) == files


def test_the_sheets_pages_are_the_manifests(laid):
    files = cards.build(laid)
    manifest = json.loads(files["cards.json"])
    reader = PdfReader(io.BytesIO(files["cards.pdf"]))
    assert len(reader.pages) == len(manifest["pages"])
    assert [e["side"] for e in manifest["pages"]] == ["front", "back"] * (len(reader.pages) // 2)
    H = manifest["page_size"][1]
    for entry, page in zip(manifest["pages"], reader.pages):
        boxes = [c["trim"] for c in entry["cards"]]
        x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
        assert float(page.trimbox.left) / MM == pytest.approx(x0, abs=1e-3)
        assert H - float(page.trimbox.top) / MM == pytest.approx(y0, abs=1e-3)


def test_pages_and_streams_formatted_here_are_reportlabs_bytes(laid, monkeypatch):
    """Card sheets (TrueType subsets, forms, pictures, trim and bleed boxes, many pages): the
    pages, their streams and the page tree written by render.pdffmt, byte for byte what
    reportlab's getpdfdata writes for the same canvas."""
    ours = cards.build(laid)["cards.pdf"]
    monkeypatch.setattr(pdf_render, "pack_page", lambda c: pack_page(c, spill=False))
    monkeypatch.setattr(pdf_render, "pdf_data", lambda c: c.getpdfdata())
    assert cards.build(laid)["cards.pdf"] == ours


def test_an_svg_pictures_form_is_named_by_its_content_not_where_the_project_lies(tmp_path):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
           '<rect x="1" y="1" width="8" height="8" fill="#c00"/></svg>')
    made = []
    for where in ("one", "two/deeper"):
        art = tmp_path / where / "art.svg"
        art.parent.mkdir(parents=True)
        art.write_text(svg)
        doc = Document("svg")
        doc.pages.append(Page(20, 20, [Image(str(art), 2, 2, 10, 10)]))
        made.append(render(doc))
    assert b"/FormXob.SVG" in made[0]
    assert made[0] == made[1]



def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the exception is the behaviour compared
        return ("raised", type(e).__name__, str(e))


@pytest.mark.parametrize("content", ["0 0 m 10 10 l S", "a\nb\r\nc~>", "ü ünïcödé", "\x17\x20", "\x7f",
                                     *[f"BT {chr(n)} ET" for n in range(0x18, 0x20)]])
def test_a_stream_of_text_is_reportlabs_bytes_whatever_its_characters(content):
    """A stream whose content is text (ASCII kept as it is; the eight controls \\x18–\\x1f and any
    other character through the extpdfdoc codec, which refuses some) is formatted as reportlab
    formats it, or refused as reportlab refuses it."""
    doc = PDFDocument(invariant=1)
    stream = PDFStream(content=content, filters=[])
    assert _outcome(Formatter(doc).top, stream) == _outcome(stream.format, doc)
