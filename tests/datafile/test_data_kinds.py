"""Every kind of data file goes through the one reader: a file of bytes that are not UTF-8, of
absurd nesting or of an absurd integer is one line naming the file — from the public loader of each
kind and from the commands that read it (exit 2, one line on stderr, no traceback)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from datafile import DataFileError

BAD = {
    "non-utf8": (b'{"name": "caf\xe9"}', "it is not UTF-8 text (byte 13 is 0xe9)"),
    "deep": (b"[" * 1000 + b"]" * 1000, "nests objects and lists 1000 deep (at most 64)"),
    "huge-int": (b'{"n": ' + b"9" * 5000 + b"}", "holds an integer of 5000 digits (at most 18)"),
}


@pytest.fixture(params=sorted(BAD))
def bad(request, tmp_path):
    """(a bad file, the words its error must hold)."""
    data, words = BAD[request.param]
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    return path, words


def check(exc: BaseException, path, words: str, cls: type) -> None:
    assert isinstance(exc, cls) and isinstance(exc, DataFileError), type(exc)
    text = str(exc)
    assert "\n" not in text and text.startswith(str(path)) and words in text, text


def refused(load, path) -> BaseException:
    with pytest.raises(DataFileError) as err:
        load(path)
    return err.value


def test_journal_and_position_files(bad):
    from games import errors
    from games.record import open_record
    from games.tribes.rules.errors import JournalError
    from games.tribes.rules.game import load_game

    path, words = bad
    check(refused(load_game, path), path, words, JournalError)
    check(refused(open_record, path), path, words, errors.JournalError)


def test_box_profile(bad):
    from games.tribes.rules.errors import ProfileError
    from games.tribes.rules.profile import load_profile

    path, words = bad
    check(refused(load_profile, path), path, words, ProfileError)


def test_profile_named_by_a_journal(bad):
    """The profile file a journal names is read the same way (and the journal's error names both)."""
    from games.tribes.rules.errors import JournalError
    from games.tribes.rules.game import load_game

    path, words = bad
    game = path.with_name("game.json")
    settings = {"players": [{"name": "A"}, {"name": "B"}], "profile": path.name}
    game.write_text(json.dumps({"format": "tribes-journal", "version": 1, "settings": settings}), encoding="utf-8")
    exc = refused(load_game, game)
    assert isinstance(exc, JournalError) and exc.field == "settings.profile"
    assert str(path) in str(exc) and words in str(exc) and "\n" not in str(exc)


def test_table_layout(bad):
    from games.tribes.vision.layout import load_layout
    from vision.errors import LayoutError

    path, words = bad
    check(refused(load_layout, path), path, words, LayoutError)


def test_observation(bad):
    from games.tribes.vision.observation import Observation, ObservationError

    path, words = bad
    check(refused(Observation.load, path), path, words, ObservationError)


def test_observation_from_dict_names_its_source():
    from games.tribes.vision.observation import Observation, ObservationError

    with pytest.raises(ObservationError) as err:
        Observation.from_dict({"format": "tribes-observation", "version": 1, "frame": -1}, "obs.json")
    assert str(err.value) == "obs.json: frame: must be >= 0, got -1" and err.value.field == "frame"
    with pytest.raises(ObservationError, match=r"^frame: must be >= 0, got -1$"):
        Observation.from_dict({"format": "tribes-observation", "version": 1, "frame": -1})


def test_enrollment(bad):
    from games.tribes.vision.enrollment import Enrollment
    from vision.errors import EnrollmentError

    path, words = bad
    check(refused(Enrollment.load, path), path, words, EnrollmentError)


def test_art_pack_description(bad):
    from games.tribes.vision.artpack import load_pack
    from vision.errors import ArtPackError

    path, words = bad
    (path.parent / "pack.json").write_bytes(path.read_bytes())
    check(refused(load_pack, path.parent), path.parent / "pack.json", words, ArtPackError)


def test_models_manifest(bad):
    from vision.errors import ModelError
    from vision.features import read_manifest

    path, words = bad
    (path.parent / "models.json").write_bytes(path.read_bytes())
    check(refused(read_manifest, path.parent), path.parent / "models.json", words, ModelError)


def test_led_config(bad):
    from devices.config import LedConfig
    from devices.errors import ConfigError

    path, words = bad
    exc = refused(LedConfig.load, path)
    check(exc, path, words, ConfigError)
    assert exc.field == "file"


def test_live_journal(bad):
    from session.journal import JournalFileError, read_journal

    path, words = bad
    line = path.with_name("game-000001.jsonl")
    line.write_bytes(path.read_bytes() + b"\n")
    exc = refused(read_journal, line)
    check(exc, line, words.removeprefix("it "), JournalFileError)
    assert exc.line == 1 and str(exc).startswith(f"{line}: line 1: ")


def test_live_journal_names_the_line_of_damage(tmp_path):
    from session.journal import JournalFileError, read_journal

    path = tmp_path / "game-000001.jsonl"
    header = {"format": "tribes-live-journal", "version": 1, "settings": {}, "base_state_id": 1}
    path.write_bytes(json.dumps(header).encode() + b"\n" + b"[" * 1000 + b"]" * 1000 + b"\n" + b'{"op": 1}\n')
    with pytest.raises(JournalFileError) as err:
        read_journal(path)
    assert str(err.value) == f"{path}: line 2: nests objects and lists 1000 deep (at most 64)"
    # the same damage on the last line is what a crash can leave: dropped with a warning
    path.write_bytes(json.dumps(header).encode() + b"\n" + b'{"n": ' + b"9" * 5000 + b"}\n")
    contents = read_journal(path)
    assert (
        contents.entries == [] and "line 2: dropped an unreadable last line (holds an integer" in contents.warnings[0]
    )


# --- the commands that read them -------------------------------------------------------------------
def run_cli(capsys, *argv: str) -> str:
    from companion.cli import main

    code = main(list(argv))
    out = capsys.readouterr()
    assert code == 2, out
    assert out.err.count("\n") == 1 and "Traceback" not in out.err
    return out.err


@pytest.mark.parametrize(
    "argv",
    [
        ["rules", "legal", "{bad}"],
        ["rules", "score", "{bad}"],
        ["rules", "apply", "{bad}", "start 0,0", "-o", "{tmp}/out.json"],
        ["rules", "profile", "{bad}"],
        ["layout", "check", "{bad}"],
        ["leds", "show", "{bad}"],
        ["leds", "show", "{game}", "--config", "{bad}"],
    ],
    ids=lambda argv: " ".join(a for a in argv if not a.startswith("{"))[:40],
)
def test_commands_refuse_in_one_line(bad, capsys, argv):
    path, words = bad
    game = path.with_name("game.json")
    game.write_text(
        json.dumps({"format": "tribes-journal", "version": 1, "settings": {"players": [{"name": "A"}, {"name": "B"}]}}),
        encoding="utf-8",
    )
    err = run_cli(capsys, *(a.format(bad=path, game=game, tmp=path.parent) for a in argv))
    assert str(path) in err and words in err


@pytest.mark.parametrize("command", [["rules", "legal"], ["layout", "check"], ["leds", "show"]], ids=" ".join)
def test_the_console_command_has_no_traceback(tmp_path, command):
    path = tmp_path / "bad.json"
    path.write_bytes(b"[" * 1000 + b"]" * 1000)
    proc = subprocess.run(
        [sys.executable, "-m", "companion", *command, str(path)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr
    assert f"{path}: nests objects and lists 1000 deep" in proc.stderr
