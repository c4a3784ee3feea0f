"""Print-service presets, as data: ``services/<name>.yaml`` in the project.

A preset names the card's trim size, bleed, safe margin, resolution, colour mode and how
files are named. A card whose size differs from the preset's by more than ``tolerance``
(mm, on either side) cannot be sent there: an error naming both sizes.
"""

from __future__ import annotations

from pathlib import Path

from cardgen.core.options import Opt, check_mapping
from cardgen.core.problems import Loc, Problems
from cardgen.core.record import record
from cardgen.core.yamlsrc import load_yaml

SPEC = {
    "name": Opt("str", required=True, doc="the service and product, as designers call it"),
    "trim": Opt("list", item=Opt("length"), required=True, doc="the cut card's width and height"),
    "bleed": Opt("length", required=True, min=0, doc="art beyond the cut on every side"),
    "safe": Opt("length", required=True, min=0, doc="keep text and icons this far inside the cut"),
    "dpi": Opt("int", required=True, min=72, max=1200, doc="pixels per inch of the files"),
    "color": Opt("enum", choices=("RGB", "CMYK"), default="RGB", doc="the files' colour mode"),
    "naming": Opt("str", default="{id}{side}.png",
                  doc="file name pattern: {id}, {name}, {copy}, {side} ('' front, '-back' back), {n}"),
    "tolerance": Opt("length", default=1.0, min=0,
                     doc="how far a card's size may differ from the trim (the design is centred, bleed extended)"),
    "url": Opt("str", default=None, doc="where to upload, for the designer"),
}


@record(frozen=True)
class Service:
    key: str
    name: str
    trim: tuple[float, float]
    bleed: float
    safe: float
    dpi: int
    color: str
    naming: str
    tolerance: float
    url: str | None
    loc: Loc


def folder(root: Path) -> Path:
    return root / "services"


def available(root: Path) -> list[str]:
    return sorted(p.stem for p in folder(root).glob("*.yaml"))


def load(root: Path, key: str, problems: Problems) -> Service | None:
    path = folder(root) / f"{key}.yaml"
    doc = load_yaml(path, problems)
    if doc is None:
        return None
    r = check_mapping(doc, SPEC, problems, f"print service '{key}'")
    if not r.ok:
        return None
    v = r.values
    if len(v["trim"]) != 2:
        problems.error("YAML-TYPE", "trim must be two lengths [width, height]", doc.at("trim"))
        return None
    return Service(key, v["name"], (v["trim"][0], v["trim"][1]), v["bleed"], v["safe"], v["dpi"], v["color"],
                   v["naming"], v["tolerance"], v.get("url"), doc.loc)


def fits(service: Service, w: float, h: float) -> bool:
    tw, th = service.trim
    return abs(tw - w) <= service.tolerance + 1e-9 and abs(th - h) <= service.tolerance + 1e-9
