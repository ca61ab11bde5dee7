"""Typed HTTP errors: every failure of the API is a JSON object ``{"error": {"type": …, "message": …}}``
with a 4xx status (503 when the journal cannot be written), never a traceback.

Types: ``bad_request`` (with ``field``), ``unauthorized``, ``forbidden``, ``not_found``,
``method_not_allowed``, ``payload_too_large``, ``unsupported_media_type``, ``stale_state`` (with
``current_state_id``), ``illegal_move`` (with the rule ``clause``), ``undo_refused`` (with
``reason``), ``no_game``, ``enroll_failed`` (camera mode: the box could not be learned),
``too_many_requests`` (429, with ``retry_after`` seconds and a ``Retry-After`` header: too many wrong
pairing codes), ``busy`` (503, with ``retry_after``: every live stream the server holds is taken),
``storage_error`` and — for a bug, never expected — ``internal_error``.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask, Response, jsonify
from werkzeug.exceptions import HTTPException

from datafile.provenance import ProfilePathError
from games.errors import FieldError, IllegalMoveError, InvalidMoveError
from session.runtime import (
    CorrectionConflict,
    NoGameError,
    StaleStateError,
    StorageError,
    UndoRefused,
)

log = logging.getLogger(__name__)

ERROR_TYPES: tuple[str, ...] = (
    "bad_request",
    "unauthorized",
    "forbidden",
    "not_found",
    "method_not_allowed",
    "payload_too_large",
    "unsupported_media_type",
    "stale_state",
    "illegal_move",
    "undo_refused",
    "no_game",
    "enroll_failed",
    "too_many_requests",
    "busy",
    "storage_error",
    "internal_error",
)

_HTTP_TYPES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
    429: "too_many_requests",
    503: "busy",
}


class ApiError(Exception):
    """An error the API reports as typed JSON."""

    def __init__(self, status: int, type_: str, message: str, **extra: Any) -> None:
        self.status = status
        self.type = type_
        self.message = message
        self.extra = extra
        super().__init__(message)


def bad_request(field: str, message: str) -> ApiError:
    """A ``bad_request`` naming the field (``body``, ``state_id``, ``move.slot`` …)."""
    return ApiError(400, "bad_request", f"{field}: {message}", field=field)


def error_response(status: int, type_: str, message: str, **extra: Any) -> Response:
    """The JSON response of a typed error."""
    body = {"error": {"type": type_, "message": message, **extra}}
    resp = jsonify(body)
    resp.status_code = status
    if "retry_after" in extra:
        resp.headers["Retry-After"] = str(extra["retry_after"])
    return resp


def _reason_template(exc: IllegalMoveError) -> dict[str, Any]:
    """The reason's template key and args, when the game gives them (the page translates it)."""
    key = getattr(exc, "reason_key", "")
    return {"key": key, "args": getattr(exc, "reason_args", {})} if key else {}


def illegal_move(exc: IllegalMoveError, **extra: Any) -> ApiError:
    """The engine's refusal, with its rule clause (and the reason's template, if any)."""
    return ApiError(
        422,
        "illegal_move",
        str(exc),
        clause=exc.clause,
        reason=exc.reason,
        move=exc.move,
        **_reason_template(exc),
        **extra,
    )


def register_error_handlers(app: Flask) -> None:
    """Turn every exception into a typed JSON error."""

    @app.errorhandler(ApiError)
    def _api(exc: ApiError) -> Response:
        return error_response(exc.status, exc.type, exc.message, **exc.extra)

    @app.errorhandler(StaleStateError)
    def _stale(exc: StaleStateError) -> Response:
        return error_response(409, "stale_state", exc.message, given_state_id=exc.given, current_state_id=exc.current)

    @app.errorhandler(NoGameError)
    def _nogame(exc: NoGameError) -> Response:
        return error_response(409, "no_game", exc.message)

    @app.errorhandler(UndoRefused)
    def _undo(exc: UndoRefused) -> Response:
        return error_response(409, "undo_refused", exc.message, reason=exc.reason)

    @app.errorhandler(CorrectionConflict)
    def _conflict(exc: CorrectionConflict) -> Response:
        e = exc.error
        return error_response(
            422,
            "illegal_move",
            exc.message,
            clause=e.clause,
            reason=e.reason,
            move=str(exc.move),
            index=exc.index,
            **_reason_template(e),
        )

    @app.errorhandler(IllegalMoveError)
    def _illegal(exc: IllegalMoveError) -> Response:
        err = illegal_move(exc)
        return error_response(err.status, err.type, err.message, **err.extra)

    @app.errorhandler(InvalidMoveError)
    def _invalid(exc: InvalidMoveError) -> Response:
        return error_response(400, "bad_request", f"move: {exc}", field="move")

    @app.errorhandler(FieldError)
    def _movefield(exc: FieldError) -> Response:
        return error_response(400, "bad_request", str(exc), field=exc.field)

    @app.errorhandler(ProfilePathError)
    def _path(exc: ProfilePathError) -> Response:
        return error_response(400, "bad_request", str(exc), field=exc.field)

    @app.errorhandler(StorageError)
    def _storage(exc: StorageError) -> Response:
        return error_response(503, "storage_error", exc.message)

    @app.errorhandler(HTTPException)
    def _http(exc: HTTPException) -> Response:
        status = exc.code or 500
        type_ = _HTTP_TYPES.get(status, "bad_request" if status < 500 else "internal_error")
        message = exc.description or exc.name
        extra: dict[str, Any] = {}
        if status == 400:
            extra["field"] = "body"
            message = f"body: {message}"
        resp = error_response(status, type_, message, **extra)
        allow = exc.get_headers().__iter__()
        for key, value in allow:
            if key.lower() == "allow":
                resp.headers["Allow"] = value
        return resp

    @app.errorhandler(Exception)
    def _bug(exc: Exception) -> Response:
        log.exception("internal error")
        return error_response(500, "internal_error", "internal error: the server log has the details")
