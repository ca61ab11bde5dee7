"""datafile: the one validating JSON reader for every data file of the companion.

Positions, journals, box profiles, table layouts, observations, enrollments and LED configurations
are all read through :func:`read_json` (a file) or :func:`parse_json` (text or bytes from elsewhere,
such as an HTTP body), and validated with a :class:`Reader`. Every problem is one
:class:`DataFileError` whose message is one line, ``FILE: FIELD: reason``:

* bytes that are not UTF-8 (the byte offset is named), text that is not JSON (line and column),
* nesting deeper than :data:`MAX_DEPTH`, integers longer than :data:`MAX_INT_DIGITS` digits,
  ``NaN``/``Infinity`` and numbers too large for a float,
* a path that is a folder, a FIFO or a device instead of a file, or a file over :data:`MAX_BYTES`,
* a field missing, of the wrong kind, out of range, or not known (``Reader``).

Pure Python; nothing else of the project is imported.
"""

from __future__ import annotations

import builtins
import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any, NoReturn, TypeVar

MAX_DEPTH = 64
"""Deepest nesting of objects and lists any of our documents needs (the deepest, an event effect of
the box profile, uses about 8)."""
MAX_INT_DIGITS = 18
"""Longest integer accepted (no value in any of our documents comes near it)."""
MAX_BYTES = 64 * 1024 * 1024
"""Largest data file read (a whole-game journal is well under 1 MB)."""

E = TypeVar("E", bound="DataFileError")


class DataFileError(ValueError):
    """A data file (or document) that cannot be read or fails validation: ``source`` names the file
    (or ``<stdin>``, ``request body``…; empty for a document of unknown origin), ``field`` the place
    in it (``players[2].name``; empty for the whole file), ``reason`` what is wrong. ``str()`` is the
    one-line message."""

    def __init__(self, source: str, field: str, reason: str) -> None:
        self.source = source
        self.field = field
        self.reason = reason
        super().__init__(": ".join([part for part in (source, field) if part] + [reason]))


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def _depth(text: str) -> int:
    """The deepest nesting of objects/lists in JSON ``text`` (strings skipped)."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if not brackets:
        return 0
    return max(accumulate(1 if c in "[{" else -1 for c in brackets))


class _Refused(ValueError):
    pass


def _parse_int(s: str) -> int:
    if len(s.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"holds an integer of {len(s.lstrip('-'))} digits (at most {MAX_INT_DIGITS})")
    return int(s)


def _parse_float(s: str) -> float:
    v = float(s)
    if not math.isfinite(v):
        raise _Refused(f"holds the number {s[:30]}, which is too large")
    return v


def _parse_constant(s: str) -> NoReturn:
    raise _Refused(f"holds {s}, which is not a number JSON allows")


def _decode(data: bytes, source: str, error: type[DataFileError], prefix: str = "") -> str:
    """``data`` as UTF-8 text; anything else is one ``error`` naming the offending byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        reason = f"{prefix}is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})"
        raise error(source, "", reason) from None


def parse_json(
    data: str | bytes, source: str, error: type[DataFileError] = DataFileError, max_depth: int = MAX_DEPTH
) -> Any:
    """Decode JSON ``data`` (text, or bytes that must be UTF-8) from ``source``; every problem is one
    ``error(source, field, reason)``."""
    text = _decode(bytes(data), source, error) if isinstance(data, bytes | bytearray) else data
    if text.startswith("\ufeff"):
        text = text[1:]
    depth = _depth(text)
    if depth > max_depth:
        raise error(source, "", f"nests objects and lists {depth} deep (at most {max_depth})")
    try:
        return json.loads(text, parse_int=_parse_int, parse_float=_parse_float, parse_constant=_parse_constant)
    except json.JSONDecodeError as exc:
        raise error(source, f"line {exc.lineno} column {exc.colno}", f"not valid JSON: {exc.msg}") from None
    except _Refused as exc:
        raise error(source, "", str(exc)) from None
    except (ValueError, RecursionError) as exc:  # e.g. Python's own integer-length limit
        raise error(source, "", f"not valid JSON: {str(exc).splitlines()[0][:80]}") from None


def read_bytes(path: str | Path, what: str, error: type[DataFileError] = DataFileError) -> bytes:
    """The bytes of a regular file (never a folder, FIFO or device: those would hang or mislead)."""
    p = Path(path)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise error(str(p), "", f"cannot read {what}: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(str(p), "", f"cannot read {what}: it is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise error(str(p), "", f"cannot read {what}: it is not a regular file")
    if st.st_size > MAX_BYTES:
        raise error(str(p), "", f"cannot read {what}: {st.st_size} bytes is more than {MAX_BYTES}")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise error(str(p), "", f"cannot read {what}: {exc.strerror or exc}") from None


def read_json(path: str | Path, what: str = "the file", error: type[DataFileError] = DataFileError) -> Any:
    """Read and decode a JSON file; every problem is one ``error(file, field, reason)``."""
    return parse_json(read_text(path, what, error), str(path), error)


def read_text(path: str | Path, what: str = "the file", error: type[DataFileError] = DataFileError) -> str:
    """Read a UTF-8 text file with the same checks as :func:`read_json` (bytes that are not UTF-8:
    ``cannot read WHAT: it is not UTF-8 text (byte N is 0x..)``)."""
    return _decode(read_bytes(path, what, error), str(path), error, f"cannot read {what}: it ")


def write_bytes(path: str | Path, data: bytes, what: str = "the file", fsync: bool = True) -> None:
    """Write a whole file atomically: under a temporary name in the same folder, fsynced, renamed into
    place (an existing file keeps its permissions). Nothing is left behind on failure; every problem
    (a missing folder, a folder in the way, no permission) is one :class:`DataFileError`."""
    target = Path(path)
    folder = target.parent
    if target.is_dir():
        raise DataFileError(str(target), "", f"cannot write {what}: it is a folder")
    if not folder.is_dir():
        raise DataFileError(str(target), "", f"cannot write {what}: the folder {folder} does not exist")
    try:
        replace_atomically(target, data, fsync)
    except OSError as exc:
        raise DataFileError(str(target), "", f"cannot write {what}: {exc.strerror or exc}") from None


def replace_atomically(path: Path, data: bytes, fsync: bool = True) -> None:
    """Write a whole file under a temporary name in its folder, fsync it (``fsync``) and rename it
    into place; a file replaced keeps its permissions. On failure the temporary file is removed and
    the error (an :class:`OSError`) raised: an existing file keeps its old contents."""
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = None
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_json(data: Any, path: str | Path, what: str = "the file") -> None:
    """Write ``data`` as indented UTF-8 JSON, atomically (see :func:`write_bytes`)."""
    write_bytes(path, (json.dumps(data, ensure_ascii=False, indent=1) + "\n").encode("utf-8"), what)


def beside(path: str | Path, base: str | Path | None) -> Path:
    """``path`` as named inside a document from the folder ``base`` (the folder of the file the
    document came from): a relative path is read from there, an absolute one stays; without a
    ``base`` (a document not from a file) it is read from the working directory."""
    p = Path(path)
    return p if base is None or p.is_absolute() else Path(base) / p


def kind(val: Any) -> str:
    """How a JSON value is called in messages."""
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(val), type(val).__name__
    )


def show(val: Any, limit: int = 40) -> str:
    """A JSON value shortened for a message."""
    try:
        text = json.dumps(val, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(val)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def join(path: str, key: str | int) -> str:
    """``path.key`` or ``path[i]`` (``key`` alone at the top)."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Reader:
    """Validation helpers that raise ``error(source, path, reason)`` — one class for every document.

    ``path`` is where the value sits (``players[0].land[3].hex``); helpers take the value and its
    path and return it checked (numbers as ``float``/``int``, texts non-empty unless told)."""

    def __init__(self, source: str, error: type[DataFileError] = DataFileError) -> None:
        self.source = source
        self.error = error

    def fail(self, path: str, reason: str) -> DataFileError:
        """The error to raise for ``path``."""
        return self.error(self.source, path or "(top level)", reason)

    def obj(self, node: Any, path: str) -> dict[str, Any]:
        """An object."""
        if not isinstance(node, dict):
            raise self.fail(path, f"must be an object, got {kind(node)}")
        return node

    def list(self, node: Any, path: str, min_len: int = 0, max_len: int | None = None) -> builtins.list[Any]:
        """A list of ``min_len`` to ``max_len`` items."""
        if not isinstance(node, list):
            raise self.fail(path, f"must be a list, got {kind(node)}")
        if len(node) < min_len:
            raise self.fail(path, f"must hold at least {min_len} item(s), got {len(node)}")
        if max_len is not None and len(node) > max_len:
            raise self.fail(path, f"must hold at most {max_len} item(s), got {len(node)}")
        return node

    def get(self, node: Mapping[str, Any], key: str, path: str, default: Any = ...) -> Any:
        """``node[key]``; missing is an error unless a ``default`` is given."""
        if key not in node:
            if default is not ...:
                return default
            raise self.fail(join(path, key), "is missing")
        return node[key]

    def only(self, node: Mapping[str, Any], allowed: Iterable[str], path: str) -> None:
        """No fields besides ``allowed``."""
        extra = sorted(set(node) - set(allowed))
        if extra:
            raise self.fail(join(path, extra[0]), "is not a field here")

    def number(
        self, val: Any, path: str, lo: float | None = None, hi: float | None = None, positive: bool = False
    ) -> float:
        """A finite number within bounds."""
        if isinstance(val, bool) or not isinstance(val, int | float) or not math.isfinite(val):
            raise self.fail(path, f"must be a number, got {show(val)}")
        if positive and val <= 0:
            raise self.fail(path, f"must be > 0, got {val}")
        if lo is not None and val < lo:
            raise self.fail(path, f"must be >= {lo}, got {val}")
        if hi is not None and val > hi:
            raise self.fail(path, f"must be <= {hi}, got {val}")
        return float(val)

    def integer(self, val: Any, path: str, lo: int | None = None, hi: int | None = None) -> int:
        """An integer (not a boolean) within bounds."""
        if isinstance(val, bool) or not isinstance(val, int):
            raise self.fail(path, f"must be an integer, got {show(val)}")
        if lo is not None and val < lo:
            raise self.fail(path, f"must be >= {lo}, got {val}")
        if hi is not None and val > hi:
            raise self.fail(path, f"must be <= {hi}, got {val}")
        return val

    def boolean(self, val: Any, path: str) -> bool:
        """true or false."""
        if not isinstance(val, bool):
            raise self.fail(path, f"must be true or false, got {show(val)}")
        return val

    def text(self, val: Any, path: str, empty: bool = False, max_len: int | None = None) -> str:
        """A string (non-empty unless ``empty``)."""
        if not isinstance(val, str) or (not val and not empty):
            raise self.fail(path, f"must be a non-empty text, got {show(val)}")
        if max_len is not None and len(val) > max_len:
            raise self.fail(path, f"must be at most {max_len} characters, got {len(val)}")
        return val

    def choice(self, val: Any, path: str, choices: Sequence[str]) -> str:
        """One of ``choices``."""
        if not isinstance(val, str) or val not in choices:
            raise self.fail(path, f"must be one of {', '.join(choices)}, got {show(val)}")
        return val

    def pair(self, val: Any, path: str, what: str = "a pair") -> tuple[Any, Any]:
        """A list of two values."""
        if not isinstance(val, list) or len(val) != 2:
            raise self.fail(path, f"must be {what}, got {show(val)}")
        return (val[0], val[1])

    def items(
        self, node: Any, path: str, item: Callable[[Any, str], Any], min_len: int = 0, max_len: int | None = None
    ) -> builtins.list[Any]:
        """Each item of a list through ``item(value, path[i])``."""
        return [item(v, join(path, i)) for i, v in enumerate(self.list(node, path, min_len, max_len))]


def wrap(error: type[E], source: str, exc: DataFileError) -> E:
    """``exc`` as an ``error`` of another class (same source, field and reason)."""
    return error(source or exc.source, exc.field, exc.reason)


__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_INT_DIGITS",
    "DataFileError",
    "Reader",
    "beside",
    "join",
    "kind",
    "parse_json",
    "read_bytes",
    "read_json",
    "read_text",
    "show",
    "wrap",
    "write_bytes",
    "write_json",
]
