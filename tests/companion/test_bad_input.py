"""Every command-line input path answers a bad input with one line on stderr and exit status 2,
never a traceback (issue 15): data files that are not UTF-8, nest absurdly deep, hold integers of
thousands of digits or NaN, are a folder, a FIFO or missing; output paths in a missing folder or
naming a folder; names and colours the API would refuse; negative counts.

Commands run in-process through :func:`companion.cli.main`; an exception escaping it fails the
test (that is the traceback a user would see). A FIFO would hang a reader that opens it, so every
call runs under an alarm."""

from __future__ import annotations

import json
import os
import signal
import stat
from pathlib import Path

import pytest

from companion.cli import main

BAD_FILES = {
    "not_utf8": b'{"format": "tribes-journal", "name": "\xff\xfe"}',
    "deep": b"[" * 1000 + b"]" * 1000,
    "huge_int": b'{"format": "tribes-journal", "version": ' + b"9" * 5000 + b"}",
    "nan": b'{"format": "tribes-journal", "version": NaN}',
}
KINDS = [*BAD_FILES, "folder", "fifo", "missing"]
REASON = {
    "not_utf8": "not UTF-8",
    "deep": "1000 deep",
    "huge_int": "5000 digits",
    "nan": "NaN",
    "folder": "folder",
    "fifo": "not a regular file",
    "missing": "no such",
}


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    for name, data in BAD_FILES.items():
        (d / f"{name}.json").write_bytes(data)
    (d / "folder.json").mkdir()
    os.mkfifo(d / "fifo.json")
    for gid in ("tribes", "toy"):
        assert main(["--game", gid, "rules", "simulate", "--seed", "2", "--quiet", "-o", str(d / f"{gid}.json")]) == 0
    assert main(["--game", "tribes", "rules", "new", "--players", "A,B", "--seed", "1", "-o", str(d / "new.json")]) == 0
    return d


class Hang(Exception):
    pass


def run(capsys, argv: list[str]) -> tuple[int, str]:
    """``main(argv)`` under a 30 s alarm; returns the status and stderr."""

    def alarm(signum, frame):
        raise Hang(" ".join(argv))

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(30)
    try:
        code = main(argv)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return code, capsys.readouterr().err


def one_line(code: int, err: str) -> str:
    assert code == 2, err
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    return err


READERS = [
    ["--game", "tribes", "rules", "legal", "{F}"],
    ["--game", "tribes", "rules", "score", "{F}"],
    ["--game", "tribes", "rules", "replay", "{F}"],
    ["--game", "tribes", "rules", "apply", "{F}", "x", "-o", "{OUT}"],
    ["--game", "tribes", "rules", "profile", "{F}"],
    ["--game", "tribes", "rules", "new", "--players", "A,B", "--profile", "{F}"],
    ["--game", "toy", "rules", "legal", "{F}"],
    ["--game", "toy", "rules", "replay", "{F}"],
    ["--game", "stoneage", "rules", "profile", "{F}"],
    ["--game", "stoneage", "rules", "simulate", "--profile", "{F}", "--quiet"],
    ["layout", "check", "{F}"],
    ["leds", "show", "{F}"],
    ["leds", "show", "{JOURNAL}", "--config", "{F}"],
    ["render", "image", "{F}", "-o", "{OUT}.png"],
    ["recognize", "{JOURNAL}", "--enrollment", "{F}"],
]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("argv", READERS, ids=lambda a: "-".join(x for x in a if not x.startswith("{"))[:40])
def test_a_bad_data_file_is_one_line_and_exit_2(capsys, files, tmp_path, argv, kind):
    path = files / f"{kind}.json"
    args = [
        a.replace("{F}", str(path))
        .replace("{JOURNAL}", str(files / "tribes.json"))
        .replace("{OUT}", str(tmp_path / "o"))
        for a in argv
    ]
    err = one_line(*run(capsys, args))
    assert str(path) in err and REASON[kind].lower() in err.lower()
    assert not list(tmp_path.iterdir()), "nothing is written"


WRITERS = [
    ["--game", "tribes", "rules", "new", "--players", "A,B", "-o", "{O}"],
    ["--game", "tribes", "rules", "apply", "{NEW}", "start 0,0", "-o", "{O}"],
    ["--game", "tribes", "rules", "profile", "--export", "{O}"],
    ["--game", "tribes", "rules", "replay", "{TRIBES}", "--quiet", "--to", "3", "--position-out", "{O}"],
    ["--game", "tribes", "rules", "simulate", "--quiet", "-o", "{O}"],
    ["--game", "toy", "rules", "new", "--players", "A,B", "-o", "{O}"],
    ["--game", "toy", "rules", "replay", "{TOY}", "--quiet", "--position-out", "{O}"],
    ["--game", "stoneage", "rules", "profile", "--export", "{O}"],
    ["layout", "export", "-o", "{O}"],
]


@pytest.mark.parametrize("where", ["missing_folder", "a_folder"])
@pytest.mark.parametrize("argv", WRITERS, ids=lambda a: "-".join(x for x in a if not x.startswith("{"))[:40])
def test_an_output_path_in_a_missing_folder_or_naming_a_folder_is_one_line(capsys, files, tmp_path, argv, where):
    (tmp_path / "dir").mkdir()
    out = tmp_path / "nodir" / "x.json" if where == "missing_folder" else tmp_path / "dir"
    args = [
        a.replace("{O}", str(out))
        .replace("{TRIBES}", str(files / "tribes.json"))
        .replace("{TOY}", str(files / "toy.json"))
        .replace("{NEW}", str(files / "new.json"))
        for a in argv
    ]
    err = one_line(*run(capsys, args))
    assert str(out) in err
    assert (
        ("does not exist" in err or "No such file" in err)
        if where == "missing_folder"
        else "folder" in err or "directory" in err
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dir"] and not list((tmp_path / "dir").iterdir())


def test_rules_apply_onto_itself_keeps_the_file_mode_and_leaves_no_temporary_file(capsys, tmp_path):
    game = tmp_path / "g.json"
    assert run(capsys, ["--game", "tribes", "rules", "new", "--players", "A,B", "--seed", "1", "-o", str(game)])[0] == 0
    os.chmod(game, 0o644)
    code, err = run(capsys, ["--game", "tribes", "rules", "apply", str(game), "start 0,0", "-o", str(game)])
    assert code == 0, err
    assert stat.S_IMODE(game.stat().st_mode) == 0o644
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
    assert json.loads(game.read_text())["moves"][-1] == "start 0,0"


@pytest.mark.parametrize("gid", ["tribes", "toy"])
@pytest.mark.parametrize(
    ("players", "colours", "reason"),
    [
        ("A" * 10_000 + ",Bob", None, "--players: 'AAAA"),
        ("Ann,Bo\x07b", None, "control characters"),
        ("Ann,Bob", "<script>,blue", "--colours: '<script>' must be a colour name"),
        ("Ann,Bob", "red,red", "two players have the colour 'red'"),
        ("Ann,Ann", None, "two players are called 'Ann'"),
        ("Ann,Bob", "red", "--colours: lists 1 colours for 2 players"),
    ],
)
def test_names_and_colours_are_checked_like_the_api(capsys, tmp_path, gid, players, colours, reason):
    argv = ["--game", gid, "rules", "new", "--players", players, "-o", str(tmp_path / "g.json")]
    if colours:
        argv += ["--colours", colours]
    err = one_line(*run(capsys, argv))
    assert reason in err
    assert len(err) < 300
    assert not (tmp_path / "g.json").exists()


def test_names_of_30_characters_and_hex_colours_are_fine(capsys, tmp_path):
    out = tmp_path / "g.json"
    code, err = run(
        capsys,
        [
            "--game",
            "tribes",
            "rules",
            "new",
            "--players",
            "A" * 30 + ",Bob",
            "--colours",
            "#12abEF,blue",
            "-o",
            str(out),
        ],
    )
    assert code == 0, err
    assert json.loads(out.read_text())["settings"]["players"][0] == {"name": "A" * 30, "colour": "#12abEF"}


@pytest.mark.parametrize("gid", ["tribes", "toy"])
@pytest.mark.parametrize(
    ("argv", "reason"),
    [
        (["rules", "replay", "{J}", "--to", "-5"], "--to must be 0 or more"),
        (["rules", "legal", "{J}", "--moves", "-1"], "--moves must be 0 or more"),
    ],
)
def test_negative_counts_are_refused(capsys, files, gid, argv, reason):
    args = ["--game", gid, *[a.replace("{J}", str(files / f"{gid}.json")) for a in argv]]
    assert reason in one_line(*run(capsys, args))
