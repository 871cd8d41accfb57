"""Fuzzed commands and button presses at a table of each of the five games: every one is
answered with a friendly message (some text, no crash, no traceback, no internal names).

The input is built from each table's legal moves at the moment (see ``tests/faults/fuzzing.py``)
and runs against the real server with moves applied by the pipeline. CI runs 4,000
examples; ``bench/bench_fuzz.py`` runs 100,000 through this same test
(``AGORA_FUZZ_EXAMPLES`` sets the number of examples of each of the two tests).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import random
import traceback
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.faults.fuzzing import (
    COMMAND_WORDS,
    GAMES,
    JUNK,
    World,
    check_reply,
    legal_texts,
    mutate,
    vocabulary,
)
from workers.commands import Context
from workers.store import Store

EXAMPLES = int(os.environ.get("AGORA_FUZZ_EXAMPLES", "2000"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,  # the world is stateful: a stored example would not replay the same
    suppress_health_check=list(HealthCheck),
)
COUNTS: dict[str, int] = {}
pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def world(redis_url: str) -> Iterator[World]:
    """One table of each game for the whole module (the tables advance as legal moves land)."""
    st_ = Store.from_url(redis_url)
    st_.r.flushdb()
    w = World(st_, seed=int(os.environ.get("AGORA_FUZZ_SEED", "1")))
    yield w
    print(f"\nfuzz: {COUNTS} tables made: {w.made}")
    st_.r.close()


def _seat(data: Any, movers: list[int], players: int) -> int:
    """Mostly a seat that may move now, sometimes any seat (drawn without reading the state,
    so that hypothesis sees the same draws whatever the table's state)."""
    pick = data.draw(st.integers(0, 99), label="seat")
    return movers[pick % len(movers)] if pick < 80 else pick % players


def _context(data: Any, users: list[str], chat: str) -> Context:
    pick = data.draw(st.integers(0, 99), label="user")
    user = users[pick % len(users)] if pick < 95 else "console:stranger"
    uid = user.split(":", 1)[1]
    private = data.draw(st.booleans(), label="private")
    idem = data.draw(st.sampled_from(["", "dup-1"]) | st.text(max_size=8), label="idem")
    return Context("console", f"dm-{uid}" if private else chat, uid, uid.title(), private=private, idem=idem)


class _Crashes(logging.Handler):
    """Keeps the traceback a crash logs, for the failure message (nothing is printed)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info:
            self.last = "".join(traceback.format_exception(*record.exc_info))


def _quiet(fn: Any, *args: Any) -> Any:
    """Run a command with the log's output held back; a crash's traceback joins the reply's
    check message (as the reply's ``meta``-less text would not say where it broke)."""
    root = logging.getLogger()
    handler, saved = _Crashes(), root.handlers[:]
    root.handlers = [handler]
    try:
        reply = fn(*args)
    finally:
        root.handlers = saved
    if handler.last and isinstance(reply, list):
        reply = [
            dataclasses.replace(p, text=p.text + "\n" + handler.last) if p.code == "internal" else p for p in reply
        ]
    return reply


@FUZZ
@given(data=st.data())
def test_fuzzed_commands_get_a_friendly_answer(world: World, data: Any) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    table, loaded = world.table(game)
    movers = sorted(loaded.game.to_move(loaded.state))
    seat = _seat(data, movers, len(table.users))
    ctx = _context(data, [table.users[seat]] * 4 + table.users, table.chat)
    texts = legal_texts(loaded, seat)
    vocab = vocabulary(loaded, texts)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="rnd"))
    kind = data.draw(st.sampled_from(["legal", "mutated", "mutated", "mutated", "salad", "command", "text"]))
    text = data.draw(st.text(max_size=60), label="text")
    base = rnd.choice(texts) if texts else rnd.choice(vocab)
    if kind == "legal":
        line = base
    elif kind == "mutated":
        line = mutate(base, vocab, rnd)
    elif kind == "salad":
        line = " ".join(rnd.choice(vocab + JUNK) for _ in range(rnd.randint(0, 8)))
    elif kind == "command":
        line = rnd.choice(COMMAND_WORDS) + " " + (rnd.choice([table.gid, "", mutate(base, vocab, rnd)]))
    else:
        line = text
    prefix = data.draw(st.sampled_from(["move ", "/move ", "m ", "play ", "", f"move {table.gid} "]), label="prefix")
    line = prefix + line if kind != "command" else line
    COUNTS[kind] = COUNTS.get(kind, 0) + 1
    check_reply(_quiet(world.cmds.handle, ctx, line), f"{game} {table.gid} {ctx.user}: {line!r}", typed=line)


@FUZZ
@given(data=st.data())
def test_fuzzed_button_presses_get_a_friendly_answer(world: World, data: Any) -> None:
    game = data.draw(st.sampled_from(GAMES), label="game")
    table, loaded = world.table(game)
    movers = sorted(loaded.game.to_move(loaded.state))
    seat = _seat(data, movers, len(table.users))
    ctx = _context(data, [table.users[seat]] * 4 + table.users, table.chat)
    rnd = random.Random(data.draw(st.integers(0, 2**32), label="rnd"))
    if not table.tokens or rnd.random() < 0.3:
        owner = Context(
            "console",
            f"dm-{table.users[seat].split(':')[1]}",
            table.users[seat].split(":")[1],
            "Owner",
            private=rnd.random() < 0.5,
        )
        listed = _quiet(world.cmds.handle, owner, rnd.choice(["moves", "moves all"]))
        check_reply(listed, f"{game} moves")
        fresh = [b.token for p in listed for row in p.buttons for b in row]
        table.tokens = (fresh + table.tokens)[:200]
    kind = data.draw(st.sampled_from(["fresh", "stale", "mutated", "other-table", "random"]), label="kind")
    text = data.draw(st.text(max_size=40), label="token")
    if kind in ("fresh", "stale") and table.tokens:
        token = table.tokens[0] if kind == "fresh" else rnd.choice(table.tokens)
    elif kind == "mutated" and table.tokens:
        t = rnd.choice(table.tokens)
        cut = rnd.randrange(len(t) + 1)
        token = t[:cut] + rnd.choice(["", "x", "0", "🏛", ":", t[cut:]]) + t[cut + 1 :]
    elif kind == "other-table":
        others = [t for g, tb in world.tables.items() if g != game for t in tb.tokens]
        token = rnd.choice(others) if others else "nope"
    else:
        token = text
    COUNTS["press-" + kind] = COUNTS.get("press-" + kind, 0) + 1
    check_reply(_quiet(world.cmds.press, ctx, token), f"{game} {table.gid} {ctx.user}: press {token!r} ({kind})")
