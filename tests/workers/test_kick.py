"""State changes made outside the move task (``begin``, ``resign``, ``undo``) wake automatic
players at once; the 15 s safety deadline is only the fallback."""

from __future__ import annotations

from typing import Any

from tests.workers.util import assert_replays, record, wait_for
from workers.commands import Context
from workers.store import Store


def test_begin_with_the_bot_first_wakes_it_without_waiting_for_the_safety_deadline(client: Any, store: Store) -> None:
    alice = Context("console", "kick-table", "alice", "alice")
    assert client.command(alice, "new toy")[0].ok
    reply = client.command(alice, "begin bots=1 order=bots-first")
    assert reply[0].ok, reply
    gid = store.chat_game("console", "kick-table") or ""
    wait_for(lambda: record(store, gid)[0] >= 2, timeout=8)  # well before the 15 s safety deadline
    version, log = assert_replays(store, gid)
    assert version == 2 and [(e["s"], e["src"]) for e in log] == [(0, "auto")]
