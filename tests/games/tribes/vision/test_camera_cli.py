"""``table-companion enroll`` and ``recognize`` on rendered photos; user mistakes give one line on
stderr and exit status 2."""

from __future__ import annotations

import json

import cv2
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from companion.cli import main
from games.tribes.vision.enrollment import Enrollment
from games.tribes.vision.observation import Observation, observation_from_truth


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("cam")
    game = d / "game.json"
    game.write_text(json.dumps(cs.game().to_dict()))
    cv2.imwrite(str(d / "setup.png"), cs.frame(1).image)
    (d / "setup.json").write_text(json.dumps(cs.frame(1).truth))
    (d / "setup.obs.json").write_text(json.dumps(observation_from_truth(cs.frame(1).truth).to_dict()))
    cv2.imwrite(str(d / "mid.jpg"), cs.frame(60).image, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return d


def test_enroll_from_a_game_file_then_recognize(files, tmp_path, capsys):
    box = tmp_path / "box.json"
    rc = main(["enroll", str(files / "setup.png"), "--game", str(files / "game.json"), "-o", str(box)])
    out = capsys.readouterr().out
    assert rc == 0 and "enrolled" in out and box.exists() and box.with_suffix(".npz").exists()
    assert "hex:exhausted" in out  # not on the table at setup: said so
    kept = int(out.split("bare table at ")[1].split()[0])
    assert kept == len(Enrollment.load(box).bare_places) > 300
    ann = tmp_path / "ann.png"
    rc = main(["recognize", str(files / "mid.jpg"), "-e", str(box), "--json", "--annotate", str(ann)])
    out = capsys.readouterr().out
    assert rc == 0
    obs = Observation.from_dict(json.loads(out.splitlines()[0]))
    assert obs.registered and len(obs.row) == 12 and obs.hexes
    assert cv2.imread(str(ann)).shape == (720, 1280, 3)
    # several images: one drawing each, named after the image (not only the last one kept)
    many = tmp_path / "many" / "seen.png"
    rc = main(["recognize", str(files / "mid.jpg"), str(files / "setup.png"), "-e", str(box), "--annotate", str(many)])
    assert rc == 0 and len(capsys.readouterr().out.splitlines()) >= 2
    drawn = sorted(p.name for p in many.parent.iterdir())
    assert drawn == ["seen-001-mid.png", "seen-002-setup.png"], drawn
    a, b = (cv2.imread(str(many.parent / n)) for n in drawn)
    assert a.shape == b.shape == (720, 1280, 3) and (a != b).any()
    rc = main(["recognize", str(files / "mid.jpg"), "-e", str(box), "--baseline"])
    out = capsys.readouterr().out
    assert rc == 0 and "registered with markers" in out and "row:" in out


def test_enroll_from_a_truth_and_setup_notation(files, tmp_path, capsys):
    box = tmp_path / "t.json"
    assert main(["enroll", str(files / "setup.png"), "--truth", str(files / "setup.json"), "-o", str(box)]) == 0
    setup = str(cs.game().moves[0])
    box2 = tmp_path / "s.json"
    assert main(["enroll", str(files / "setup.png"), "--setup", setup, "--players", "4", "-o", str(box2)]) == 0
    a, b = json.loads(box.read_text()), json.loads(box2.read_text())
    assert a["labels"] == b["labels"] and a["seats"] == b["seats"]
    capsys.readouterr()


@pytest.mark.parametrize(
    "argv,message",
    [
        (["recognize", "{d}/nope.png", "-e", "{d}/box.json"], "no such enrollment file"),
        (["enroll", "{d}/setup.png", "-o", "{d}/x.json"], "exactly one of --game"),
        (["enroll", "{d}/nope.png", "--game", "{d}/game.json", "-o", "{d}/x.json"], "nope.png: no such image file"),
        (["enroll", "{d}/bad.png", "--game", "{d}/game.json", "-o", "{d}/x.json"], "not an image OpenCV can decode"),
        (["enroll", "{d}/setup.png", "--setup", "setup row=x", "--players", "4", "-o", "{d}/x.json"], "setup"),
        (["enroll", "{d}/setup.png", "--labels", "{d}/setup.obs.json", "-o", "{d}/x.json"], "needs --colours"),
        (["enroll", "{d}/setup.png", "--labels", "{d}/bad.png", "-o", "{d}/x.json"], "cannot read the labels"),
        (["enroll", "{d}/blank.png", "--game", "{d}/game.json", "-o", "{d}/x.json"], "the table was not found"),
    ],
)
def test_user_mistakes_are_one_line_and_status_2(files, argv, message, capsys):
    (files / "bad.png").write_bytes(b"\x89PNG broken")
    cv2.imwrite(str(files / "blank.png"), cs.frame(1).image * 0 + 128)
    rc = main([a.format(d=files) for a in argv])
    err = capsys.readouterr().err
    assert rc == 2, err
    assert err.count("\n") == 1 and err.startswith("table-companion: error:") and message in err


def test_recognize_errors(files, tmp_path, capsys):
    box = tmp_path / "box.json"
    assert main(["enroll", str(files / "setup.png"), "--truth", str(files / "setup.json"), "-o", str(box)]) == 0
    capsys.readouterr()
    (files / "bad.png").write_bytes(b"\x89PNG broken")
    for argv, msg in (
        (["recognize", str(files / "bad.png"), "-e", str(box)], "not an image OpenCV can decode"),
        (["recognize", str(files / "mid.jpg"), "-e", str(box), "--models", str(tmp_path)], "models.json: missing"),
        (["recognize", str(files / "mid.jpg"), "-e", str(box), "--annotate", str(tmp_path / "a.gif")], "image type"),
        (
            ["recognize", str(tmp_path), "-e", str(box), "--stream", "--json", "--baseline", "--frames", "1"],
            "no images",
        ),
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and msg in err, err


def test_recognize_a_stream_of_frames_settles_after_quiet_frames(files, tmp_path, capsys):
    box = tmp_path / "box.json"
    assert main(["enroll", str(files / "setup.png"), "--truth", str(files / "setup.json"), "-o", str(box)]) == 0
    folder = tmp_path / "frames"
    folder.mkdir()
    for i in range(8):
        cv2.imwrite(str(folder / f"{i:02d}.png"), cs.frame(60).image)
    capsys.readouterr()
    # frames of a folder have no timestamps: 10 per second; settled after 0.5 s without motion
    assert main(["recognize", str(folder), "-e", str(box), "--stream", "--json"]) == 0
    lines = [Observation.from_dict(json.loads(x)) for x in capsys.readouterr().out.splitlines()]
    assert [o.settled for o in lines] == [False] * 6 + [True] * 2
    assert all(o.registered and not o.hand_in_view for o in lines)
    assert not lines[0].hexes and lines[6].hexes and lines[6].row  # only settled frames are read


def test_enroll_pack_takes_only_the_faces_the_table_did_not_show(files, tmp_path, capsys):
    import re
    from collections import Counter

    pack = tmp_path / "pack"
    assert main(["render", "pack", "--style", "classic", "-o", str(pack)]) == 0
    capsys.readouterr()
    base = ["enroll", str(files / "setup.png"), "--truth", str(files / "setup.json")]
    counts = {}
    outs = {}
    for name, extra in (("none", []), ("pack", ["--pack", str(pack)]), ("all", ["--pack", str(pack), "--pack-all"])):
        assert main([*base, *extra, "-o", str(tmp_path / f"{name}.json")]) == 0
        outs[name] = capsys.readouterr().out
        labels = json.loads((tmp_path / f"{name}.json").read_text())["labels"]
        counts[name] = Counter(f"{g}:{x}" for g, xs in labels.items() for x in xs)
    shown = {k for k in counts["none"] if k.startswith(("hex:resource:", "row:action:"))}
    assert shown  # the setup shows landscape and action tiles
    for k in shown:  # what the table showed is not added again by default …
        assert counts["pack"][k] == counts["none"][k], k
        assert counts["all"][k] > counts["none"][k], k  # … but is with --pack-all
    assert counts["none"]["hex:exhausted"] == 0 < counts["pack"]["hex:exhausted"]  # what it lacked is added
    line = next(x for x in outs["pack"].splitlines() if x.startswith(f"pack {pack}:"))
    taken, skipped = (int(w) for w in re.findall(r"took (\d+) face\(s\).*skipped (\d+)", line)[0])
    assert skipped >= len(shown) and taken > 0
    assert f"pack {pack}: took all {taken + skipped} faces (--pack-all" in outs["all"]
    # the faces the table showed too set the pack's gains, which the notes report
    gains = re.findall(
        rf"note: {re.escape(str(pack))}: faces brought to .* by gains B ([\d.]+) G ([\d.]+) R ([\d.]+)", outs["pack"]
    )
    assert len(gains) == 1 and all(0.5 <= float(g) <= 2.0 for g in gains[0])
    assert "faces brought to" not in outs["none"]
