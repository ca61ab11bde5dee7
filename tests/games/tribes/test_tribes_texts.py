"""Every sentence the Tribes rules say has a translation: each reason and note of the engine carries
a template key with its arguments, the page's catalogue (``tribes-i18n.js``: ``REASONS``) has the
template in English and German, and the English template filled in gives the engine's sentence back
exactly — checked statically (every key the engine can use is in the catalogue) and on the reasons of
whole simulated games and of illegal moves tried at each step."""

from __future__ import annotations

import ast
import functools
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from games.tribes.rules.checks import Reason
from games.tribes.rules.engine import apply
from games.tribes.rules.errors import IllegalMoveError
from games.tribes.rules.game import simulate
from games.tribes.rules.legal import describe
from games.tribes.rules.moves import parse_move
from games.tribes.rules.pending import PendingKind
from games.tribes.rules.state import State

ROOT = Path(__file__).resolve().parents[3]
I18N = (ROOT / "games" / "tribes" / "page" / "static" / "tribes-i18n.js").read_text(encoding="utf-8")
RULES = ROOT / "games" / "tribes" / "rules"
ENTRY = re.compile(r'^\s*(\w+): \["((?:[^"\\]|\\.)*)", "((?:[^"\\]|\\.)*)"\],?$', re.M)
PLACE = re.compile(r"\{(\w+)(?:\|([^|}]*)\|([^}]*))?\}")


def reasons() -> dict[str, tuple[str, str]]:
    body = I18N.split("export const REASONS = {")[1].split("\n};")[0]
    return {k: (en, de) for k, en, de in ENTRY.findall(body)}


@functools.cache
def strings(lang: str) -> dict[str, str]:
    body = I18N.split("export const STRINGS = {")[1].split("\n};")[0]
    en, de = body.split("\n  de: {")
    pairs = re.findall(r'(?:^\s*|[{,]\s*)(\w+): "((?:[^"\\]|\\.)*)"', en if lang == "en" else de, re.M)
    return dict(pairs)


KINDS = dict(
    re.findall(r"(\w+): \"(achievement|tile|resource|action)\"", I18N.split("REASON_ARGS = {")[1].split("}")[0])
)


def fill(template: str, args: dict[str, Any], say: Callable[[str, Any], str]) -> str:
    """The page's fillReason (tribes-i18n.js), in Python."""

    def rep(m: re.Match[str]) -> str:
        name, one, many = m.group(1), m.group(2), m.group(3)
        v = args[name]
        if one is not None:
            return one if v == 1 else many
        kind = KINDS.get(name)

        def word(x: Any) -> str:
            return say(kind, x) if kind else str(x)

        return " ".join(word(x) for x in v) if isinstance(v, list) else word(v)

    return PLACE.sub(rep, template)


def english(state: State) -> Callable[[str, Any], str]:
    prof = state.profile
    en = strings("en")

    def say(kind: str, value: Any) -> str:
        if kind == "achievement":
            return prof.achievement(value).name["en"]
        if kind == "tile":
            return prof.action_tile(value).name["en"]
        return en[value]

    return say


# --- statically: every key the engine can give ----------------------------------------------------
def _keys_in_source() -> tuple[set[str], list[str]]:
    """Literal keys of every why(…) and _note(…) call in the rules, and the calls whose key is built."""
    literal: set[str] = set()
    built: list[str] = []
    for path in sorted(RULES.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            name = node.func.id
            if name in ("why", "bad") and len(node.args) >= 2:
                key = node.args[1]
            elif name == "_note" and node.args:
                key = node.args[0]
            elif name == "Reason":
                assert len(node.args) >= 3 or path.name == "checks.py", (
                    f"{path.name}:{node.lineno}: a Reason without a key"
                )
                continue
            else:
                continue
            words = [n.value for n in ast.walk(key) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            if isinstance(key, ast.Constant | ast.IfExp) and words:
                literal.update(words)
            else:
                built.append(f"{path.name}:{node.lineno}")
    return literal, built


BUILT = (
    {"no_real_2", "no_real_3", "order", "order_unknown", "order_no_arrow", "order_no_arrow_unknown"}
    | {f"waits_{k}" for k in PendingKind if k not in (PendingKind.EVENT, PendingKind.NONE)}
    | {f"waits_event_{k}" for k in ("choose", "lose", "gain", "exhaust", "restore", "answer")}
)


def test_every_key_the_engine_can_give_is_in_the_catalogue_in_both_languages():
    literal, built = _keys_in_source()
    cat = reasons()
    assert len(literal) > 60 and len(built) == 5, built  # keys built (see BUILT) or passed on (check, bad)
    assert (literal | BUILT) - set(cat) == set()
    assert set(cat) - literal - BUILT == set()  # nothing left over
    for key, (en, de) in cat.items():
        assert en and de and en != de, key
        names = lambda t: sorted({m.group(1) for m in PLACE.finditer(t)})  # noqa: E731
        assert names(en) == names(de), key  # the same arguments in both


# --- on real reasons: whole games and illegal moves tried at every step -----------------------------
def _probes(state: State) -> Iterator[str]:
    """Moves to try at ``state`` (mostly illegal ones)."""
    kind = state.pending.kind
    prof = state.profile
    if kind == PendingKind.CHOOSE:
        for slot in range(1, len(state.row) + 2):
            yield from (
                f"{slot}:off",
                f"{slot}:mov",
                f"{slot}:exp",
                f"{slot}:evt",
                f"{slot}:off 0,0 9,9",
                f"{slot}:mov 0,0>9,9",
            )
            yield f"{slot}:off 0,0>1,0"
            for a in prof.achievements:
                yield f"{slot}:ach {a.id}"
                yield f"{slot}:ach {a.id} joker=0,0 joker=0,0"
                yield f"{slot}:ach {a.id} arrow=kochen"
    yield from ("draw goat", "draw goat goat goat", "draw lead", "place goat@0,0", "place goat@5,5", "restore 0,0 0,0")
    yield from ("start 9,9", "reveal nothing", "reveal kaese", "event nothing", "event wolves", "pick 99", "lose 0,0")
    yield from ("setup row=a era1=b lands=c", "exhaust 0,0", "gain 0,0")


def _collect(states: list[State]) -> Iterator[tuple[State, Reason]]:
    for st in states:
        info = describe(st)
        for tile in info.get("tiles", []):
            for o in [tile, *tile["options"]]:
                if o.get("reason"):
                    r = o["reason"]
                    yield st, Reason(r["clause"], r["text"], r["key"], tuple(r["args"].items()))
                if o.get("note_key"):
                    yield st, Reason("", o["note"], o["note_key"], tuple(o["note_args"].items()))
        for text in _probes(st):
            try:
                move = parse_move(text)
                apply(st, move)
            except IllegalMoveError as exc:
                yield st, Reason(exc.clause, exc.reason, exc.reason_key, tuple(exc.reason_args.items()))
            except ValueError:
                continue


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_english_template_gives_the_engines_sentence_back(seed):
    game = simulate(["Ann", "Bob", "Cid", "Dee"][: 2 + seed % 3], seed=seed, policies="random")
    rng = random.Random(seed)
    states = rng.sample(game.states, 40)
    cat = reasons()
    seen: set[str] = set()
    for st, r in _collect(states):
        assert r.key in cat, (r.key, r.text)
        args = {k: list(v) if isinstance(v, tuple) else v for k, v in r.args}
        assert fill(cat[r.key][0], args, english(st)) == r.text, r.key
        fill(cat[r.key][1], args, lambda kind, v: str(v))  # the German one has every argument it names
        seen.add(r.key)
    assert len(seen) > 25, sorted(seen)
