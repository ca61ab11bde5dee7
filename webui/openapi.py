"""The OpenAPI 3.0 description of the companion's HTTP API, written by hand and served at
``/api/openapi.json``. Schemathesis fuzzes the API from it (tests/webui/test_webui_fuzz.py)."""

from __future__ import annotations

from typing import Any

from webui.errors import ERROR_TYPES

JSON = "application/json"


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema}}}


def _errors(*codes: int) -> dict[str, Any]:
    return {str(c): {"$ref": f"#/components/responses/E{c}"} for c in codes}


_READ_ERRORS = (400, 404, 405, 409)
_WRITE_ERRORS = (400, 401, 404, 405, 409, 413, 415, 422, 503)


def _body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": schema}}}


def openapi_spec() -> dict[str, Any]:
    """The OpenAPI document."""
    hexs = {"oneOf": [{"type": "string", "example": "1,-1"}, {"type": "array", "items": {"type": "integer"}}]}
    move = {
        "description": "A move in the engine's notation (docs/notation.md), e.g. '1:off 0,0', or a structured "
        "move object with 'kind' and the move's fields (docs/webui.md).",
        "oneOf": [
            {"type": "string", "example": "1:exp"},
            {
                "type": "object",
                "required": ["kind"],
                "properties": {
                    "kind": {
                        "type": "string",
                        "enum": [
                            "setup",
                            "start",
                            "off",
                            "mov",
                            "exp",
                            "ach",
                            "evt",
                            "draw",
                            "place",
                            "reveal",
                            "event",
                            "pick",
                            "restore",
                            "lose",
                            "gain",
                            "exhaust",
                        ],
                    },
                    "slot": {"type": "integer"},
                    "hex": hexs,
                    "place": {"type": "array", "items": hexs},
                    "hexes": {"type": "array", "items": hexs},
                    "jokers": {"type": "array", "items": hexs},
                    "achievement": {"type": "string"},
                    "arrow": {"type": "string", "nullable": True},
                    "event": {"type": "string"},
                    "option": {"type": "integer"},
                    "tiles": {"type": "array"},
                    "transfers": {"type": "array"},
                    "relocate": {"type": "array"},
                    "row": {"type": "array", "items": {"type": "string"}},
                    "era1": {"type": "array", "items": {"type": "string"}},
                    "lands": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                },
            },
        ],
    }
    state_id = {"type": "integer", "minimum": 0, "description": "the state id the client's view is based on"}
    view = {
        "type": "object",
        "required": ["state_id", "has_game"],
        "properties": {
            "state_id": {"type": "integer"},
            "has_game": {"type": "boolean"},
            "game": {
                "type": "object",
                "description": "the game shown: id, title, script (its browser module, docs/page-shell.md), "
                "min_players, max_players, colours, profile (whether it has a box profile)",
            },
            "over": {"type": "boolean", "description": "the game has ended"},
            "position": {"type": "object", "description": "the position (docs/position.md)"},
            "prompt": {"type": "object", "description": "rules.legal.describe(state): what the game waits for"},
            "scores": {"type": "array", "items": {"type": "object"}},
            "undo": {"type": "object"},
            "era3": {"type": "object"},
        },
    }
    accepted = {
        "type": "object",
        "required": ["accepted", "view"],
        "properties": {
            "accepted": {
                "type": "object",
                "properties": {
                    "op": {"type": "string"},
                    "index": {"type": "integer", "nullable": True},
                    "move": {"type": "string", "nullable": True},
                },
            },
            "view": _ref("View"),
        },
    }
    error = {
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["type", "message"],
                "properties": {
                    "type": {"type": "string", "enum": list(ERROR_TYPES)},
                    "message": {"type": "string"},
                    "field": {"type": "string"},
                    "clause": {"type": "string"},
                    "reason": {"type": "string"},
                    "current_state_id": {"type": "integer"},
                },
            }
        },
    }
    responses = {
        f"E{c}": _json(_ref("Error"), text)
        for c, text in (
            (400, "bad_request (names the field)"),
            (401, "unauthorized: not the host itself and not paired (pairing code or cookie missing or wrong)"),
            (403, "forbidden: a Host header that does not name this server, a write from another site's page"),
            (404, "not_found"),
            (405, "method_not_allowed"),
            (409, "stale_state, no_game, undo_refused or enroll_failed"),
            (413, "payload_too_large"),
            (415, "unsupported_media_type"),
            (422, "illegal_move (with the rule clause)"),
            (429, "too_many_requests: too many wrong pairing codes (Retry-After)"),
            (503, "storage_error, or busy: every live stream is taken (Retry-After)"),
        )
    }
    obj = {"type": "object"}
    rgb = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": 255}, "minItems": 3, "maxItems": 3}
    leds = {
        "type": "object",
        "required": ["enabled", "status", "detail", "port", "protocol", "frame", "slots"],
        "properties": {
            "enabled": {"type": "boolean", "description": "false: the server runs without a strip"},
            "status": {"type": "string", "enum": ["connected", "reconnecting", "absent"]},
            "detail": {"type": "string", "description": "what is connected, or the last problem"},
            "port": {"type": "string", "nullable": True, "description": "device path, hwgrep://VID:PID or virtual"},
            "protocol": {"type": "string", "nullable": True, "description": "adalight, wled or virtual once connected"},
            "firmware": {"type": "string"},
            "virtual": {"type": "boolean"},
            "led_count": {"type": "integer", "minimum": 1},
            "direction": {"type": "string", "enum": ["forward", "reverse"]},
            "brightness": {"type": "number", "minimum": 0, "maximum": 1},
            "frame": {
                "type": "array",
                "items": rgb,
                "description": "the picture the strip settles on: one logical [r, g, b] per LED, LED 0 first",
            },
            "layout": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                "description": "the LEDs under slot 1, 2, … (max_row slots)",
            },
            "slots": {
                "type": "array",
                "description": "the look of each tile in the row now (colour with level and brightness applied)",
                "items": {
                    "type": "object",
                    "required": ["slot", "kind", "leds", "colour"],
                    "properties": {
                        "slot": {"type": "integer", "minimum": 1},
                        "kind": {"type": "string", "enum": ["free", "cost", "blocked", "event", "idle"]},
                        "cost": {"type": "integer", "minimum": 0},
                        "leds": {"type": "array", "items": {"type": "integer", "minimum": 0}},
                        "colour": rgb,
                    },
                },
            },
            "pulse": {
                "type": "object",
                "nullable": True,
                "description": "the tile just taken pulses towards colour: amount sin(pi * t / duration_s)",
                "properties": {
                    "slot": {"type": "integer"},
                    "leds": {"type": "array", "items": {"type": "integer"}},
                    "colour": rgb,
                    "duration_s": {"type": "number"},
                    "elapsed_s": {"type": "number"},
                },
            },
            "frames_sent": {"type": "integer", "minimum": 0},
            "reconnects": {"type": "integer", "minimum": 0},
            "warnings": {"type": "array", "items": {"type": "string"}},
            "seq": {"type": "integer", "minimum": 0},
        },
    }
    pair = {
        "type": "object",
        "required": ["paired", "needed"],
        "properties": {"paired": {"type": "boolean"}, "needed": {"type": "boolean"}},
    }
    paths: dict[str, Any] = {
        "/api/state": {
            "get": {
                "operationId": "getState",
                "summary": "The live game: position, prompt with legal-move overview, scores, undo status",
                "responses": {"200": _json(_ref("View"), "the live view"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/legal": {
            "get": {
                "operationId": "getLegal",
                "summary": "What the game waits for, each tile with cost, options and reasons (rule clauses)",
                "parameters": [
                    {
                        "name": "moves",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": 1000},
                        "description": "also list up to this many concrete legal moves in notation",
                    }
                ],
                "responses": {"200": _json(obj, "the overview"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/chance": {
            "get": {
                "operationId": "getChance",
                "summary": "Whether a chance outcome is needed (setup, draw, reveal) and the possible outcomes",
                "responses": {"200": _json(obj, "needed, kind, outcomes"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/moves": {
            "post": {
                "operationId": "postMove",
                "summary": "Submit a move based on the state id the client saw",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["state_id", "move"],
                        "properties": {"state_id": state_id, "move": move},
                        "additionalProperties": False,
                    }
                ),
                "responses": {"200": _json(accepted, "the move was journaled"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/undo": {
            "post": {
                "operationId": "postUndo",
                "summary": "Take back the last move, whatever it was (a revealed chance outcome is asked for again)",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["state_id"],
                        "properties": {"state_id": state_id},
                        "additionalProperties": False,
                    }
                ),
                "responses": {"200": _json(accepted, "undone"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/corrections": {
            "post": {
                "operationId": "postCorrection",
                "summary": "Correct the record: replace move `index` (0-based) and replay the moves after it",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["state_id", "index", "move"],
                        "properties": {
                            "state_id": state_id,
                            "index": {"type": "integer", "minimum": 0},
                            "move": move,
                            "rest": {"type": "string", "enum": ["replay", "prefix", "truncate"]},
                        },
                        "additionalProperties": False,
                    }
                ),
                "responses": {"200": _json(accepted, "corrected"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/games": {
            "post": {
                "operationId": "postGame",
                "summary": "Start a new game: players in seat order (start player first) and optionally the setup "
                "outcome, or a position",
                "requestBody": _body(
                    {
                        "type": "object",
                        "properties": {
                            "players": {
                                "type": "array",
                                "minItems": 2,
                                "maxItems": 4,
                                "items": {
                                    "type": "object",
                                    "required": ["name"],
                                    "properties": {"name": {"type": "string"}, "colour": {"type": "string"}},
                                    "additionalProperties": False,
                                },
                            },
                            "profile": {
                                "oneOf": [{"type": "string", "enum": ["saved", "default"]}, {"type": "object"}]
                            },
                            "position": obj,
                            "setup": move,
                            "state_id": state_id,
                        },
                        "additionalProperties": False,
                    }
                ),
                "responses": {"200": _json(accepted, "the new game"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/log": {
            "get": {
                "operationId": "getLog",
                "summary": "The move log with the mover of each move, VP totals after each move, journal entries; "
                "with since=<state id> only what came after it (since and from set) when only moves came since",
                "parameters": [
                    {
                        "name": "since",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0},
                        "description": "the state id of the log the client has",
                    }
                ],
                "responses": {
                    "200": _json(obj, "the log (or what came since)"),
                    "304": {"description": "not modified (If-None-Match)"},
                    **_errors(*_READ_ERRORS),
                },
            }
        },
        "/api/positions/{n}": {
            "get": {
                "operationId": "getPosition",
                "summary": "The position after the first n moves (0 = start); ?moves=N: up to N moves possible there",
                "parameters": [
                    {"name": "n", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0}},
                    {
                        "name": "moves",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "integer", "minimum": 0, "maximum": 1000},
                    },
                ],
                "responses": {"200": _json(obj, "the position"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/journal": {
            "get": {
                "operationId": "getJournal",
                "summary": "The game record (settings, moves, final ranking once over)",
                "parameters": [{"name": "download", "in": "query", "required": False, "schema": {"type": "string"}}],
                "responses": {"200": _json(obj, "the record"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/catalog": {
            "get": {
                "operationId": "getCatalog",
                "summary": "Components of the game's box profile with provisional values flagged",
                "parameters": [
                    {
                        "name": "saved",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string"},
                        "description": "1: the saved profile (what new games use) instead of the game's",
                    }
                ],
                "responses": {"200": _json(obj, "the catalog"), **_errors(*_READ_ERRORS)},
            }
        },
        "/api/profile": {
            "get": {
                "operationId": "getProfile",
                "summary": "The saved box profile, the provenance of every value, the provisional values",
                "responses": {"200": _json(obj, "the profile"), **_errors(*_READ_ERRORS)},
            },
            "put": {
                "operationId": "putProfile",
                "summary": "Validate and save the box profile (values in `checked` get the provenance "
                "'checked against the owner's box')",
                "requestBody": _body(_ref("ProfileEdit")),
                "responses": {"200": _json(obj, "saved"), **_errors(*_WRITE_ERRORS)},
            },
        },
        "/api/profile/validate": {
            "post": {
                "operationId": "validateProfile",
                "summary": "Validate an edited box profile without saving it",
                "requestBody": _body(_ref("ProfileEdit")),
                "responses": {"200": _json(obj, "valid"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/demo": {
            "post": {
                "operationId": "postDemo",
                "summary": "Set the speed of the demo playing (serve --demo, table-companion demo): one of the live "
                "view's demo.speeds; 404 when no demo plays",
                "requestBody": _body(
                    {
                        "type": "object",
                        "required": ["speed"],
                        "properties": {"speed": {"type": "number"}},
                        "additionalProperties": False,
                    }
                ),
                "responses": {"200": _json({"type": "object"}, "the demo's speed now"), **_errors(*_WRITE_ERRORS)},
            }
        },
        "/api/leds": {
            "get": {
                "operationId": "getLeds",
                "summary": "The LED strip along the action row: status (connected / reconnecting / absent), the "
                "picture it shows (one [r, g, b] per LED) and the look of each slot; enabled=false without a strip",
                "responses": {"200": _json(_ref("Leds"), "the strip"), **_errors(405)},
            }
        },
        "/api/camera/enrollment": {
            "get": {
                "operationId": "getEnrollment",
                "summary": "Camera mode: whether the user's box has been learned (state needed / enrolled / failed, "
                "what was learned, what is still missing); 404 when not in camera mode or the source needs none",
                "responses": {"200": _json(_ref("Enrollment"), "the enrollment"), **_errors(404, 405)},
            }
        },
        "/api/camera/enroll": {
            "post": {
                "operationId": "enroll",
                "summary": "Camera mode: learn the user's box now from the newest camera picture and the setup "
                "entered on the page; 409 enroll_failed with a one-line message (no game yet, setup not entered, "
                "no markers in view, hands in view)",
                "requestBody": _body({"type": "object", "additionalProperties": False}),
                "responses": {
                    "200": _json(_ref("Enrollment"), "what was learned"),
                    **_errors(400, 401, 404, 405, 409, 413, 415),
                },
            }
        },
        "/api/events": {
            "get": {
                "operationId": "getEvents",
                "summary": "Server-Sent Events: `event: state` with `id: <state id>` and the live view after every "
                "change; `event: leds` (no id) with the strip as GET /api/leds gives it, on open and when it "
                "changes; a comment heartbeat every 15 s; send Last-Event-ID to skip an unchanged view",
                "responses": {
                    "200": {
                        "description": "the event stream",
                        "content": {"text/event-stream": {"schema": {"type": "string"}}},
                    }
                },
            }
        },
        "/api/openapi.json": {
            "get": {
                "operationId": "getOpenapi",
                "summary": "This description",
                "responses": {"200": _json(obj, "OpenAPI 3.0")},
            }
        },
    }
    paths["/api/pair"] = {
        "get": {
            "operationId": "getPair",
            "summary": "Whether this browser is paired (needed: false on the host itself)",
            "responses": {"200": _json(pair, "paired, needed"), **_errors(405)},
        },
        "post": {
            "operationId": "postPair",
            "summary": "Pair this browser with the code shown on the host's screen (sets a cookie)",
            "requestBody": _body(
                {
                    "type": "object",
                    "required": ["code"],
                    "properties": {"code": {"type": "string", "example": "K7QD-M2XP-4RTA-9WZB"}},
                    "additionalProperties": False,
                }
            ),
            "responses": {"200": _json(pair, "paired"), **_errors(400, 401, 405, 413, 415)},
        },
    }
    for ops in paths.values():  # the Host check, pairing and its rate limit apply to every route
        for op in ops.values():
            op["responses"].update(_errors(401, 403, 429))
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "Tribes companion",
            "version": "1",
            "description": "Live game state, legal moves and move entry for a game of Tribes: Dawn of Humanity "
            "played on a real table. Writes take JSON. Anything but the host itself must be paired: the "
            "X-Pairing-Token header with the code shown on the host, or the cookie POST /api/pair sets "
            "(docs/security.md).",
        },
        "paths": paths,
        "components": {
            "schemas": {
                "View": view,
                "Leds": leds,
                "Enrollment": {
                    "type": "object",
                    "required": ["state", "message", "learned", "missing", "path"],
                    "properties": {
                        "state": {"type": "string", "enum": ["needed", "enrolled", "failed"]},
                        "message": {"type": "string"},
                        "learned": {"type": "array", "items": {"type": "string"}},
                        "missing": {"type": "array", "items": {"type": "string"}},
                        "path": {"type": "string", "nullable": True, "description": "where the learned box is kept"},
                    },
                },
                "Error": error,
                "ProfileEdit": {
                    "type": "object",
                    "required": ["profile"],
                    "properties": {
                        "profile": obj,
                        "checked": {"type": "array", "items": {"type": "string"}},
                    },
                    "additionalProperties": False,
                },
            },
            "responses": responses,
            "securitySchemes": {"pairing": {"type": "apiKey", "in": "header", "name": "X-Pairing-Token"}},
        },
    }
