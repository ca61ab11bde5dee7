"""The clause list (docs/origo-rules.md) and the code agree: every clause is named by a test, every
clause the engine raises is in the document, and each clause quotes the fragment or says why not."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = ROOT / "docs" / "origo-rules.md"
TESTS = Path(__file__).resolve().parent
CODE = ROOT / "games" / "origo"


def clauses() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    parts = re.split(r"\*\*(O-[A-Z]+-\d+)\*\*", text)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_the_document_lists_36_distinct_clauses():
    text = DOC.read_text(encoding="utf-8")
    ids = re.findall(r"\*\*(O-[A-Z]+-\d+)\*\*", text)
    assert len(ids) == len(set(ids)) == 36


def test_every_clause_is_named_by_a_test():
    sources = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.glob("test_*.py") if p.name != Path(__file__).name)
    missing = []
    for cid in clauses():
        under = cid.replace("-", "_")
        if not re.search(rf"{re.escape(under)}(?!\d)", sources) and not re.search(rf"{re.escape(cid)}(?!\d)", sources):
            missing.append(cid)
    assert not missing, f"clauses no test names: {missing}"


def test_every_clause_the_code_raises_is_in_the_document():
    code = "\n".join(p.read_text(encoding="utf-8") for p in CODE.rglob("*.py"))
    raised = set(re.findall(r'"(O-[A-Z]+-\d+)"', code))
    assert raised and raised <= set(clauses()), raised - set(clauses())


def test_each_clause_quotes_the_fragment_or_says_where_it_comes_from():
    for cid, body in clauses().items():
        assert "„" in body or "published rules" in body or "companion's choice" in body, cid
