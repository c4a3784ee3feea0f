"""The build as one pipeline: load → check → lay out → render → write, the cache a stage.

:func:`run` takes a :class:`Request` (the games, the output folder, the print settings' layers,
draft, ``--only``, ``--cards``) and returns an :class:`Outcome`: the problems, what was written,
and why it stopped when it did. It prints nothing: ``cardgen build`` (and anything else that
builds) parses its arguments, calls :func:`run` and reports the outcome.

The stages, in order:

1. **up to date?** — the same code, sources and options as a finished build whose outputs are
   all still there, byte for byte: its warnings again, nothing redone (:mod:`cardgen.layout.cache`);
2. **load and check** each game (:func:`cardgen.builder.pipeline.validate`), the printer's
   settings layered on its print settings;
3. **lay out and render** — the card sheets while the cards are laid out (memory), then every
   other printable, each from the build cache when nothing it read has changed;
4. **write** each game's outputs as one set (:func:`cardgen.core.atomic.replace_set`), and
   record the build for step 1.

Content problems stop the build before anything is written; an output that cannot be written
stops it with the previous outputs intact.
"""

from __future__ import annotations

import gc
import hashlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, field, replace
from pathlib import Path
from typing import Any

from cardgen.builder import pipeline
from cardgen.builder.selection import SelectionError, select_cards
from cardgen.builder.selection import apply as apply_selection
from cardgen.builder.selection import printables as select_printables
from cardgen.content import printers as printer_profiles
from cardgen.content.loader import check_sizes_fit
from cardgen.content.model import Game
from cardgen.core import sources
from cardgen.core.atomic import OutputError, check_folder, leftovers, replace_set
from cardgen.core.problems import Loc, Problems, did_you_mean
from cardgen.core.record import record
from cardgen.layout.cache import cached_files, code_fingerprint, digest, files_digest
from cardgen.layout.cachebound import blob_limit, collect
from cardgen.layout.cachestore import Store
from cardgen.layout.cachestore import default_folder as cache_folder
from cardgen.layout.cachestore import enabled as cache_enabled
from cardgen.layout.pagecache import PageCache
from cardgen.printables import cards as cards_printable
from cardgen.printables import for_game

MAX_OUTPUT = 2 * 1024 * 1024 * 1024      # an output file read back (to keep it, or to see it is current)

#: a step of the render stage: (the laid-out game, the printable's name, its builder, extra arguments)
Step = tuple[Any, str, Callable[..., dict[str, bytes]], dict[str, Any]]
#: how a caller shows the render stage's progress: the steps → the same steps, as they are taken
Progress = Callable[[Sequence[Step]], Iterable[Step]]


@record
class Request:
    root: Path
    games: list[str]
    out: Path
    #: the print settings' layers over each game's own (printer profile, flags): see content.printers
    layers: list[Any] = field(default_factory=list)
    draft: bool | None = None
    only: list[str] = field(default_factory=list)
    cards: str | None = None             # a card selection (``--cards``): one game's cards-<selection>.pdf
    #: why --paper moved the sheet (for a size that no longer fits), e.g. " (--paper)"
    paper_reason: str = ""


@record
class Outcome:
    problems: Problems
    written: list[str] = field(default_factory=list)
    up_to_date: bool = False
    #: why the build stopped before writing (content problems; an output that cannot be written)
    stopped: str | None = None
    output_error: OutputError | None = None
    error_cards: int = 0                 # a draft's cards printed as error cards
    seconds: float = 0.0

    @property
    def code(self) -> int:
        return 1 if self.stopped is not None or self.output_error is not None or self.error_cards \
            or self.problems.has_errors else 0


def check_request(names: Sequence[str], only: Sequence[str]) -> None:
    """``--only`` names printables every named game has (else :class:`SelectionError`)."""
    for slug in names if only else ():
        select_printables(list(only), list(for_game(slug)))


def _unabsorbed(plans: Sequence[Any], problems: Problems) -> bool:
    absorbed = {id(p) for laid in plans for p in laid.absorbed}
    return any(id(p) not in absorbed for p in problems.errors)


def run(req: Request, progress: Progress | None = None) -> Outcome:
    """The whole build (see the module docstring). Raises :class:`SelectionError` for a
    selection that names nothing (a usage error)."""
    store = Store(cache_folder(req.out), link_blobs=True) if cache_enabled() else None
    with _ending(store):
        problems = Problems()
        started = time.monotonic()
        try:
            check_folder(req.out)
        except OutputError as e:
            return Outcome(problems, stopped="build stopped: nothing was written.", output_error=e)
        memo = None
        if store is not None and req.cards is None:
            memo = digest(code_fingerprint(store), str(req.root), str(req.out), req.layers, req.draft, sorted(req.only),
                          [[slug, files_digest([req.root / d / slug for d in ("rules", "cards", "templates", "maps", "art")])]
                           for slug in req.games])
            current = up_to_date(store, memo, problems, req.out)
            if current is not None:
                return Outcome(problems, current, up_to_date=True)
        limit = blob_limit(problems) if store is not None else None
        with _settled():
            plans = _load(req, problems, store)
        printed = _print_streamed(plans, problems, req.out)
        if _unabsorbed(plans, problems):
            return Outcome(problems, stopped="build stopped: content problems above; nothing was written.")
        steps = _steps(plans, list(req.only), req.cards, req.root, problems)
        for laid in plans:
            for n in laid.game.printables:
                if n not in for_game(laid.game.slug):
                    problems.error("GAME-PRINTABLE", f"{laid.game.title} lists unknown printable '{n}'",
                                   Loc(str(laid.game.game_file), 1, 1), hint=did_you_mean(n, for_game(laid.game.slug)))
        if _unabsorbed(plans, problems):
            return Outcome(problems, stopped="")
        outputs: dict[str, dict[str, bytes]] = {}
        for laid, name, fn, extra in (progress or list)(steps):
            if (id(laid), name) in printed:     # printed while laid out: its own problems join here
                files, found = printed.pop((id(laid), name))
                problems.extend(found)
            else:
                files = _make(store if not extra else None, laid, name, fn, problems, req.out / laid.game.slug, extra)
            outputs.setdefault(laid.game.slug, {}).update(files)
        if _unabsorbed(plans, problems):
            return Outcome(problems, stopped="")
        written: list[str] = []
        for slug, files in outputs.items():         # each game's outputs replaced as one set
            made = set(files)
            if req.only or req.cards is not None:   # a part of the game: its other outputs stay
                files = {**_existing(req.out / slug), **files}
            try:                                    # reported: only what this build wrote
                written += [str(p) for p in replace_set(req.out / slug, files)
                            if p.relative_to(req.out / slug).as_posix() in made]
            except OutputError as e:
                return Outcome(problems, written, stopped=f"build stopped: the previous outputs of {slug} are intact.",
                               output_error=e)
        if store is not None:       # the outputs' blobs: second names of the files just written
            store.keep_blobs((req.out / slug / n, d)
                             for slug, files in outputs.items() for n, d in files.items())
        n_err = sum(laid.error_cards for laid in plans)
        if store is not None and memo is not None and not n_err:
            store.put("build", memo, {"files": {str(req.out / slug / n): store.sha(d)
                                                for slug, files in outputs.items() for n, d in files.items()},
                                      "problems": [[p.rule, p.severity, p.message, _loc_list(p.loc), p.hint]
                                                   for p in problems]})
        if store is not None and limit is not None and store.blobs_new:
            collect(store.folder / "blobs", limit, store.blobs_used)
        return Outcome(problems, written, error_cards=n_err, seconds=time.monotonic() - started)


@contextmanager
def _ending(store: Store | None) -> Iterator[None]:
    """What the build leaves when it ends, however it ends: the new blobs not linked to an
    output (a build stopped early) written, and what :func:`_settled` kept out of the
    collector's passes back in them."""
    try:
        yield
    finally:
        if store is not None:
            store.keep_blobs()
        gc.unfreeze()


@contextmanager
def _settled() -> Iterator[None]:
    """Load, check and lay out without the cyclic collector's passes, then keep what they made out
    of its later ones (``gc.freeze``; :func:`run` puts it back when the build ends): the games and
    their laid-out placements live until then, and a pass over them finds next to nothing to free —
    a one-card edit of the 5,400-card deck made ~50,000 objects there, and the one pass over them
    (during the lay-out, 73 freed) took ~15 ms of its ~0.34 s. The collector runs again as it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was:
            gc.enable()


def one_printable(game: Game, name: str, problems: Problems, out_dir: Path, store: Store | None = None,
                  draft: bool = True) -> dict[str, bytes]:
    """One printable of a loaded game through the build's own stages (lay out → render), not
    written: the live preview's PDFs (``cardgen serve``)."""
    laid = pipeline.lay_out(game, problems, draft=draft, store=store)
    return _make(None, laid, name, for_game(game.slug)[name], problems, out_dir, {})


def _load(req: Request, problems: Problems, store: Store | None) -> list[Any]:
    """Load, check and lay out each game (the card sheets stream while they are laid out)."""
    def stream(game: Game) -> bool:
        wanted = [n for n in game.printables if n in for_game(game.slug)]
        try:
            return req.cards is None and "cards" in (select_printables(list(req.only), wanted) if req.only else wanted)
        except SelectionError:             # reported by _steps
            return False
    plans = []
    for slug in req.games:
        laid = pipeline.validate(req.root, slug, problems, draft=req.draft, store=store, stream=stream)
        if laid is None:
            continue
        ps = laid.game.print
        before = (ps.paper, ps.margin)
        printer_profiles.apply(ps, req.layers)
        if (ps.paper, ps.margin) != before:
            check_sizes_fit({ct.size: (ct.width, ct.height) for ct in laid.game.card_types.values()}, ps,
                            problems, laid.game.meta.get("card_sizes"), req.paper_reason)
        plans.append(laid)
    return plans


def _existing(folder: Path) -> dict[str, bytes]:
    """The files a game's output folder holds now (a partial build keeps them)."""
    if not folder.is_dir():
        return {}
    return {p.relative_to(folder).as_posix(): sources.read_bytes(p, folder, MAX_OUTPUT)
            for p in sorted(folder.rglob("*")) if p.is_file() and not p.name.startswith(".")}


def _loc_list(loc: Loc | None) -> list[Any] | None:
    return [loc.file, loc.line, loc.col] if loc is not None else None


def up_to_date(store: Store, memo: str, problems: Problems, out: Path) -> list[str] | None:
    """The same sources, code and options as a finished build whose outputs are all still there,
    byte for byte: its problems (warnings) are reported again, nothing is redone, and its
    outputs are returned (None: build)."""
    entry = store.get("build", memo)
    if not isinstance(entry, dict) or not isinstance(entry.get("files"), dict):
        return None
    recorded = set(entry["files"])
    for folder in {out / Path(p).relative_to(out).parts[0] for p in recorded}:
        try:            # exactly the files built, and nothing a killed build left beside them
            here = {str(p) for p in folder.rglob("*") if p.is_file()}
            strays = leftovers(folder)
        except (OSError, ValueError):
            return None
        if strays or here != {p for p in recorded if Path(p).is_relative_to(folder)}:
            return None
    for path, sha in entry["files"].items():
        p = Path(path)
        try:
            if not p.is_file() or hashlib.sha256(sources.read_bytes(p, p.parent, MAX_OUTPUT)).hexdigest() != sha:
                return None
        except (OSError, sources.SourceError):
            return None
    for r, sev, msg, loc, hint in entry.get("problems") or []:
        problems.add(r, sev, msg, Loc(*loc) if loc else None, hint)
    return list(entry["files"])


def _print_streamed(plans: list[Any], problems: Problems, out: Path) -> dict[tuple[int, str], tuple[dict[str, bytes], Problems]]:
    """The card sheets of the games laid out as printed (``pipeline.lay_out_streamed``), printed
    now, while the layout reports the cards' problems: (its files, its own problems) per game.
    Games with errors already are only laid out (their problems reported), never printed."""
    printed = {}
    for laid in plans:
        if not laid.streamed:
            continue
        if _unabsorbed(plans, problems):
            pipeline.finish(laid)
            continue
        own = Problems()
        files = cards_printable.build(laid, problems=own, out_dir=out / laid.game.slug, release=True)
        printed[(id(laid), "cards")] = (files, own)
    return printed


def _make(store: Store | None, laid: Any, name: str, fn: Callable[..., dict[str, bytes]], problems: Problems,
          out_dir: Path, extra: dict[str, Any]) -> dict[str, bytes]:
    """One printable's files, from the build cache when nothing it read has changed. The card
    sheets, the last reader of the laid-out placements, free them as they are drawn."""
    own = {"release": True} if fn is cards_printable.build and not extra else {}
    if store is None:
        return fn(laid, problems=problems, out_dir=out_dir, **extra, **own)
    if name == "cards":        # its input is the laid-out sheets themselves
        shared = pipeline.digest(asdict(laid.game.print), laid.draft, laid.game.title, laid.game.slug)
        symbols = pipeline.symbols_key(laid.layout.symbols)
        every_page = pipeline.digest(shared, laid.layout.static_key(), symbols)
        pages = PageCache(store, f"{laid.game.slug}/cards", every_page, laid.layout.content_ids)
        static = pipeline.digest(pages.placements_key(laid.groups), symbols)     # (the sheets' content)
        files = cached_files(store, name, pipeline.digest(static, shared), laid.game, problems,
                             lambda g, p: fn(laid, problems=p, out_dir=out_dir, reuse=pages, **own),
                             watch=False)
        pages.save()
        return files
    static = pipeline.digest(name, laid.game.slug, pipeline.sources_key(laid.game))
    return cached_files(store, name, static, laid.game, problems,
                        lambda g, p: fn(replace(laid, game=g), problems=p, out_dir=out_dir))


def _steps(plans: list[Any], only: list[str], cards_sel: str | None, root: Path, problems: Problems) -> list[Step]:
    """(laid, printable, builder, extra arguments) for each output to make."""
    steps: list[Step] = []
    for laid in plans:
        avail = for_game(laid.game.slug)
        wanted = [n for n in laid.game.printables if n in avail]
        if cards_sel is not None:
            sel = select_cards(cards_sel, laid.game, root, problems)
            groups = apply_selection(laid.groups, sel)
            steps.append((laid, "cards", avail["cards"], {"groups": groups, "stem": f"cards-{sel.label}"}))
            continue
        if only:
            wanted = select_printables(only, wanted)
        steps += [(laid, n, avail[n], {}) for n in wanted]
    return steps
