"""Authoring commands: ``cardgen serve`` (the live preview in the browser) and ``cardgen schema``
(JSON Schemas for editors). Wired in by :mod:`cardgen.cli`; the work is in :mod:`cardgen.serve`
and :mod:`cardgen.reference.editorschema`. ``obj`` is the CLI's context (root, games, check_games)."""

from __future__ import annotations

import json
import socket
import sys
from pathlib import Path
from typing import Any

import click

from cardgen.content.loader import load_game
from cardgen.core.lazymod import lazy
from cardgen.core.problems import Problems, to_json

serve_app = lazy("cardgen.serve.app")            # starlette and uvicorn: only for `serve`
serve_preview = lazy("cardgen.serve.preview")
editorschema = lazy("cardgen.reference.editorschema")    # the boards' specs (0.1 s of imports): only for `schema`

FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                      help="Report as text lines or one JSON document.")


@click.command()
@click.argument("game", required=False)
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (the preview is never served beyond this machine).")
@click.option("--watch/--no-watch", default=True, show_default=True, help="Rebuild when a source changes.")
@FORMAT
@click.pass_obj
def serve(obj: Any, game: str | None, port: int, watch: bool, fmt: str) -> None:
    """A live preview of GAME's cards in the browser, rebuilt as you save (http://127.0.0.1:PORT/)."""
    if game is None:
        if len(obj.games) != 1:
            raise click.UsageError("name the game to preview (games: " + ", ".join(obj.games) + ")")
        game = obj.games[0]
    obj.check_games((game,))
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError as e:
            raise click.UsageError(f"cannot serve on 127.0.0.1:{port} ({e.strerror}); choose another --port") from None
    url = f"http://127.0.0.1:{port}/"
    if fmt == "json":           # one line a tool can read the address from
        click.echo(json.dumps({"game": game, "url": url}))
    else:
        click.echo(f"cardgen serve: {game} at {url} (Ctrl-C stops)", err=True)
    serve_app.serve(serve_preview.Preview(obj.root, game), port, watch)


@click.command()
@click.argument("game")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder to write the schemas to (default: build/<game>/schemas/).")
@FORMAT
@click.pass_obj
def schema(obj: Any, game: str, out: Path | None, fmt: str) -> None:
    """JSON Schemas of GAME's files (cards, templates, decks, params, maps, logs) for editors that
    check YAML as you type: put `# yaml-language-server: $schema=<file>` on a file's first line."""
    obj.check_games((game,))
    problems = Problems()
    g = load_game(obj.root, game, problems)
    if g is None or problems.has_errors:
        for p in problems.sorted():
            click.echo(p.text())
        click.echo("cardgen schema: the game has content problems (above); fix them first", err=True)
        sys.exit(1)
    folder = (out or obj.root / "build" / game / "schemas").resolve()
    written = [str(p) for p in editorschema.write(g, folder)]
    if fmt == "json":
        click.echo(to_json(problems, written=written))
    else:
        for w in written:
            click.echo(f"wrote {w}", err=True)
