"""The vision commands: images, videos, packs, markers and layouts from the command line; user
mistakes give one line on stderr and exit status 2."""

from __future__ import annotations

import json

import cv2
import pytest

from companion.cli import main


@pytest.fixture(scope="module")
def journal(tmp_path_factory):
    path = tmp_path_factory.mktemp("game") / "g.json"
    assert main(["rules", "simulate", "--players", "2", "--seed", "11", "-o", str(path), "--quiet"]) == 0
    return path


def test_render_image_writes_image_and_truth(journal, tmp_path, capsys):
    out = tmp_path / "a.png"
    rc = main(
        [
            "render",
            "image",
            str(journal),
            "--move",
            "20",
            "-o",
            str(out),
            "--width",
            "480",
            "--height",
            "270",
            "--tilt",
            "20",
            "--kelvin",
            "3000",
            "--hand",
            "0:600,700:90",
            "--pack",
            "bold",
            "--texture",
            "felt",
        ]
    )
    assert rc == 0
    assert cv2.imread(str(out)).shape == (270, 480, 3)
    truth = json.loads((tmp_path / "a.json").read_text())
    assert truth["move"] == 20 and truth["pack"] == "bold" and truth["hands"][0]["seat"] == 0
    assert "rendered move 20" in capsys.readouterr().out


def test_render_image_random_conditions_are_reproducible(tmp_path):
    args = [
        "render",
        "image",
        "--simulate",
        "3",
        "--players",
        "2",
        "--width",
        "320",
        "--height",
        "180",
        "--random",
        "9",
    ]
    assert main([*args, "-o", str(tmp_path / "a.png")]) == 0
    assert main([*args, "-o", str(tmp_path / "b.png")]) == 0
    assert (tmp_path / "a.png").read_bytes() == (tmp_path / "b.png").read_bytes()


def test_render_video_with_progress(journal, tmp_path, capsys):
    out = tmp_path / "v"
    rc = main(
        [
            "render",
            "video",
            str(journal),
            "--from",
            "2",
            "--to",
            "4",
            "--fps",
            "3",
            "-o",
            str(out),
            "--width",
            "320",
            "--height",
            "180",
        ]
    )
    assert rc == 0
    captured = capsys.readouterr()
    assert "render [" in captured.err and "frames" in captured.out
    doc = json.loads((out / "truth.json").read_text())
    assert len(list(out.glob("frame_*.jpg"))) == doc["frame_count"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["render", "image", "{j}", "--move", "9999", "-o", "{t}/x.png"], "--move 9999: the game has"),
        (["render", "image", "{t}/missing.json", "-o", "{t}/x.png"], "cannot read the game file"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--tilt", "50"], "tilt must be between 0 and 35"),
        (["render", "image", "{j}", "-o", "{t}/x.gif"], "unknown image type '.gif'"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--pack", "{t}/nopack"], "is not a folder"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--kelvin", "9000"], "colour temperature must be 2700-6500 K"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--distortion", "1,2"], "--distortion: expected 5 numbers"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--hand", "zero"], "--hand 'zero': expected SEAT:X,Y"),
        (["render", "image", "{j}", "-o", "{t}/x.png", "--layout", "{t}/nolayout.json"], "cannot read the layout"),
        (["render", "image", "-o", "{t}/x.png"], "give a journal or position file, or --simulate SEED"),
        (["render", "video", "{j}", "-o", "{t}/v.mp4", "--from", "9", "--to", "3"], "move range 9..3"),
        (["render", "pack"], "say what to do"),
        (["render", "photo-pack", "{t}/nophotos", "-o", "{t}/p"], "is not a folder of photos"),
        (["print-markers", "-o", "{t}/m", "--dpi", "10"], "--dpi must be 72-1200"),
    ],
)
def test_user_mistakes_are_one_line_and_status_2(journal, tmp_path, capsys, argv, message):
    argv = [a.format(j=journal, t=tmp_path) for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("table-companion: error:") and "\n" not in err and message in err, err


def test_print_markers_and_layout_commands(tmp_path, capsys):
    assert main(["print-markers", "-o", str(tmp_path / "m"), "--dpi", "150"]) == 0
    assert (tmp_path / "m" / "markers.pdf").exists() and (tmp_path / "m" / "markers-p1.png").exists()
    assert main(["layout", "export", "-o", str(tmp_path / "l.json")]) == 0
    assert main(["layout", "check", str(tmp_path / "l.json")]) == 0
    out = capsys.readouterr().out
    assert "valid" in out and "provisional: tiles" in out
    data = json.loads((tmp_path / "l.json").read_text())
    data["markers"]["items"][0]["id"] = 1
    (tmp_path / "bad.json").write_text(json.dumps(data))
    assert main(["layout", "check", str(tmp_path / "bad.json")]) == 2
    assert "markers.items[1].id: marker id 1 is used twice" in capsys.readouterr().err


def test_pack_commands(tmp_path, capsys):
    assert main(["render", "pack", "--faces"]) == 0
    assert "resource-goat" in capsys.readouterr().out
    assert main(["render", "pack", "--style", "sketch", "-o", str(tmp_path / "s")]) == 0
    assert main(["render", "pack", "--check", str(tmp_path / "s")]) == 0
    (tmp_path / "s" / "action-off.png").unlink()
    assert main(["render", "pack", "--check", str(tmp_path / "s")]) == 2
    assert "action-off: missing" in capsys.readouterr().err
