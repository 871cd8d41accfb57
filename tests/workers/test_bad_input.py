"""Whatever a chat sends, the command layer answers with a message and never raises.

Generated command lines (any unicode, empty, huge, slash-prefixed, unknown commands, garbage
options and game ids) and button presses (random tokens, stale tokens, garbage payloads) go to
``Commands.handle`` / ``Commands.press`` against the real server, with moves submitted
synchronously through the pipeline; a smaller set goes through ``Client.command`` and the real
Celery worker. Every reply has at least one part with text. For input without lone surrogates
(which no UTF-8 client can send) no reply may be the "something went wrong on our side" one.
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.workers.test_undo_resign import sync_commands
from tests.workers.util import A, B, make_game
from workers.commands import ALIASES, COMMANDS, Commands, Context
from workers.replies import Part
from workers.store import Store, k_callback

SETTINGS = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=False,
)

clean_text = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=120)
any_text = st.text(max_size=120)  # includes lone surrogates
WORDS = [*COMMANDS, *ALIASES, "MOVE", "Move@agora_bot", "new", "help", "?", "", "@", "m", "move@", "/", "//"]
word = st.sampled_from(WORDS) | st.text(alphabet=st.characters(exclude_categories=("Cs", "Zs")), max_size=12)
gid_like = st.sampled_from(["{gid}", "{lobby}", "g0", "g", "G1", "gzzzzzzzzzzzz", "g1 g2", "g-1"]) | st.from_regex(
    r"g[0-9a-z]{0,14}", fullmatch=True
)
value = (
    st.sampled_from(
        [
            "1",
            "-1",
            "0",
            "99999999999999999999",
            "nan",
            "inf",
            "1e309",
            "²",
            "٣",
            "yes",
            "",
            "=",
            "+2",
            "22-8",
            "25-99",
            "off",
            "bots-first",
            "x" * 300,
        ]
    )
    | clean_text
)
option = st.builds(
    lambda k, v: f"{k}={v}",
    st.sampled_from(["bots", "seed", "order", "hours", "tz", "quiet", "target", "map", "", "x"]) | clean_text,
    value,
)
commandish = st.builds(
    lambda slash, w, gid, opts, tail: ("/" if slash else "") + f"{w} {gid} {' '.join(opts)} {tail}",
    st.booleans(),
    word,
    gid_like | st.just(""),
    st.lists(option, max_size=4),
    clean_text,
)
moveish = st.builds(
    lambda w, t: f"{w} {t}",
    st.sampled_from(["move", "m", "play", "/move", "move {gid}"]),
    st.sampled_from(
        [
            "add 1",
            "add 2",
            "add 3",
            "roll",
            "add",
            "add 4",
            "ad 1",
            "ROLL",
            "add -1",
            "add 1 2",
            "pick 1",
            "add\x001",
            "a",
        ]
    )
    | clean_text,
)
huge = st.builds(
    lambda s, n, w: w + " " + s * n,
    st.text(min_size=1, max_size=4),
    st.integers(500, 5000),
    st.sampled_from(["move", "help", "new", "settings", "log", "x"]),
)
line = st.one_of(commandish, moveish, clean_text, any_text, huge, st.just(""), st.just("/"), st.just("   "))
PLATFORMS = ["console", "telegram", "discord"]


def _has_surrogate(*texts: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for t in texts for ch in t)


def check_reply(reply: Any, *, allow_internal: bool) -> None:
    assert isinstance(reply, list) and reply, reply
    assert all(isinstance(p, Part) for p in reply)
    assert any(isinstance(p.text, str) and p.text.strip() for p in reply), reply
    if not allow_internal:
        assert all(p.code != "internal" for p in reply), [(p.code, p.text) for p in reply]


@pytest.fixture
def world(store: Store) -> dict[str, Any]:
    """A running toy game in chat ``table`` (alice, bob) and a lobby in chat ``lobby``."""
    gid = make_game(store)
    from workers import lobby as lobby_mod

    lob = lobby_mod.create(store, "toy", platform="console", chat="lobby", user="console:carol", name="carol")
    return {"gid": gid, "lobby": lob, "cmds": sync_commands(store)}


contexts = st.one_of(
    st.sampled_from(
        [
            Context("console", "table", "alice", "alice"),
            Context("console", "table", "bob", "bob"),
            Context("console", "table", "eve", "eve"),
            Context("console", "dm-alice", "alice", "alice", private=True),
            Context("console", "lobby", "carol", "carol"),
            Context("telegram", "-100", "42", "Tg user"),
        ]
    ),
    st.builds(Context, st.sampled_from(PLATFORMS), clean_text, clean_text, clean_text, st.booleans(), clean_text),
)


ALICE = Context("console", "table", "alice", "alice")
CAROL = Context("console", "lobby", "carol", "carol")


@SETTINGS
@given(c=contexts, text=line)
@example(c=ALICE, text="log ²")  # "²".isdigit() is True, int("²") raises
@example(c=CAROL, text="begin bots=²")
@example(c=CAROL, text="start seed=¹²")
@example(c=ALICE, text="log ٣")  # Arabic-Indic 3: a decimal digit, int() accepts it
@example(c=ALICE, text="move add 1" + " " * 100_000)
@example(c=ALICE, text="/move@agora_bot add 1")
def test_any_command_line_gets_an_answer(world: dict[str, Any], c: Context, text: str) -> None:
    text = text.replace("{gid}", world["gid"]).replace("{lobby}", world["lobby"])
    logging.disable(logging.CRITICAL)  # "internal" paths log a traceback; keep the output readable
    try:
        reply = world["cmds"].handle(c, text)
    finally:
        logging.disable(logging.NOTSET)
    check_reply(reply, allow_internal=_has_surrogate(text, c.chat, c.user, c.name, c.idem, c.platform))


payload = st.fixed_dictionaries(
    {},
    optional={
        "g": st.sampled_from(["{gid}", "g0", "nope"]) | st.integers() | st.none(),
        "v": st.integers(-2, 5) | st.text(max_size=3) | st.none(),
        "s": st.integers(-1, 3) | st.text(max_size=3) | st.lists(st.integers(), max_size=2),
        "k": st.sampled_from(["move", "group", "other"]) | st.integers(),
        "t": st.sampled_from(["add 1", "roll", "add 9"]) | clean_text | st.integers(),
        "grp": clean_text | st.integers(),
        "p": st.integers(-3, 3) | st.text(max_size=3),
    },
)


@SETTINGS
@given(c=contexts, token=st.text(max_size=80), stored=st.none() | payload | st.binary(max_size=40))
def test_any_button_press_gets_an_answer(world: dict[str, Any], c: Context, token: str, stored: Any) -> None:
    cmds: Commands = world["cmds"]
    allow_internal = _has_surrogate(token, c.chat, c.user, c.name, c.idem)
    if not _has_surrogate(token):
        if stored is None:
            cmds.store.r.delete(k_callback(token))  # an unknown token (not one an earlier example stored)
        else:
            raw = stored if isinstance(stored, bytes) else json.dumps(stored).replace("{gid}", world["gid"])
            cmds.store.r.set(k_callback(token), raw, ex=60)
            allow_internal = True  # a corrupted payload may only get the generic apology
    logging.disable(logging.CRITICAL)
    try:
        reply = cmds.press(c, token)
    finally:
        logging.disable(logging.NOTSET)
    check_reply(reply, allow_internal=allow_internal)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(moves=st.lists(st.tuples(st.sampled_from([A, B, "console:eve"]), st.booleans()), min_size=1, max_size=6))
def test_real_buttons_pressed_late_or_by_others(world: dict[str, Any], moves: list[tuple[str, bool]]) -> None:
    """Buttons from ``moves`` pressed by anyone, possibly after the game moved on."""
    cmds: Commands = world["cmds"]
    tokens: list[str] = []
    for user, refresh in moves:
        c = Context("console", "table", user.split(":")[1], user.split(":")[1])
        if refresh or not tokens:
            parts = cmds.handle(c, "moves")
            check_reply(parts, allow_internal=False)
            tokens += [b.token for p in parts for row in p.buttons for b in row]
        if tokens:
            check_reply(cmds.press(c, tokens.pop(0)), allow_internal=False)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(c=contexts, text=st.one_of(moveish, commandish, clean_text))
def test_through_the_real_client_and_worker(client: Any, store: Store, c: Context, text: str) -> None:
    if not store.chat_game("console", "table"):
        make_game(store)
    gid = store.chat_game("console", "table") or ""
    text = text.replace("{gid}", gid).replace("{lobby}", "g0")
    logging.disable(logging.CRITICAL)
    try:
        reply = client.command(c, text)
    finally:
        logging.disable(logging.NOTSET)
    check_reply(reply, allow_internal=False)
    assert all(p.code != "pipeline/queued" for p in reply)  # the worker answered every move
