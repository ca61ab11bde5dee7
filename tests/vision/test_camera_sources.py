"""Frame sources and the capture thread: image folders, video files, the renderer; the newest frame
is handed out, a failing live source is reconnected with back-off and its state reported."""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np
import pytest

import tests.games.tribes.vision.camera_scenes as cs
from games.tribes.sim.source import RenderSource
from vision.errors import SourceError
from vision.sources import Capture, FolderSource, OpenCVSource, open_source


def _img(v: int) -> np.ndarray:
    return np.full((48, 64, 3), v, np.uint8)


def test_folder_source_reads_images_in_order_and_skips_junk(tmp_path):
    for i, v in enumerate((10, 20, 30)):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), _img(v))
    (tmp_path / "f1b.jpg").write_bytes(b"not an image")
    (tmp_path / "notes.txt").write_text("x")
    src = open_source(str(tmp_path))
    assert isinstance(src, FolderSource)
    src.open()
    got = []
    while (f := src.read()) is not None:
        got.append(int(f[0, 0, 0]))
    assert got == [10, 20, 30]
    with pytest.raises(SourceError, match="holds no images"):
        FolderSource(tmp_path / "empty").open() if (tmp_path / "empty").mkdir() is None else None


def test_video_file_source_and_errors(tmp_path):
    path = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (64, 48))
    for v in (40, 120, 200):
        w.write(_img(v))
    w.release()
    src = open_source(str(path))
    assert isinstance(src, OpenCVSource) and not src.live
    src.open()
    vals = []
    while (f := src.read()) is not None:
        vals.append(int(f.mean()))
    src.close()
    assert len(vals) == 3 and abs(vals[0] - 40) < 8 and abs(vals[2] - 200) < 8
    with pytest.raises(SourceError, match="no such camera, video file, folder or URL"):
        open_source(str(tmp_path / "nope.mp4"))
    with pytest.raises(SourceError, match="unsupported URL scheme"):
        open_source("ftp://example/x")
    assert OpenCVSource("rtsp://127.0.0.1:1/none").live and OpenCVSource(0).live


def test_render_source_gives_frames_with_truth():
    src = RenderSource(cs.game(), cs.renderer(), cs.camera(), cs.LIGHT, cs.FX, start=5, end=6, fps=4)
    src.open()
    frames = 0
    settled = []
    while (img := src.read()) is not None:
        frames += 1
        settled.append(src.settled)
        assert img.shape == (720, 1280, 3) and src.truth is not None
    assert frames > 2 and settled[-1] and not all(settled)


class FlakySource:
    """A live source that delivers ``burst`` frames, then fails ``fails`` times before coming back."""

    def __init__(self, burst: int, fails: int) -> None:
        self.name = "flaky"
        self.live = True
        self.burst, self.fails = burst, fails
        self.opens = 0
        self.left = 0
        self.value = 0

    def open(self) -> None:
        self.opens += 1
        if 1 < self.opens <= 1 + self.fails:
            raise SourceError("flaky: cannot be opened")
        self.left = self.burst

    def read(self) -> np.ndarray | None:
        if self.left <= 0:
            return None
        self.left -= 1
        self.value += 1
        time.sleep(0.002)
        return _img(self.value % 250)

    def close(self) -> None:
        pass


def test_capture_hands_out_the_newest_frame_and_reconnects_with_backoff():
    src = FlakySource(burst=30, fails=2)
    states: list[str] = []
    lock = threading.Lock()

    def on_state(state: str, detail: str) -> None:
        with lock:
            states.append(state)

    with Capture(src, backoff=0.02, max_backoff=0.05, on_state=on_state) as cap:
        first = cap.latest(timeout=2.0)
        assert first is not None
        time.sleep(0.05)  # the source runs on; a slow reader gets the newest frame, not the next one
        second = cap.latest(timeout=2.0)
        assert second is not None and second.seq > first.seq + 1
        deadline = time.time() + 5
        while cap.stats.reconnects < 1 and time.time() < deadline:
            time.sleep(0.01)
        assert cap.stats.reconnects >= 1 and cap.stats.failures >= 3
        assert "flaky" in cap.stats.last_error or "stopped delivering" in cap.stats.last_error
        third = cap.latest(timeout=2.0)
        assert third is not None and third.seq > second.seq
    assert states[0] == "connecting" and "reconnecting" in states and "streaming" in states
    assert states[-1] == "stopped" and cap.state == "stopped"


def test_capture_of_a_finite_source_ends(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _img(50 + i))
    cap = Capture(FolderSource(tmp_path), pace=200)
    cap.start()
    seen = []
    while (pkt := cap.latest(timeout=1.0)) is not None:
        seen.append(pkt.seq)
    assert seen and seen[-1] == 3 and cap.state == "ended"
    cap.stop()
    bad = Capture(FolderSource(tmp_path / "missing"))
    bad.start()
    assert bad.latest(timeout=1.0) is None
    assert bad.state == "ended" and "no such folder" in bad.stats.last_error
    bad.stop()
