"""datafile: the one JSON reader of every data file refuses what would end in a traceback or a hang
(bytes that are not UTF-8, absurd nesting, absurd numbers, folders, FIFOs) with one line naming the
file, and its Reader names the field of every problem."""

from __future__ import annotations

import os
import threading

import pytest

import datafile
from datafile import DataFileError, Reader, parse_json, read_json, read_text, write_json


def one_line(exc: BaseException) -> str:
    text = str(exc)
    assert "\n" not in text and text
    return text


def refused(path) -> str:
    with pytest.raises(DataFileError) as err:
        read_json(path, "the game file")
    return one_line(err.value)


def test_non_utf8_bytes_name_the_offset(tmp_path):
    p = tmp_path / "bad.json"
    p.write_bytes(b'{"name": "caf\xe9"}')
    assert refused(p) == f"{p}: cannot read the game file: it is not UTF-8 text (byte 13 is 0xe9)"
    with pytest.raises(DataFileError, match=r"^body: is not UTF-8 text \(byte 0 is 0xff\)$"):
        parse_json(b"\xff{}", "body")
    with pytest.raises(DataFileError, match=r"it is not UTF-8 text \(byte 13 is 0xe9\)"):
        read_text(p, "the notes")


def test_a_byte_order_mark_is_allowed(tmp_path):
    p = tmp_path / "bom.json"
    p.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    assert read_json(p) == {"a": 1}


def test_nesting_a_thousand_deep_in_two_kilobytes(tmp_path):
    p = tmp_path / "deep.json"
    p.write_text("[" * 1000 + "]" * 1000, encoding="utf-8")
    assert p.stat().st_size == 2000
    assert refused(p) == f"{p}: nests objects and lists 1000 deep (at most {datafile.MAX_DEPTH})"
    text = '{"a": ' * 1000 + "1" + "}" * 1000
    with pytest.raises(DataFileError, match="1000 deep"):
        parse_json(text, "x")
    # brackets inside strings do not count, and a sane depth reads
    assert parse_json('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}', "x")
    assert parse_json("[" * 64 + "]" * 64, "x") == parse_json("[" * 64 + "]" * 64, "x")


def test_an_integer_of_five_thousand_digits(tmp_path):
    p = tmp_path / "big.json"
    p.write_text('{"turn": ' + "9" * 5000 + "}", encoding="utf-8")
    assert refused(p) == f"{p}: holds an integer of 5000 digits (at most {datafile.MAX_INT_DIGITS})"
    assert parse_json("[-" + "9" * 18 + "]", "x") == [-(10**18 - 1)]
    with pytest.raises(DataFileError, match="19 digits"):
        parse_json("[" + "1" * 19 + "]", "x")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ('{"time": NaN}', "holds NaN, which is not a number JSON allows"),
        ('{"time": Infinity}', "holds Infinity, which is not a number JSON allows"),
        ('{"time": -Infinity}', "holds -Infinity, which is not a number JSON allows"),
        ('{"time": 1e999}', "holds the number 1e999, which is too large"),
        ('{"time": -1e999}', "holds the number -1e999, which is too large"),
    ],
)
def test_numbers_json_does_not_allow(tmp_path, text, reason):
    p = tmp_path / "n.json"
    p.write_text(text, encoding="utf-8")
    assert refused(p) == f"{p}: {reason}"


def test_text_that_is_not_json_names_line_and_column(tmp_path):
    p = tmp_path / "torn.json"
    p.write_text('{\n  "a": ', encoding="utf-8")
    assert refused(p) == f"{p}: line 2 column 8: not valid JSON: Expecting value"


def test_a_folder_is_not_a_file(tmp_path):
    assert refused(tmp_path) == f"{tmp_path}: cannot read the game file: it is a folder, not a file"


def test_a_missing_file(tmp_path):
    p = tmp_path / "none.json"
    assert refused(p) == f"{p}: cannot read the game file: No such file or directory"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_is_refused_without_hanging(tmp_path):
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    result: list[BaseException | object] = []

    def read() -> None:
        try:
            result.append(read_json(fifo, "the game file"))
        except BaseException as exc:  # the outcome is checked below
            result.append(exc)

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(5)
    if t.is_alive():  # release the reader, then fail
        fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        pytest.fail("reading a FIFO blocked")
    assert isinstance(result[0], DataFileError)
    assert one_line(result[0]) == f"{fifo}: cannot read the game file: it is not a regular file"


def test_errors_come_as_the_class_asked_for(tmp_path):
    class LayoutishError(DataFileError):
        pass

    p = tmp_path / "deep.json"
    p.write_text("[" * 100 + "]" * 100, encoding="utf-8")
    with pytest.raises(LayoutishError) as err:
        read_json(p, "the layout", LayoutishError)
    assert err.value.source == str(p) and err.value.field == "" and "100 deep" in err.value.reason


def test_reader_names_the_field():
    rd = Reader("pos.json")
    doc = parse_json('{"players": [{"name": "A", "vp": "x"}], "extra": 1}', "pos.json")
    root = rd.obj(doc, "")
    with pytest.raises(DataFileError, match=r"^pos.json: extra: is not a field here$"):
        rd.only(root, ["players"], "")
    players = rd.list(rd.get(root, "players", ""), "players", 1, 4)
    p0 = rd.obj(players[0], "players[0]")
    assert rd.text(rd.get(p0, "name", "players[0]"), "players[0].name") == "A"
    with pytest.raises(DataFileError, match=r'^pos.json: players\[0\].vp: must be an integer, got "x"$'):
        rd.integer(rd.get(p0, "vp", "players[0]"), "players[0].vp")
    with pytest.raises(DataFileError, match=r"^pos.json: players\[0\].shells: is missing$"):
        rd.get(p0, "shells", "players[0]")
    assert rd.get(p0, "shells", "players[0]", 0) == 0
    with pytest.raises(DataFileError, match=r"^pos.json: \(top level\): must be an object, got a list$"):
        rd.obj([], "")
    with pytest.raises(DataFileError, match=r"must hold at most 1 item"):
        rd.items([1, 2], "l", rd.integer, max_len=1)
    assert rd.items([1, 2], "l", rd.integer) == [1, 2]
    with pytest.raises(DataFileError, match=r"^pos.json: c: must be one of a, b, got \"z\"$"):
        rd.choice("z", "c", ("a", "b"))
    with pytest.raises(DataFileError, match=r"must be a number"):
        rd.number(True, "n")
    assert rd.pair([1, 2], "p") == (1, 2)
    assert rd.boolean(False, "b") is False


def test_write_json_is_atomic_and_keeps_the_mode(tmp_path):
    p = tmp_path / "out.json"
    p.write_text("{}", encoding="utf-8")
    os.chmod(p, 0o640)
    write_json({"a": "é"}, p)
    assert read_json(p) == {"a": "é"} and (p.stat().st_mode & 0o777) == 0o640
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out.json"]
    with pytest.raises(DataFileError, match="does not exist"):
        write_json({}, tmp_path / "no" / "x.json")
