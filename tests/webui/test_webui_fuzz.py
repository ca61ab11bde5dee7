"""Fuzzing the API from its own OpenAPI description (schemathesis): no request may get a 5xx, every
status code and content type must be the documented ones, every body must match its schema.

The default run is bounded (a few examples per operation, well under a minute); the longer run is
marked slow (``python -m pytest -m slow tests/webui_tests/test_webui_fuzz.py``).
"""

from __future__ import annotations

import os

import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis.errors import Unsatisfiable  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.specs.openapi.checks import (  # noqa: E402
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from devices.config import LedConfig  # noqa: E402
from devices.live import LiveStrip  # noqa: E402
from session.runtime import GameRuntime  # noqa: E402
from tests.webui.webui_helpers import play  # noqa: E402
from webui.app import create_app  # noqa: E402

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
SKIP = {"/api/events"}  # an endless stream; tested in test_webui_api.py


def fuzz(tmp_path, recorded, examples: int, camera: bool = False) -> int:
    """Fuzz every operation (``camera``: only the camera-mode ones, with camera mode on)."""
    runtime = GameRuntime(tmp_path, fsync=False)
    play(runtime, recorded, 25)
    leds = LiveStrip.open(LedConfig(port="virtual"))  # so GET /api/leds answers with a whole strip
    leds.attach(runtime)
    app = create_app(runtime, leds=leds)
    if camera:
        from tracker.link import TrackerLink
        from webui.camera import FrameHub, attach

        learned = {"state": "enrolled", "message": "", "learned": ["tiles"], "missing": [], "path": None}
        tries = iter(range(10**6))

        def enroll() -> dict:
            if next(tries) % 2:
                raise ValueError("hands in view")  # every other press is a user mistake: 409
            return learned

        attach(app, TrackerLink(runtime, freeze_gc=False), FrameHub(), enroll=enroll, enrollment_status=lambda: learned)
    inner = app.wsgi_app

    def from_the_host(environ, start_response):  # a WSGI test call has no client address: the host's
        environ.setdefault("REMOTE_ADDR", "127.0.0.1")
        if not environ["REMOTE_ADDR"]:
            environ["REMOTE_ADDR"] = "127.0.0.1"
        return inner(environ, start_response)

    app.wsgi_app = from_the_host
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)
    calls = 0
    for result in schema.get_all_operations():
        op = result.ok()
        if op.path in SKIP or (camera and not op.path.startswith("/api/camera/")):
            continue
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=op.as_strategy(generation_mode=mode))
            @settings(
                max_examples=examples,
                deadline=None,
                database=None,
                derandomize=True,
                suppress_health_check=list(HealthCheck),
            )
            def run(case) -> None:
                nonlocal calls
                # half of the writes name the current state id, so random moves reach the engine
                if isinstance(case.body, dict) and isinstance(case.body.get("state_id"), int) and calls % 2:
                    case.body["state_id"] = runtime.state_id
                calls += 1
                response = case.call()
                case.validate_response(response, checks=CHECKS)

            try:
                run()
            except Unsatisfiable:
                # an operation without parameters or body has no invalid input to generate
                assert mode is GenerationMode.NEGATIVE, op.path
    leds.close()
    runtime.close()
    return calls


def test_fuzz_the_api_from_its_openapi_description(tmp_path, recorded):
    assert fuzz(tmp_path, recorded, examples=int(os.environ.get("TRIBES_FUZZ_EXAMPLES", "10"))) > 100


def test_fuzz_the_enrollment_routes_in_camera_mode(tmp_path, recorded):
    """Outside camera mode they answer 404 (the run above); here with a fake enrollment backend."""
    assert fuzz(tmp_path, recorded, examples=int(os.environ.get("TRIBES_FUZZ_EXAMPLES", "10")), camera=True) > 10


@pytest.mark.slow
def test_fuzz_the_api_longer(tmp_path, recorded):
    assert fuzz(tmp_path, recorded, examples=200) > 2000
