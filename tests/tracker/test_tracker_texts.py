"""Everything the camera tracker says has a translation: every message of tracker/tracker.py MESSAGES is
in the page shell's catalogue (webui/static/i18n.js, ``tr_<key>``) in English — the same sentence — and
German with the same placeholders; a status, prompt and desync carry their key and arguments."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tracker.tracker import MESSAGES, Option, Status, StatusKind, Words, args_json, say

ROOT = Path(__file__).resolve().parents[2]
I18N = (ROOT / "webui" / "static" / "i18n.js").read_text(encoding="utf-8")
PAIR = re.compile(r'(?:^\s*|[{,]\s*)(\w+): "((?:[^"\\]|\\.)*)"', re.M)


def shell_strings(lang: str) -> dict[str, str]:
    body = I18N.split("export const STRINGS = {")[1]
    en, de = body.split("\n  de: {")
    return dict(PAIR.findall(en if lang == "en" else de))


def names(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def test_every_tracker_message_is_in_the_shells_catalogue_in_both_languages():
    en, de = shell_strings("en"), shell_strings("de")
    assert len(MESSAGES) > 25
    for key, text in MESSAGES.items():
        assert en.get(f"tr_{key}") == text, key  # the page's English is the tracker's own sentence
        assert de.get(f"tr_{key}") and de[f"tr_{key}"] != text, key
        assert names(de[f"tr_{key}"]) == names(text), key


def test_the_shells_strings_are_the_same_keys_in_both_languages():
    en, de = shell_strings("en"), shell_strings("de")
    assert len(en) > 150 and set(en) == set(de), sorted(set(en) ^ set(de))


def test_every_message_the_tracker_gives_has_a_key_in_the_catalogue():
    """Statically: every _status(…), say(…) and Status(…) in the tracker names a key of MESSAGES."""
    keys: list[str] = []
    for path in (ROOT / "tracker").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if fn == "say" and node.args and isinstance(node.args[0], ast.Constant):
                keys.append(node.args[0].value)
            elif fn == "_status" and len(node.args) >= 2:
                arg = node.args[1]
                assert isinstance(arg, ast.Constant | ast.IfExp | ast.Name | ast.Call), f"{path.name}:{node.lineno}"
                keys += [n.value for n in ast.walk(arg) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            elif fn == "Status":
                kw = {k.arg: k.value for k in node.keywords}
                assert "key" in kw or len(node.args) >= 8, (
                    f"{path.name}:{node.lineno}: a Status without its message key"
                )
    assert len(keys) > 25 and set(keys) <= set(MESSAGES), sorted(set(keys) - set(MESSAGES))


def test_a_status_says_its_key_and_arguments_as_json():
    text, key, args = say("waiting_view_of", regions=Words("Ada's land", {"regions": ["land:0"]}), option=Option(()))
    assert text == "waiting for a view of Ada's land: nothing happened?"
    st = Status(StatusKind.WAITING, text, 1.0, key=key, args=args).to_dict({0: "Ada"})
    assert st["key"] == "waiting_view_of" and st["names"] == {"0": "Ada"}
    assert st["args"] == {
        "regions": {"text": "Ada's land", "regions": ["land:0"]},
        "option": {"option": Option(()).to_dict()},
    }
    assert args_json((("n", 3),)) == {"n": 3}
