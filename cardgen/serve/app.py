"""The preview server: a Starlette app on 127.0.0.1 (uvicorn), a watchfiles watcher on the
game's sources, and server-sent events telling open pages to refresh.

Routes: ``/`` the page, ``/cards`` the refreshed part of it, ``/state.json`` the same as
data, ``/face/<digest>.png?dpi=`` one card face, ``/printable/<name>`` a board or rulebook
PDF built on request, ``/events`` the version stream.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import uvicorn
import watchfiles
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from cardgen.builder import build
from cardgen.core.problems import Problems
from cardgen.serve import page
from cardgen.serve.preview import Preview

HOST = "127.0.0.1"
KEEPALIVE = 15.0            # seconds between comment lines on an idle event stream
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]"})     # the Host names answered (any port)


def host_name(header: str) -> str:
    """The host of a ``Host`` header without its port, lower case (``[::1]:8000`` → ``[::1]``)."""
    header = header.strip().lower()
    if header.startswith("["):
        end = header.find("]")
        rest = header[end + 1:]
        return header[: end + 1] if end > 0 and (not rest or rest.startswith(":")) else ""
    return header.split(":", 1)[0]


class LocalHostOnly:
    """Answer only requests addressed to this machine by name: a page elsewhere that points its own
    domain at 127.0.0.1 (DNS rebinding) sends its own name as ``Host`` and gets 421, never a card."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = [v.decode("latin-1") for k, v in scope["headers"] if k == b"host"]
            if len(hosts) != 1 or host_name(hosts[0]) not in LOCAL_HOSTS:
                status = 400 if len(hosts) != 1 else 421
                await PlainTextResponse("cardgen serve answers only http://127.0.0.1, http://localhost and "
                                        "http://[::1] (with any port)", status)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class Live:
    """The preview plus what the server needs around it: the version pages wait on, and the
    rebuild loop (cards first, published at once; then the slow checks unless more changes
    are waiting)."""

    def __init__(self, preview: Preview):
        self.preview = preview
        self.changed = asyncio.Condition()
        self.dirty = asyncio.Event()

    async def publish(self) -> None:
        async with self.changed:
            self.changed.notify_all()

    async def rebuild(self) -> None:
        try:
            await asyncio.to_thread(self.preview.rebuild_cards)
            await self.publish()
            if not self.dirty.is_set():
                await asyncio.to_thread(self.preview.recheck)
        except Exception as e:  # noqa: BLE001 - a cardgen bug: said on the page, and the next save tries again
            self.preview.failed(e)
        await self.publish()

    async def work(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.dirty.wait()
            self.dirty.clear()
            await self.rebuild()

    async def watch(self, stop: asyncio.Event) -> None:
        """Mark the game dirty whenever a source file changes (editors' bursts of writes coalesce)."""
        folders = [str(p) for p in self.preview.watched()]
        if not folders:
            return
        mine = lambda change, path: _source_filter(change, path) and self.preview.concerns(path)  # noqa: E731
        async for _changes in watchfiles.awatch(*folders, stop_event=stop, debounce=50, step=20, watch_filter=mine):
            self.dirty.set()


def _source_filter(change: watchfiles.Change, path: str) -> bool:
    name = Path(path).name
    return not (name.startswith(".") or name.endswith(("~", ".swp", ".tmp")) or "__pycache__" in path)


def make_app(preview: Preview, watch: bool = True) -> Starlette:
    live = Live(preview)
    stop = asyncio.Event()

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await live.rebuild()
        tasks = [asyncio.create_task(live.watch(stop)), asyncio.create_task(live.work(stop))] if watch else []
        try:
            yield
        finally:
            stop.set()
            await live.publish()
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def index(request: Request) -> HTMLResponse:
        return HTMLResponse(page.page(preview.snapshot), headers={"Cache-Control": "no-store"})

    async def cards(request: Request) -> HTMLResponse:
        return HTMLResponse(page.fragment(preview.snapshot), headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> JSONResponse:
        return JSONResponse(preview.snapshot.as_dict(), headers={"Cache-Control": "no-store"})

    async def face(request: Request) -> Response:
        try:
            dpi = max(30, min(600, int(request.query_params.get("dpi", page.GRID_DPI))))
        except ValueError:
            dpi = page.GRID_DPI
        data = await asyncio.to_thread(preview.image, request.path_params["key"], dpi)
        if data is None:
            return Response("no such face (the card changed since the page was drawn)", 404)
        return Response(data, media_type="image/png", headers={"Cache-Control": "max-age=86400, immutable"})

    async def printable(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in preview.snapshot.printables:
            return Response(f"{preview.slug} has no printable {name!r}", 404)
        data, why = await asyncio.to_thread(_printable, preview, name)
        if data is None:
            return Response(f"{name} could not be built:\n{why}\n(`cardgen build {preview.slug} --only {name}` "
                            "says the same)", 500, media_type="text/plain; charset=utf-8")
        return Response(data, media_type="application/pdf")

    async def events(request: Request) -> StreamingResponse:
        async def stream() -> AsyncIterator[str]:
            seen = -1
            while not stop.is_set():
                v = preview.snapshot.version
                if v != seen:
                    seen = v
                    yield f"data: {v}\n\n"
                    continue
                async with live.changed:
                    try:
                        await asyncio.wait_for(live.changed.wait(), KEEPALIVE)
                    except asyncio.TimeoutError:
                        yield ": still here\n\n"
                if await request.is_disconnected():
                    return
        return StreamingResponse(stream(), media_type="text/event-stream", headers={"Cache-Control": "no-store"})

    routes = [Route("/", index), Route("/cards", cards), Route("/state.json", state),
              Route("/face/{key:str}.png", face), Route("/printable/{name:str}", printable),
              Route("/events", events)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(LocalHostOnly)])


def _printable(preview: Preview, name: str) -> tuple[bytes | None, str]:
    """The printable's PDF (``<name>.pdf``, else its first), built from the current sources;
    else None and why."""
    game = preview.game
    if game is None:
        return None, "the game could not be loaded"
    problems = Problems()
    try:
        files = build.one_printable(game, name, problems, preview.root / "build" / game.slug, preview.store)
    except Exception as e:  # noqa: BLE001 - a failing printable is a message on the page, not a dead server
        return None, f"{type(e).__name__}: {e}"
    pdfs = sorted((f != f"{name}.pdf", f) for f in files if f.endswith(".pdf"))
    if not pdfs:
        return None, "\n".join(p.text() for p in problems.sorted() if p.severity == "error") or "it wrote no PDF"
    return files[pdfs[0][1]], ""


def serve(preview: Preview, port: int, watch: bool = True) -> None:
    """Run until interrupted."""
    uvicorn.run(make_app(preview, watch), host=HOST, port=port, log_level="warning",
                timeout_graceful_shutdown=1)
