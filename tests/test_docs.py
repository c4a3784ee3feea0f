"""The docs tell the truth: every command line of README.md and docs/*.md is read and checked.

- Every ``cardgen …`` line of a fenced block and every inline ```cardgen …``` span names a real
  command (``rules explain``: a real sub-command) and only options that command has; every
  ``make X`` names a target of the Makefile; every fenced ``yaml`` block parses.
- Every concrete fenced command (no placeholder such as ``GAME``, ``[--x]``, ``a|b``, ``…``) is
  run against the shipped games, in-process, and must exit 0 — or, in a transcript (``$ cmd``
  followed by what it prints), exit as its output says and print exactly those lines.
- A concrete command that cannot run here is in :data:`NOT_RUN` with the reason; a test fails
  when an entry there no longer matches a documented command (the list cannot go stale).
"""

from __future__ import annotations

import re
import shlex

import click
import pytest
from click.testing import CliRunner

from cardgen.cli import main
from cardgen.core.problems import Problems
from cardgen.core.yamlsrc import parse_yaml
from tests.conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

#: concrete commands the docs show that this test does not run, and why (matched on the command)
NOT_RUN = {
    "make build": "builds every game (minutes); the build tests build each game",
    "make test": "the whole suite",
    "cardgen simulate bones_on_ice --games 10000 --out build/sim/teams": "10,000 games (minutes); "
                                                                          "tests/test_simulate.py plays fewer",
    "cardgen simulate bones_on_ice --games 1000 --agent greedy --vary boost.bonus=1,2,3 --out build/sim/boost":
        "3,000 games (minutes); tests/test_simulate.py covers --vary",
    "cardgen simulate bones_on_ice --games 100000 --cluster tcp://A:8786": "needs a Dask cluster",
    "cardgen new ~/games/dig_deep --players 2-4": "writes a project in the reader's home; tests/test_scaffold.py "
                                                  "runs this walk-through in a temporary folder",
    "cardgen new ~/games/gem_raiders": "writes a project in the reader's home (tests/test_scaffold.py)",
    "cardgen build": "in the project `cardgen new` writes (tests/test_scaffold.py)",
    "cardgen check gem_raiders examples/logs/gem_raiders/first-game.yaml": "the game `cardgen new` writes "
                                                                            "(tests/test_scaffold.py)",
    "cardgen validate dig_deep": "the game `cardgen new` writes (tests/test_scaffold.py)",
    "cardgen build dig_deep": "the game `cardgen new` writes (tests/test_scaffold.py)",
    "cardgen check dig_deep examples/logs/dig_deep/first-game.yaml --trace": "the game `cardgen new` writes "
                                                                               "(tests/test_scaffold.py)",
    "cardgen rules explain DD-TURN-1": "the game `cardgen new` writes (tests/test_scaffold.py)",
    "cardgen validate boss_fight my_boss.yaml": "a file of the reader's own",
    "cardgen validate boss_fight my_boss.yaml --format json": "a file of the reader's own",
    "cardgen validate dino_battles my-deck.yaml": "a file of the reader's own",
    "cardgen validate dino_battles decks/*.yaml": "files of the reader's own",
    "python -m cardgen.reference.logschema": "rewrites the checked-in schemas; "
                                             "tests/test_checker_framework.py checks they are current",
}

#: each documented synopsis (placeholders such as GAME, [--x], a|b) → the command run for it: the
#: same command and sub-command, options the synopsis shows, placeholders filled with a shipped
#: game's names, outputs under ``{tmp}``. A synopsis neither here nor in NOT_RUN fails the test.
SAMPLES = {
    "cardgen build [GAME ...] [--printer NAME] [--paper A4|Letter] [--duplex long|short] [--offset X,Y]":
        "cardgen build bone_wars --paper Letter --duplex short --offset 0.5mm,-1mm --only cards --out {tmp}/b1",
    "cardgen build GAME --draft": "cardgen build bone_wars --draft --only cards --out {tmp}/b2",
    "cardgen build GAME --only cards": "cardgen build bones_on_ice --only cards --out {tmp}/b3",
    "cardgen build GAME --cards FILE|ID|type:T|set:S": "cardgen build dino_battles "
                                                       "--cards cards/dino_battles/decks/steel_jaws.yaml --out {tmp}/b4",
    "cardgen proof GAME CARD ...": "cardgen proof bone_wars limbs_raptor limbs_sauropod --out {tmp}/proof",
    "cardgen export GAME --to png|tts|tgc_poker|…": "cardgen export bone_wars --to png --cards limbs_raptor "
                                                   "--workers 1 --out {tmp}/png",
    "cardgen schema GAME --out DIR": "cardgen schema bone_wars --out {tmp}/schemas",
    "cardgen cards GAME --format csv": "cardgen cards bone_wars --format csv",
    "cardgen cards GAME": "cardgen cards bone_wars",
    "cardgen validate [GAME ...]": "cardgen validate bone_wars bones_on_ice",
    "cardgen validate GAME FILE ...": "cardgen validate dino_battles cards/dino_battles/decks/steel_jaws.yaml "
                                      "cards/dino_battles/decks/iron_herd.yaml",
    "cardgen check GAME LOG [--strict] [--trace]": "cardgen check bone_wars examples/logs/bone_wars/duel-2p.yaml "
                                                   "--strict --trace",
    "cardgen check GAME LOG [--format json] [--strict] [--trace]":
        "cardgen check bones_on_ice examples/logs/bones_on_ice/regulation.yaml --format json --strict --trace",
    "cardgen simulate GAME [--games N] [--agent NAME|mcts:N]... [--ladder A,B,…] [--setup FILE]... "
    "[--vary PARAM=V1,V2] [--out DIR]":
        "cardgen simulate dino_battles --games 4 --agent random --setup cards/dino_battles/decks/steel_jaws.yaml "
        "--setup cards/dino_battles/decks/iron_herd.yaml --vary hand_size=5,6 --out {tmp}/sim1",
    "cardgen simulate GAME [--games N] [--seed S] [--agent NAME]... [--setup FILE]...":
        "cardgen simulate dino_battles --games 4 --seed 7 --agent random --agent random "
        "--setup cards/dino_battles/decks/steel_jaws.yaml",
    "cardgen rules diff GAME A B [--changelog FILE]": "cardgen rules diff bone_wars 0.9 1.0 --changelog {tmp}/c.md",
    "cardgen rules diff GAME A B [--changelog FILE] [--sections] [--color/--no-color] [--format json]":
        "cardgen rules diff bone_wars 0.9 1.0 --changelog {tmp}/c2.md --sections --no-color --format json",
    "cardgen rules explain RULE-ID": "cardgen rules explain BW-ATK-6",
    "cardgen tune GAME [--objective NAME]... [--agent NAME]... [--trials N] [--games-per-trial N] [--out DIR] "
    "[--apply]": "cardgen tune bone_wars --objective balance --agent random --trials 2 --games-per-trial 4 "
                 "--out {tmp}/tune",
}
NOT_RUN.update({
    "cardgen serve GAME [--port 8000]": "a server: tests/test_serve.py runs it on a free port",
    "cardgen simulate bones_on_ice --ladder random,greedy,mcts:40 --games 20": "a ladder of minutes; "
                                                                              "tests/test_ladder.py plays a small one",
    "cardgen simulate bones_on_ice --agent mcts:40 --compare random --games 24": "search in every seat (minutes); "
                                                                                 "tests/test_simulate_stats.py compares on a toy",
    "cardgen tune bones_on_ice --agent greedy --trials 100 --games-per-trial 500 --check-games 4000 --workers 2 --out build/tune":
        "3,000 games and more (minutes); tests/test_tune.py tunes a toy game",
    "cardgen tune bones_on_ice --agent greedy --trials 6 --games-per-trial 4000 --check-games 4000 "
    "--workers 2 --seed 0 --out build/tune7":
        "32,000 greedy games on a copy of the project with pass 3's numbers "
        "(half an hour on a busy 2-core machine); tests/test_tune.py tunes a toy game",
    "cardgen calibrate NAME --offset X,Y [--margin 3mm]": "writes the user's printers file: tests/test_printers.py",
    "cardgen new PATH|SLUG [--players 2-4]": "writes a project or a game package: tests/test_scaffold.py",
})

_PLACEHOLDER = re.compile(r"\[|\||…|<|\b[A-Z][A-Z0-9_-]*[A-Z0-9]\b(?![-\w]*-\d)|\bDIR/")
_FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
_INLINE = re.compile(r"`((?:\.venv/bin/)?cardgen [^`]+)`")
_COMMAND = re.compile(r"^(?:\$ )?((?:\.venv/bin/)?cardgen(?= |$).*|make [a-z-]+.*|python -m cardgen\S*.*)$")


def _plain(command: str) -> str:
    """The command without ``.venv/bin/`` and its trailing comment."""
    command = re.sub(r"\s+#.*$", "", command.strip())
    return re.sub(r"^\.venv/bin/", "", command)


def documented() -> list[tuple[str, int, str, list[str] | None]]:
    """(file, line, command, the transcript's output lines or None) of every fenced command line."""
    out = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in _FENCE.finditer(text):
            first = text[: m.start()].count("\n") + 2           # the line after the fence
            rows = m.group(2).splitlines()
            for i, row in enumerate(rows):
                cm = _COMMAND.match(row.strip())
                if not cm:
                    continue
                said = None
                if row.startswith("$ "):                        # a transcript: what follows, to the next $
                    said = []
                    for nxt in rows[i + 1:]:
                        if nxt.startswith("$ "):
                            break
                        said.append(nxt.rstrip())
                out.append((path.name, first + i, _plain(cm.group(1)), said))
    return out


def inline() -> list[tuple[str, int, str]]:
    out = []
    for path in DOCS:
        for n, row in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            out += [(path.name, n, _plain(m.group(1))) for m in _INLINE.finditer(row)]
    return out


def _words(command: str) -> list[str]:
    return shlex.split(command.replace("…", " …"))


def _resolve(words: list[str]) -> tuple[click.Command, list[str], list[str]]:
    """The click command a ``cardgen`` line names, its path and the words after it."""
    cmd: click.Command = main
    path: list[str] = []
    rest = words[1:]
    while isinstance(cmd, click.Group) and rest and not rest[0].startswith("-"):
        sub = cmd.get_command(click.Context(cmd), rest[0])
        assert sub is not None, f"no command `cardgen {' '.join([*path, rest[0]])}`"
        cmd, path, rest = sub, [*path, rest[0]], rest[1:]
    return cmd, path, rest


def _options(cmd: click.Command) -> set[str]:
    return {o for p in cmd.params for o in (*p.opts, *p.secondary_opts)} | {"--help", "-h"}


def _check_names(command: str) -> None:
    words = _words(command)
    if words[0] == "make":
        targets = set(re.findall(r"^([a-z][a-z-]*):", (ROOT / "Makefile").read_text(encoding="utf-8"), re.M))
        assert words[1] in targets, f"no make target {words[1]!r}"
        return
    if words[0] == "python":
        return
    cmd, path, rest = _resolve(words)
    have = _options(cmd) | _options(main)
    for w in rest:
        for opt in re.findall(r"(?:^|[\[|])(--?[a-z][\w-]*)", w):
            assert opt.split("=")[0] in have or opt.startswith("--no-") and f"--{opt[5:]}" in have, \
                f"`cardgen {' '.join(path)}` has no option {opt} (it has {sorted(have)})"


LINES = documented()
INLINE = inline()


def test_the_docs_show_commands():
    assert len(LINES) >= 20 and len(INLINE) >= 20, (len(LINES), len(INLINE))


@pytest.mark.parametrize("where, command", [(f"{f}:{n}", c) for f, n, c, _ in LINES] +
                         [(f"{f}:{n}", c) for f, n, c in INLINE], ids=lambda x: x if ":" in x else "")
def test_every_documented_command_names_real_commands_and_options(where, command):
    _check_names(command)


def _runnable(command: str) -> bool:
    return command not in NOT_RUN and not _PLACEHOLDER.search(command.split(" ", 1)[1] if " " in command else "")


RUN = [(f"{f}:{n}", c, said) for f, n, c, said in LINES if _runnable(c)] + \
    [(f"{f}:{n}", SAMPLES[c], None) for f, n, c, _ in LINES if c in SAMPLES]


def test_every_not_run_entry_and_sample_is_a_documented_command():
    shown = {c for _, _, c, _ in LINES}
    assert not set(NOT_RUN) - shown, f"NOT_RUN lists commands the docs no longer show: {set(NOT_RUN) - shown}"
    assert not set(SAMPLES) - shown, f"SAMPLES lists commands the docs no longer show: {set(SAMPLES) - shown}"


@pytest.mark.parametrize("where, command", [(f"{f}:{n}", c) for f, n, c, _ in LINES if not _runnable(c)
                                            and c not in NOT_RUN], ids=lambda x: x)
def test_every_synopsis_is_run_as_a_sample(where, command):
    """A documented command with placeholders is run as its sample: the same command, with options
    the synopsis shows (besides ``--out`` to a temp folder, ``--only``/``--cards``/``--workers`` to
    keep it short), each placeholder filled."""
    assert command in SAMPLES, f"{where}: `{command}` has placeholders: give it a sample in SAMPLES (or NOT_RUN)"
    sample = _words(SAMPLES[command])
    _, path, _ = _resolve(_words(command))
    _, spath, rest = _resolve(sample)
    assert spath == path, (spath, path)
    extra = {"--out", "--only", "--cards", "--workers"}
    shown = set(re.findall(r"--[a-z][\w-]*", command))
    assert {w for w in rest if w.startswith("--")} <= shown | extra, (command, SAMPLES[command])


@pytest.mark.parametrize("where, command, said", RUN, ids=[w for w, _, _ in RUN])
def test_every_concrete_documented_command_runs_as_documented(where, command, said, monkeypatch, tmp_path):
    words = _words(command.format(tmp=tmp_path))
    assert words[0] == "cardgen", f"{where}: run only cardgen commands here ({command}); else add it to NOT_RUN"
    monkeypatch.chdir(ROOT)                                   # its paths are the project's
    res = CliRunner().invoke(main, ["--root", str(ROOT), *words[1:]], catch_exceptions=False)
    printed = [ln.rstrip() for ln in res.stdout.splitlines()]
    if said is None:
        assert res.exit_code == 0, f"{where}: `{command}` exits {res.exit_code}:\n{res.stdout}"
        return
    errors = any(re.search(r":\d+:\d+: [A-Z][A-Z0-9-]* error:", ln) for ln in said)
    assert res.exit_code == (1 if errors else 0), f"{where}: `{command}` exits {res.exit_code}"
    assert printed == said, f"{where}: `{command}` prints otherwise than the docs show:\n" + "\n".join(printed)


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_every_yaml_block_parses(path):
    text = path.read_text(encoding="utf-8")
    for m in _FENCE.finditer(text):
        if m.group(1) != "yaml":
            continue
        line = text[: m.start()].count("\n") + 2
        probs = Problems()
        parse_yaml(m.group(2), f"{path.name}:{line}", probs)
        bad = [p.text() for p in probs if p.severity == "error"]
        assert not bad, bad
