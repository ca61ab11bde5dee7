"""Every clause of docs/stoneage-rules.md is named by a test (in its name or docstring), and every
clause the engine raises is documented."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "stoneage-rules.md"


def documented() -> list[str]:
    return sorted(set(re.findall(r"\*\*(S-[A-Z]+-\d+)\*\*", DOC.read_text(encoding="utf-8"))))


def named_by_tests() -> set[str]:
    names: set[str] = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                text = node.name.replace("_", "-") + " " + (ast.get_docstring(node) or "")
                names.update(re.findall(r"S-[A-Z]+-\d+", text))
    return names


def test_every_clause_is_named_by_a_test():
    named = named_by_tests()  # once: it parses every test file
    missing = [c for c in documented() if c not in named]
    assert not missing, f"clauses no test names: {missing}"
    assert len(documented()) >= 50


def test_every_clause_the_engine_raises_is_documented():
    code = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "games" / "stoneage").rglob("*.py"))
    raised = set(re.findall(r'"(S-[A-Z]+-\d+)"', code))
    assert raised and raised <= set(documented()), sorted(raised - set(documented()))
