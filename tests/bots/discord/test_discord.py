"""The Discord adapter end to end with the toy game: every subcommand, components, private
information, bad input, the 3-second rule, restarts, 429s and exactly-once delivery.

Everything runs through discord.py's real gateway and HTTP clients against the fake Discord
on 127.0.0.1, with real Redis and a real Celery worker.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from tests.bots.discord.conftest import ALICE, BOB, CAROL, PLUGINS, Table
from tests.bots.discord.fake_discord import CHANNEL, OTHER_CHANNEL, FakeDiscord, Msg
from tests.conftest import Worker
from workers.store import k_outbox

SECRET = "plover"  # the toy's hidden word of seat 2 (Bob)
BUTTON = re.compile(r"^ag:b:(g[0-9a-z]+):(\d+):(\d+):[A-Za-z0-9_-]+$")


def public_text(fake: FakeDiscord) -> str:
    """Everything anyone can read in any channel: texts and component labels."""
    return "\n".join(m.content + " " + " ".join(m.labels()) for m in fake.messages
                     if not m.ephemeral and m.channel not in fake.dm_users)


def button(msg: Msg, label: str) -> str:
    for b in msg.buttons():
        if b.get("label") == label:
            return str(b["custom_id"])
    raise AssertionError(f"no button {label!r} on {msg.content!r}: {msg.labels()}")


async def start_toy(table: Table) -> tuple[str, Msg]:
    """Alice opens a toy table, Bob joins, Alice begins; returns (gid, first board)."""
    await table.cmd(ALICE, "new", game="toy")
    await table.cmd(BOB, "join")
    await table.cmd(ALICE, "begin")
    boards = await table.fake.wait(lambda: table.fake.boards(), 30, "the first board")
    return table.gid(), boards[0]


async def test_every_subcommand_answers_with_the_right_visibility(table: Table) -> None:
    fake = table.fake
    games = await table.cmd(ALICE, "games")
    assert "toy" in games.text().lower() and games.original.ephemeral
    helped = await table.cmd(ALICE, "help")
    assert "/agora" in helped.text() and helped.original.ephemeral
    none = await table.cmd(ALICE, "status")
    assert "There is no game in this channel" in none.text() or "no game" in none.text().lower()
    assert all(m.ephemeral for m in none.replies()), "a refusal is ephemeral"
    new = await table.cmd(ALICE, "new", game="toy", options="hours=24")
    assert "New Toy race table" in new.text() and not new.replies()[0].ephemeral
    await table.cmd(BOB, "join")
    await table.cmd(ALICE, "begin")
    await fake.wait(lambda: fake.boards(), 30, "the first board")
    board = await table.cmd(BOB, "board")
    assert board.replies()[0].files and not board.replies()[0].ephemeral
    status = await table.cmd(BOB, "status")
    assert "Player 1" in status.text() and not status.replies()[0].ephemeral
    log = await table.cmd(BOB, "log", n=5)
    assert "The game begins" in log.text()
    hand = await table.cmd(BOB, "hand")
    assert SECRET in hand.text() and all(m.ephemeral and m.viewer == BOB.id for m in hand.replies())
    mine = await table.cmd(ALICE, "mygames")
    assert table.gid() in mine.text() and mine.original.ephemeral
    settings = await table.cmd(ALICE, "settings", values="tz=+2")
    assert settings.original.ephemeral and settings.text()
    moves = await table.cmd(ALICE, "moves", all=True)
    assert "add 1" in moves.text() and moves.original.ephemeral
    turns = await table.cmd(ALICE, "myturns")
    assert table.gid() in turns.text() and turns.original.ephemeral
    timer = await table.cmd(BOB, "timer", values="fast")
    assert "Only the player who opened this table (or a chat admin) can change the timer" in timer.text()
    timer = await table.cmd(ALICE, "timer", values="fast")
    assert not timer.replies()[0].ephemeral and "Only the player" not in timer.text()
    fake.admins.add(BOB.id)  # someone who may manage the server administers its tables too
    timer = await table.cmd(BOB, "timer", values="relaxed")
    assert "Only the player" not in timer.text() and table.client.store.meta(table.gid()).get("timer") == "relaxed"
    assert SECRET not in public_text(fake)
    assert fake.unanswered() == []


async def test_command_sync_registers_the_group_and_reports_changes(fake: FakeDiscord) -> None:
    from bots.discord.app import sync_commands
    from tests.bots.discord.fake_discord import GUILD, TOKEN

    first = await sync_commands(TOKEN)
    assert "added    /agora move" in first and first[-1].startswith("25 subcommands of /agora registered globally")
    (group,) = fake.commands["global"]
    subs = {o["name"]: o for o in group["options"]}
    from workers.client import COMMANDS

    assert set(subs) == set(COMMANDS)  # every command of the shared layer, and Discord's limit of 25
    for sub in subs.values():
        assert sub["description"]
        for opt in sub.get("options", []):
            assert opt["description"], (sub["name"], opt["name"])
    assert subs["move"]["options"][0]["autocomplete"] is True
    assert any(c["value"] == "duellum" for c in subs["new"]["options"][0]["choices"])
    again = await sync_commands(TOKEN)
    assert all(x.startswith("same") for x in again[:-1]) and again[-1].endswith("0 changed.")
    guild = await sync_commands(TOKEN, guild=int(GUILD))
    assert "registered guild" in guild[-1] and fake.commands[GUILD]


async def test_buttons_autocomplete_turn_posts_and_private_information(table: Table) -> None:
    fake = table.fake
    gid, first = await start_toy(table)
    assert f"<@{ALICE.id}>" in first.content and "your turn" in first.content
    assert first.labels() == ["add 1", "add 2", "add 3", "roll"]
    ids = first.custom_ids()
    assert all(BUTTON.match(c) and len(c) <= 100 for c in ids), ids
    assert BUTTON.match(ids[0]).group(1) == gid  # type: ignore[union-attr]
    v0 = table.version(gid)

    # autocomplete offers my legal moves, best matches first; nothing to someone not awaited
    assert [c["value"] for c in await fake.autocomplete(ALICE, "move", "text", text="ro")] == ["roll"]
    assert [c["value"] for c in await fake.autocomplete(ALICE, "move", "text", text="")][:4] == [
        "add 1", "add 2", "add 3", "roll"]
    assert [c["value"] for c in await fake.autocomplete(ALICE, "move", "text", text="3")] == ["add 3"]
    bob_sees = await fake.autocomplete(BOB, "move", "text", text="a")
    assert len(bob_sees) == 1 and "not your turn" in bob_sees[0]["name"]

    # an ephemeral /moves with buttons, kept for later
    moves = await table.cmd(ALICE, "moves")
    old_moves = moves.replies()[-1]
    assert old_moves.ephemeral and old_moves.labels() == ["add 1", "add 2", "add 3", "roll"]

    # someone else's button: an ephemeral notice naming whose it is; nothing changes
    foreign = await table.press(BOB, first, button(first, "add 2"))
    assert "This is Player 1 (Alice)'s button" in foreign.text()
    assert all(m.ephemeral for m in foreign.followups) and table.version(gid) == v0
    assert first.custom_ids(), "someone else's press leaves the buttons"

    # the right player presses: the move is made, the pressed buttons go away
    mine = await table.press(ALICE, first, button(first, "add 2"))
    assert mine.followups[0].ephemeral and mine.followups[0].content.startswith("✓")
    assert first.custom_ids() == []
    second = await fake.wait(lambda: fake.boards()[1:], 30, "the second board")
    assert "Player 1 adds 2. Total 2." in second[0].content and f"<@{BOB.id}>" in second[0].content
    # Bob's turn prompt with his secret arrives as a DM, never in the channel
    dm = await fake.wait(lambda: [m for m in fake.dms(BOB) if "Your turn" in m.content], 30, "Bob's prompt")
    assert SECRET in dm[0].content and dm[0].labels()
    # Bob moves from his DM with a button
    await table.press(BOB, dm[0], button(dm[0], "add 1"))
    await fake.wait(lambda: fake.boards()[2:], 30, "the third board")
    assert table.version(gid) == v0 + 2

    # Alice's old ephemeral buttons are stale now: a notice, and the buttons are removed
    stale = await table.press(ALICE, old_moves, button(old_moves, "add 3"))
    assert "The game has moved on" in stale.text() and old_moves.custom_ids() == []
    assert table.version(gid) == v0 + 2
    assert SECRET not in public_text(fake)
    assert fake.unanswered() == []


async def test_bad_input_gets_a_friendly_ephemeral_reply_and_changes_nothing(table: Table) -> None:
    fake = table.fake
    nothing = await table.cmd(ALICE, "move", channel=OTHER_CHANNEL, text="add 1")
    assert "There is no game" in nothing.text() and nothing.original.ephemeral
    unknown = await table.cmd(ALICE, "new", game="chess")
    assert "chess" in unknown.text().lower() and all(m.ephemeral for m in unknown.replies())
    assert table.client.chat_game("discord", CHANNEL) is None
    code = await table.cmd(CAROL, "join", channel=OTHER_CHANNEL, code="gzzzz")
    assert all(m.ephemeral for m in code.replies()) and code.text()
    gid, first = await start_toy(table)
    v = table.version(gid)

    def unchanged(inter: Any) -> None:
        shown = inter.followups if inter.kind == 3 else inter.replies()
        assert shown and all(m.ephemeral for m in shown), inter.text()
        assert "went wrong" not in inter.text() and "Traceback" not in inter.text()
        assert table.version(gid) == v

    malformed = await table.cmd(ALICE, "move", text="fly to the moon")
    unchanged(malformed)
    out_of_turn = await table.cmd(BOB, "move", text="add 1")
    unchanged(out_of_turn)
    twice = await table.cmd(ALICE, "begin")
    unchanged(twice)
    assert "already" in twice.text()
    outsider = await table.press(CAROL, first, button(first, "add 1"))
    unchanged(outsider)
    # the game ends (resign); an autocomplete then says so, and choosing it changes nothing
    await table.cmd(BOB, "resign")
    await fake.wait(lambda: "Game over" in fake.boards()[-1].content, 30, "the final board")
    v = table.version(gid)
    over = await fake.autocomplete(ALICE, "move", "text", text="a")
    assert len(over) == 1 and "over" in over[0]["name"]
    late = await table.cmd(ALICE, "move", text=over[0]["value"])
    unchanged(late)
    stale = await table.press(ALICE, first, button(first, "add 1")) if first.custom_ids() else None
    if stale is not None:
        unchanged(stale)
    assert fake.unanswered() == []


@pytest.fixture
async def slow_table(fake: FakeDiscord, redis_url: str, store: Any) -> AsyncIterator[Table]:
    """A table whose only worker takes 5 s per move before committing it."""
    w = Worker(redis_url, name="slow", env={"AGORA_PLUGINS": PLUGINS, "AGORA_FAULT": "before_commit:5"})
    w.start()
    t = Table(fake, redis_url)
    await t.start()
    try:
        yield t
    finally:
        await t.stop()
        t.close()
        w.stop()


@pytest.mark.slow
async def test_slow_worker_every_interaction_acknowledged_within_3_seconds(slow_table: Table) -> None:
    table, fake = slow_table, slow_table.fake
    gid, first = await start_toy(table)
    typed = await fake.slash(ALICE, "move", text="add 1")
    await fake.wait(lambda: typed.acked is not None, 3.0, "the typed move acknowledged")
    # a second player's commands meanwhile are acknowledged too (no head-of-line blocking)
    status = await fake.slash(BOB, "status")
    pressed = await fake.press(BOB, first, button(first, "add 3"))
    await fake.done(status, 3.0)
    await fake.done(typed, 30)
    assert "Player 1 adds 1. Total 1." in typed.text()
    await fake.done(pressed, 30)
    assert max(i.ack_seconds or 99 for i in (typed, status, pressed)) < 3.0
    assert fake.unanswered() == []
    assert table.version(gid) == 2


async def test_restart_mid_game_old_buttons_still_work(fake: FakeDiscord, redis_url: str, store: Any,
                                                       dc_worker: Worker) -> None:
    t = Table(fake, redis_url)
    await t.start()
    try:
        gid, first = await start_toy(t)
        await t.stop()
        await t.start()  # a new process's worth of state: new client, new bot, same Redis
        v = t.version(gid)
        inter = await t.press(ALICE, first, button(first, "add 3"))
        assert inter.followups[0].content.startswith("✓"), inter.text()
        assert t.version(gid) == v + 1
        await fake.wait(lambda: fake.boards()[1:], 30, "the board after the restart")
        assert "Player 1 adds 3. Total 3." in fake.boards()[1].content
        # a move committed while the bot is down is posted once it is back
        await t.stop()
        from workers.client import Context

        reply = t.client.command(Context("discord", CHANNEL, BOB.id, "Bob", idem="dc:offline"), "move add 2")
        assert reply[0].ok, reply[0].text
        assert len(fake.boards()) == 2
        await t.start()
        await fake.wait(lambda: fake.boards()[2:], 30, "the board queued while the bot was down")
        assert "Player 2 adds 2. Total 5." in fake.boards()[2].content and len(fake.boards()) == 3
    finally:
        await t.stop()
        t.close()


async def test_rate_limits_every_board_once_and_in_order(table: Table) -> None:
    fake = table.fake
    await start_toy(table)
    fake.rate_limit_every = 2
    for i in range(6):
        user = ALICE if i % 2 == 0 else BOB
        await table.cmd(user, "move", text="add 1")
        await fake.wait(lambda n=i: len(fake.boards()) >= n + 2, 30, f"board {i + 2}")
    await asyncio.sleep(0.5)
    boards = fake.boards()
    totals = [int(m.group(1)) for b in boards[1:] if (m := re.search(r"Total (\d+)\.", b.content))]
    assert totals == [1, 2, 3, 4, 5, 6], [b.content for b in boards]
    assert len(boards) == 7 and fake.rate_limited > 0


async def test_boards_held_up_by_a_rate_limit_catch_up_as_one_post(table: Table) -> None:
    """A board waiting out a long 429 while the game goes on: the turns posted meanwhile come
    as one message with all their lines and the newest board (workers/outbox.py MERGE_AFTER)."""
    fake = table.fake
    await start_toy(table)
    fake.rate_limit_retry = 3.0
    fake.rate_limit_every = fake._posts + 1  # the next post (Alice's board) is rate limited once
    await table.cmd(ALICE, "move", text="add 1")
    await fake.wait(lambda: fake.rate_limited > 0, 10, "the rate limit")
    await table.cmd(BOB, "move", text="add 2")
    await table.cmd(ALICE, "move", text="add 3")
    await fake.wait(lambda: len(fake.boards()) >= 3, 30, "the boards")
    await asyncio.sleep(1.5)  # nothing else is coming
    boards = fake.boards()
    assert len(boards) == 3, [b.content for b in boards]
    held, caught_up = boards[1:]
    assert "adds 1" in held.content and "adds 2" not in held.content
    assert "Player 2 adds 2. Total 3." in caught_up.content and "Player 1 adds 3. Total 6." in caught_up.content


async def test_same_interaction_twice_applies_once_and_a_lost_answer_is_not_reposted(table: Table) -> None:
    from bots.discord.sender import nonce_for

    fake = table.fake
    gid, _ = await start_toy(table)
    v = table.version(gid)
    # Discord answers the next board's post with an error although it went through
    fake.fail_posts_once.add(nonce_for(f"{gid}:{v + 1}:turn"))
    inter = await fake.slash(ALICE, "move", text="add 2")
    await fake.done(inter)
    await fake.redeliver(inter)  # the same interaction again: acknowledged once, applied once
    await fake.wait(lambda: inter.extra_callbacks == 1, 10, "the second acknowledgement refused")
    await asyncio.sleep(0.5)
    assert table.version(gid) == v + 1
    assert len([m for m in fake.messages if m.interaction == inter.id]) == 1, "no second reply"
    await fake.wait(lambda: len(fake.boards()) >= 2, 30, "the board")
    await asyncio.sleep(1.5)  # the delivery retries the "failed" post with the same nonce
    assert len([b for b in fake.boards() if "Total 2." in b.content]) == 1
    assert len(fake.posts()) > len(fake.boards()), "the post was retried"


async def test_refused_dm_becomes_a_mention_with_nothing_private(table: Table) -> None:
    fake = table.fake
    fake.refuses_dms.add(BOB.id)
    await start_toy(table)
    await table.cmd(ALICE, "move", text="add 1")
    notice = await fake.wait(lambda: [m for m in fake.channel() if "/agora hand" in m.content
                                      and f"<@{BOB.id}>" in m.content], 30, "the DM-refused notice")
    assert len(notice) == 1 and SECRET not in public_text(fake)
    hand = await table.cmd(BOB, "hand")
    assert SECRET in hand.text() and all(m.ephemeral for m in hand.replies())


async def test_new_in_a_thread_keeps_the_channel_readable(table: Table) -> None:
    fake = table.fake
    new = await table.cmd(ALICE, "new", game="toy", options="thread=yes")
    (thread,) = fake.threads
    assert f"<#{thread}>" in new.text() and fake.threads[thread] == CHANNEL
    gid = table.gid(thread)
    assert table.client.chat_game("discord", CHANNEL) is None
    await table.cmd(BOB, "join", channel=thread)
    await table.cmd(ALICE, "begin", channel=thread)
    board = await fake.wait(lambda: fake.boards(thread), 30, "the first board in the thread")
    assert board[0].files and not fake.boards(CHANNEL)
    await table.cmd(ALICE, "move", channel=thread, text="add 1")
    await fake.wait(lambda: len(fake.boards(thread)) >= 2, 30, "the second board in the thread")
    assert table.version(gid) == 2


async def test_sharded_client_identifies_every_shard_and_answers(fake: FakeDiscord, redis_url: str, store: Any,
                                                                 dc_worker: Worker) -> None:
    t = Table(fake, redis_url)
    await t.start(shards="auto")
    try:
        assert sorted(tuple(i["shard"]) for i in fake.identified) == [(0, 2), (1, 2)]
        assert all(i["intents"] == 1 for i in fake.identified), "only the guilds intent"
        games = await t.cmd(ALICE, "games")
        assert "toy" in games.text().lower()
    finally:
        await t.stop()
        t.close()


async def test_table_notices_are_posted_in_the_channel(table: Table) -> None:
    import json

    fake = table.fake
    gid, _ = await start_toy(table)
    note = {"type": "notice", "game": gid, "chat": CHANNEL, "text": "Player 1's time ran out; an automatic "
            "player moved for them.", "key": f"{gid}:9:notice", "version": 9}
    table.client.store.r.xadd(k_outbox("discord", gid), {"m": json.dumps(note)})
    posted = await fake.wait(lambda: [m for m in fake.channel() if "time ran out" in m.content], 20, "the notice")
    assert len(posted) == 1 and not posted[0].custom_ids()


async def test_a_component_from_an_older_version_is_still_answered(table: Table) -> None:
    fake = table.fake
    _, first = await start_toy(table)
    inter = await fake.press(ALICE, first, "legacy:move:7")
    await fake.wait(lambda: inter.acked is not None, 3.0, "the unknown component answered")
    await fake.wait(lambda: inter.original is not None or inter.followups, 5.0, "a reply")
    assert fake.unanswered() == []


async def test_worker_down_every_interaction_still_acknowledged(fake: FakeDiscord, redis_url: str,
                                                                store: Any) -> None:
    """No worker at all: moves cannot be applied, yet nothing is left unanswered — the move
    is acknowledged at once and answered "queued" when the wait runs out."""
    t = Table(fake, redis_url)
    await t.start(move_timeout=3)
    try:
        gid, first = await start_toy(t)
        typed = await fake.slash(ALICE, "move", text="add 1")
        pressed = await fake.press(ALICE, first, button(first, "add 2"))
        status = await fake.slash(BOB, "status")
        await fake.done(status, 3.0)
        await fake.done(typed, 20)
        await fake.done(pressed, 20)
        assert "queued" in typed.text(), typed.text()
        assert max(i.ack_seconds or 99 for i in (typed, pressed, status)) < 3.0
        assert fake.unanswered() == [] and t.version(gid) == 1
        # the worker comes back: the queued move is applied (once), and its board is posted
        w = Worker(redis_url, name="late", env={"AGORA_PLUGINS": PLUGINS})
        w.start()
        try:
            await fake.wait(lambda: t.version(gid) == 2, 60, "the queued move applied")
            await fake.wait(lambda: fake.boards()[1:], 30, "its board")
            await asyncio.sleep(1.0)
            assert t.version(gid) == 2 and len(fake.boards()) == 2
        finally:
            w.stop()
    finally:
        await t.stop()
        t.close()
