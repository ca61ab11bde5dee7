"""The import graph: what may import what (docs/architecture.md).

* The chassis — ``vision``, ``tracker``, ``session``, ``webui``, ``devices``, ``datafile`` and the
  game-neutral modules of ``games`` (the registry, ``api``, ``errors``, ``players``, ``record``) — imports no
  game's internals: a game is reached through ``games.get(id)`` only.
* The product path imports neither the synthetic table (``sim``, ``games/<id>/sim``) nor training
  code (``tools``). Only the app layer (``companion``: the console command, which starts the demo),
  benchmarks and tests may.
* A game's rules import only the standard library, ``datafile``, ``games.api``/``games.errors`` and
  the game's own rules; no game imports another.

Imports inside functions count as much as those at the top (a lazy import is still an import).
"""

from __future__ import annotations

import ast
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OURS = {"games", "vision", "tracker", "session", "webui", "devices", "datafile", "sim", "tools", "companion", "models"}
CHASSIS = ("vision", "tracker", "session", "webui", "devices", "datafile")
GAME_NEUTRAL = {"games", "games.api", "games.errors", "games.record", "games.profiles", "games.players"}


def _modules() -> dict[str, Path]:
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()
    out = {}
    for f in files:
        parts = Path(f).with_suffix("").parts
        if parts[0] not in OURS:
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = ROOT / f
    return out


def _imports(mod: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    pkg = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = pkg.split(".")[: len(pkg.split(".")) - (node.level - 1)]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] in OURS:
                found.add(target)
                found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] in OURS)
    return found


GRAPH = {m: _imports(m, p) for m, p in _modules().items()}
MODULES = set(GRAPH)


def _real(names: set[str]) -> set[str]:
    """Imported names that are modules (``from x import y`` adds ``x.y`` only when it is one)."""
    return {n for n in names if n in MODULES}


def _game_of(mod: str) -> str | None:
    parts = mod.split(".")
    if parts[0] == "games" and len(parts) > 1 and mod not in GAME_NEUTRAL:
        return parts[1]
    return None


def _is_sim(mod: str) -> bool:
    parts = mod.split(".")
    return parts[0] in ("sim", "tools") or (parts[0] == "games" and len(parts) > 2 and parts[2] == "sim")


def _product(mod: str) -> bool:
    return not _is_sim(mod) and mod.split(".")[0] not in ("companion",)


def _violations(pred_from, pred_to) -> list[str]:
    return sorted(f"{m} -> {t}" for m, names in GRAPH.items() if pred_from(m) for t in _real(names) if pred_to(m, t))


def test_the_graph_is_read():
    assert len(GRAPH) > 100
    assert "games.tribes.rules.engine" in GRAPH["games.tribes.rules"]


def test_the_chassis_imports_no_game_internals():
    bad = _violations(
        lambda m: m.split(".")[0] in CHASSIS or m in GAME_NEUTRAL,
        lambda m, t: _game_of(t) is not None,
    )
    assert not bad, "the chassis reaches into a game:\n" + "\n".join(bad)


def test_the_product_path_imports_no_synthetic_table_nor_training():
    bad = _violations(_product, lambda m, t: _is_sim(t))
    assert not bad, "shipped code imports the renderer or training code:\n" + "\n".join(bad)


def test_games_do_not_import_each_other_and_rules_stay_pure():
    bad = _violations(
        lambda m: _game_of(m) is not None,
        lambda m, t: _game_of(t) is not None and _game_of(t) != _game_of(m),
    )
    assert not bad, "\n".join(bad)
    allowed_top = {"datafile", "games"}
    bad = _violations(
        lambda m: _game_of(m) is not None and m.split(".")[2:3] == ["rules"],
        lambda m, t: t.split(".")[0] not in allowed_top
        or (t.split(".")[0] == "games" and t not in GAME_NEUTRAL and not t.startswith(".".join(m.split(".")[:3]))),
    )
    assert not bad, "a game's rules import more than datafile, games.api and themselves:\n" + "\n".join(bad)


@pytest.mark.parametrize("mod", ["games.tribes.rules", "games.api", "session.runtime", "datafile"])
def test_light_modules_pull_in_nothing_heavy(mod):
    import sys

    code = f"import sys, {mod}; print(sorted(m for m in ('cv2', 'numpy', 'flask') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def _installed() -> list[str]:
    """The package patterns ``pip install`` ships (pyproject's ``packages.find.include``)."""
    import tomllib

    conf = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [p.rstrip("*") for p in conf["tool"]["setuptools"]["packages"]["find"]["include"]]


def test_what_is_installed_imports_only_what_is_installed():
    """``table-companion`` runs from any folder: nothing shipped imports ``tools`` (training),
    ``benchmarks`` or ``tests``, which ``pip install`` leaves out."""
    shipped = _installed()
    assert "tools" not in shipped and "games" in shipped
    bad = _violations(
        lambda m: m.split(".")[0] in shipped,
        lambda m, t: t.split(".")[0] not in shipped,
    )
    assert not bad, "installed code imports what is not installed:\n" + "\n".join(bad)
