"""Features and counts from patches: the small ONNX models and the colour-histogram baseline.

Three models ship in the ``models`` package (``models/models.json`` lists them with their input
sizes and sha256; ``models/MODEL_CARD.md`` says how they were trained):

* ``tiles`` — a feature extractor: a normalised BGR patch of a tile (landscape, action, event or
  achievement tile, or bare table) → a unit vector. Tiles are recognised by comparing these vectors
  with the examples enrolled from the user's own box (:mod:`vision.enrollment`), so the model never
  needs to have seen the user's art.
* ``members`` — counts the members of one colour on a hex: input the patch plus a likeness map to
  that player's colour (:func:`vision.colour.likeness`), output a distribution over 0..N.
* ``shells`` — the same for shells on a shell spot or a row tile (likeness to the shell colour);
  ``row_shells``, where the folder has it, the same on row tiles only (:data:`OPTIONAL_MODELS`).

:class:`HistogramFeatures` is the plain colour-histogram baseline the evaluation compares against.
Models are loaded with onnxruntime on the CPU; a missing, corrupt or mismatched file raises
:class:`~vision.errors.ModelError` naming the file. Nothing is downloaded.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from datafile import DataFileError, Reader, read_json
from vision.errors import ModelError
from vision.relief import PieceModel

MANIFEST = "models.json"
MODEL_NAMES = ("tiles", "members", "shells")
OPTIONAL_MODELS = ("row_shells",)
"""Models a folder may add: ``row_shells`` counts the shells on a row tile (on its art) where the
folder has it; ``shells`` counts them there otherwise, and always on the seats' bare shell spots."""
EXTRAS = "extras"
"""``models.json``'s object of models that are not ONNX files (name -> {file, sha256}): ``pieces``, the
piece-against-bare-art model of :mod:`vision.relief` (a JSON file), optional."""


def default_models_dir() -> Path:
    """The folder of the shipped models (the ``models`` package)."""
    return Path(str(resources.files("models")))


def sha256(path: Path) -> str:
    """Hex sha256 of a file."""
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 16), b""):
            h.update(block)
    return h.hexdigest()


def checked_file(path: Path, name: str, want: str) -> str:
    """The sha256 of model ``name``'s file at ``path``; :class:`ModelError` when it is not there or its
    digest is not the manifest's ``want`` (empty: not checked)."""
    if not path.is_file():
        raise ModelError(str(path), "", f"missing: model {name!r} listed in {MANIFEST} is not there")
    digest = sha256(path)
    if want and digest != want:
        raise ModelError(
            str(path), "", f"sha256 {digest[:12]}… does not match {MANIFEST} ({want[:12]}…): corrupt or replaced"
        )
    return digest


@dataclass(frozen=True)
class ModelSpec:
    """One entry of ``models.json``: file, input side and channels, outputs, sha256."""

    name: str
    file: str
    px: int
    channels: int
    outputs: int
    sha256: str


def read_manifest(folder: Path) -> dict[str, ModelSpec]:
    """The models listed in ``folder/models.json``; ModelError when missing or malformed."""
    path = folder / MANIFEST
    if not path.exists():
        raise ModelError(str(path), "", "missing: the models folder has no models.json (train or copy the models)")
    data = read_json(path, "the models manifest", ModelError)
    if not isinstance(data, dict) or not isinstance(data.get("models"), dict):
        raise ModelError(
            str(path), "models", "must be an object of model name -> {file, px, channels, outputs, sha256}"
        )
    rd = Reader(str(path), ModelError)
    return {name: _model_spec(rd, name, m) for name, m in data["models"].items()}


def _model_spec(rd: Reader, name: str, node: Any) -> ModelSpec:
    at = f"models.{name}"
    entry = rd.obj(node, at)
    px, channels, outputs = (
        rd.integer(rd.get(entry, key, at), f"{at}.{key}", 1) for key in ("px", "channels", "outputs")
    )
    return ModelSpec(
        name,
        rd.text(rd.get(entry, "file", at), f"{at}.file"),
        px,
        channels,
        outputs,
        rd.text(rd.get(entry, "sha256", at), f"{at}.sha256", empty=True),
    )


class OnnxModel:
    """One ONNX model run with onnxruntime on the CPU (NCHW float32 input)."""

    def __init__(self, folder: Path, spec: ModelSpec, threads: int = 1) -> None:
        import onnxruntime as ort

        self.spec = spec
        self.path = folder / spec.file
        self.digest = checked_file(self.path, spec.name, spec.sha256)  # what the model computes is fixed by its file
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        opts.log_severity_level = 3
        opts.enable_cpu_mem_arena = False  # memory back after each batch (a smaller peak)
        try:
            self.session = ort.InferenceSession(str(self.path), opts, providers=["CPUExecutionProvider"])
        except Exception as exc:  # onnxruntime raises its own exception types for a bad file
            raise ModelError(str(self.path), "", f"cannot load the model: {str(exc).splitlines()[0][:160]}") from None
        inp = self.session.get_inputs()[0]
        self.input = inp.name
        shape = inp.shape
        if len(shape) != 4 or shape[1] != spec.channels or shape[2] != spec.px or shape[3] != spec.px:
            raise ModelError(
                str(self.path), "", f"input shape {shape} is not [N, {spec.channels}, {spec.px}, {spec.px}]"
            )

    def run(self, x: np.ndarray) -> np.ndarray:
        """Outputs for a batch (N x C x px x px float32)."""
        if len(x) == 0:
            return np.zeros((0, self.spec.outputs), np.float32)
        return self.session.run(None, {self.input: np.ascontiguousarray(x, np.float32)})[0]


def _nchw(patches01: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(patches01.transpose(0, 3, 1, 2), np.float32) - 0.5


class TileFeatures:
    """The ``tiles`` model: normalised BGR patches (N x px x px x 3, 0..1) → unit vectors (N x D)."""

    name = "model"

    def __init__(self, model: OnnxModel) -> None:
        self.model = model
        self.px = model.spec.px

    @property
    def identity(self) -> str:
        """What fixes the vectors of given patches: the model file's sha256."""
        return f"tiles:{self.model.digest}"

    def embed(self, patches01: np.ndarray) -> np.ndarray:
        """Unit feature vectors of the patches."""
        v = self.model.run(_nchw(patches01))
        return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


class HistogramFeatures:
    """The baseline: a joint colour histogram (``bins``³ over normalised BGR) of the patch's inner
    disc, square-rooted and scaled to unit length (nearest neighbour then compares colour content)."""

    name = "histogram"

    def __init__(self, px: int = 40, bins: int = 6, inner: float = 0.42) -> None:
        self.px = px
        self.bins = bins
        yy, xx = np.mgrid[0:px, 0:px]
        r = np.hypot(xx - (px - 1) / 2, yy - (px - 1) / 2)
        self.mask = (r <= inner * px).ravel()

    def embed(self, patches01: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
        """Unit histogram vectors of the patches; ``weights`` (N x px x px, 0/1) leaves pixels out."""
        n = len(patches01)
        b = self.bins
        q = np.clip((patches01.reshape(n, -1, 3)[:, self.mask] * b).astype(np.int32), 0, b - 1)
        idx = q[..., 0] * b * b + q[..., 1] * b + q[..., 2]
        flat = (idx + (np.arange(n) * b**3)[:, None]).ravel()
        wts = None if weights is None else weights.reshape(n, -1)[:, self.mask].astype(np.float64).ravel()
        counts = np.bincount(flat, weights=wts, minlength=n * b**3).reshape(n, b**3)
        hist = np.sqrt(counts.astype(np.float32))
        return hist / np.maximum(np.linalg.norm(hist, axis=1, keepdims=True), 1e-6)


class CountModel(Protocol):
    """What the readers count pieces with (:class:`Counter`, :class:`AreaCounter`): windows cut ``px``
    pixels a side and their likeness maps (and, where it reads them, lean ramps) -> count probabilities."""

    @property
    def px(self) -> int:
        """The side, in pixels, of the windows it reads."""
        ...

    @property
    def leans(self) -> bool:
        """Whether it reads a lean ramp per window."""
        ...

    def probabilities(self, patches01: np.ndarray, like: np.ndarray, lean: np.ndarray | None = None) -> np.ndarray: ...


class Counter:
    """A counting model (``members`` or ``shells``): patch + likeness map → P(count = 0..N).

    ``turns`` quarter turns of a window are averaged (a count does not change when the window
    turns). The turns cost a model run each, so with ``sure`` set only the windows whose first turn
    is less sure than that (its top probability) get the other turns: most windows hold 0–2 pieces
    that one look settles."""

    def __init__(self, model: OnnxModel, turns: int = 1, sure: float | None = None) -> None:
        self.model = model
        self.px = model.spec.px
        self.turns = max(1, min(4, turns))
        self.sure = sure

    @property
    def leans(self) -> bool:
        """Whether the model also reads a lean ramp per window (a fifth input channel)."""
        return self.model.spec.channels == 5

    def probabilities(self, patches01: np.ndarray, like: np.ndarray, lean: np.ndarray | None = None) -> np.ndarray:
        """N x (max+1) probabilities for patches (N x px x px x 3) and likeness maps (N x px x px),
        averaged over the ``turns`` quarter turns of each window (the model was trained with turned
        windows) — of each window less sure than ``sure`` after the first, or of all. A model that
        reads leans (:attr:`leans`) needs ``lean``: each window's lean ramp (N x px x px,
        :func:`vision.patches.lean_ramps`); others ignore it."""
        parts = [_nchw(patches01), like[:, None].astype(np.float32) - 0.5]
        if self.leans:
            if lean is None:
                raise ValueError(f"{self.model.path}: the model reads lean ramps; none given")
            parts.append(lean[:, None].astype(np.float32) - 0.5)
        x = np.concatenate(parts, axis=1)
        n = len(x)
        if n == 0:
            return np.zeros((0, self.model.spec.outputs), np.float32)
        if self.sure is None:
            batch = np.concatenate([np.rot90(x, k, axes=(2, 3)) for k in range(self.turns)])
            return _softmax(self.model.run(np.ascontiguousarray(batch))).reshape(self.turns, n, -1).mean(axis=0)
        p = _softmax(self.model.run(x))
        unsure = np.nonzero(p.max(axis=1) < self.sure)[0]
        if self.turns == 1 or len(unsure) == 0:
            return p
        xs = x[unsure]
        batch = np.concatenate([np.rot90(xs, k, axes=(2, 3)) for k in range(1, self.turns)])
        rest = _softmax(self.model.run(np.ascontiguousarray(batch))).reshape(self.turns - 1, len(unsure), -1)
        p[unsure] = (p[unsure] + rest.sum(axis=0)) / self.turns
        return p


def _softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax (computed in float64, returned as float32)."""
    z = logits.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)


class Models:
    """The models of one folder, loaded on demand; :meth:`check` loads all (clear error if any is bad)."""

    def __init__(self, folder: str | Path | None = None, threads: int = 1) -> None:
        self.folder = Path(folder) if folder is not None else default_models_dir()
        self.threads = threads
        self._specs: dict[str, ModelSpec] | None = None
        self._loaded: dict[str, OnnxModel] = {}
        self._extras: dict[str, PieceModel | None] = {}

    @property
    def specs(self) -> dict[str, ModelSpec]:
        """The manifest's entries."""
        if self._specs is None:
            if not self.folder.is_dir():
                raise ModelError(
                    str(self.folder), "", "is not a folder (the models folder holds models.json and *.onnx)"
                )
            self._specs = read_manifest(self.folder)
        return self._specs

    def get(self, name: str) -> OnnxModel:
        """The model called ``name`` (loaded once)."""
        if name not in self._loaded:
            spec = self.specs.get(name)
            if spec is None:
                raise ModelError(str(self.folder / MANIFEST), f"models.{name}", "missing: no such model listed")
            self._loaded[name] = OnnxModel(self.folder, spec, self.threads)
        return self._loaded[name]

    def check(self) -> None:
        """Load every model the pipeline uses."""
        for n in MODEL_NAMES + tuple(o for o in OPTIONAL_MODELS if o in self.specs):
            self.get(n)
        self.pieces()

    def tiles(self) -> TileFeatures:
        """The tile feature extractor."""
        return TileFeatures(self.get("tiles"))

    def counter(self, name: str, turns: int = 1, sure: float | None = None) -> Counter:
        """A counting model (``members`` or ``shells``), averaging over ``turns`` quarter turns (of
        the windows less sure than ``sure`` after one, or of all: :class:`Counter`)."""
        return Counter(self.get(name), turns, sure)

    def pieces(self) -> PieceModel | None:
        """The piece-against-bare-art model (``models.json`` ``extras.pieces``: :mod:`vision.relief`),
        its sha256 checked; None when the folder lists none."""
        if "pieces" in self._extras:
            return self._extras["pieces"]
        extras = self._manifest_extras()
        model = None
        if extras is not None and "pieces" in extras:
            at = f"{EXTRAS}.pieces"
            rd = Reader(str(self.folder / MANIFEST), ModelError)
            entry = rd.obj(extras["pieces"], at)
            path = self.folder / rd.text(rd.get(entry, "file", at), f"{at}.file")
            checked_file(path, "pieces", rd.text(rd.get(entry, "sha256", at), f"{at}.sha256", empty=True))
            model = PieceModel.load(path)
        self._extras["pieces"] = model  # loaded once, as the ONNX models are
        return model

    def _manifest_extras(self) -> dict[str, Any] | None:
        """``models.json``'s object of models that are not ONNX files (:data:`EXTRAS`), or None."""
        doc = read_json(self.folder / MANIFEST, "the models manifest", ModelError)
        extras = doc.get(EXTRAS) if isinstance(doc, dict) else None
        return extras if isinstance(extras, dict) else None

    def setting(self, name: str, default: float) -> float:
        """A number from ``models.json`` (the recognizer's tuned settings), or ``default``."""
        try:
            doc = read_json(self.folder / MANIFEST, "the models manifest", ModelError)
            return float(doc.get(name, default))
        except (DataFileError, ValueError, TypeError, AttributeError):
            return default

    def mix(self) -> float:
        """Weight of the model in the tile features (``models.json`` ``tile_mix``; the rest is a colour
        histogram of the prepared window; 1.0 = model only)."""
        return self.setting("tile_mix", 1.0)

    def digests(self) -> dict[str, str]:
        """sha256 per model file the pipeline reads, the extras (``pieces``) included: what an
        evaluation's figures were measured with (recorded in its results)."""
        out = {n: s.sha256 for n, s in self.specs.items()}
        extras = self._manifest_extras()
        if extras is not None:
            for name, entry in extras.items():
                if isinstance(entry, dict) and isinstance(entry.get("sha256"), str):
                    out[name] = entry["sha256"]
        return out


class AreaCounter:
    """The baseline counter: pixels that look like the colour (likeness above 0.5), divided by the
    area one piece covers in such a window (``unit`` pixels), rounded; the confidence falls as the
    estimate nears a half."""

    def __init__(self, unit: float, max_count: int) -> None:
        self.unit = unit
        self.max_count = max_count

    leans = False  # reads no lean ramps
    px = 48  # the window side its ``unit`` was measured at (the readers' COUNT_PX)

    def probabilities(self, patches01: np.ndarray, like: np.ndarray, lean: np.ndarray | None = None) -> np.ndarray:
        """N x (max+1) distributions peaked at the rounded estimate (``lean`` is not read)."""
        est = (like > 0.5).sum(axis=(1, 2)) / max(self.unit, 1e-6)
        k = np.clip(np.round(est), 0, self.max_count).astype(np.int64)
        conf = np.clip(1.0 - np.abs(est - np.round(est)), 0.5, 1.0)
        p = np.zeros((len(like), self.max_count + 1), np.float32)
        p[np.arange(len(like)), k] = conf
        rest = (1.0 - conf) / self.max_count
        p += rest[:, None] * (p == 0)
        return p
