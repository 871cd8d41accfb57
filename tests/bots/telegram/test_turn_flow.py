"""Turns that stalled or went silent over Telegram (issue 9), played end to end against the
fake Bot API with a real worker: the next decision always arrives with its buttons, a press is
answered in time whatever the worker or flood control does, and replies reach the player.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from bots.telegram.app import agora, telegram_client
from bots.telegram.handlers import CALLBACK_WINDOW
from tests.bots.telegram.conftest import ALICE, BOB, Table
from tests.bots.telegram.fake_api import FakeBotApi, FakeUser, Msg
from tests.conftest import Worker
from workers.store import k_told


def keyboards(fake: FakeBotApi, chat: int) -> list[Msg]:
    return [m for m in fake.sent(chat) if any("callback_data" in b for b in m.buttons())]


async def start_steps(table: Table) -> str:
    """Alice and Bob open their private chats; Alice opens a Steps table, Bob joins, it begins."""
    for user in (ALICE, BOB):
        await table.ask(user, "/start", private=True)
    await table.ask(ALICE, "/new steps")
    await table.ask(BOB, "/join")
    await table.ask(ALICE, "/begin")
    return table.gid()


async def prompt_with(fake: FakeBotApi, user: FakeUser, labels: list[str], *, since: float = 0.0) -> Msg:
    found = await fake.wait(
        lambda: [m for m in fake.sent(user.id, since=since) if m.labels() == labels], 20, f"prompt {labels}"
    )
    return found[-1]


async def test_last_chooser_gets_a_prompt_for_the_lone_decision(table: Table) -> None:
    """Item 2: the last to pick must then settle alone; that decision arrives with buttons."""
    fake = table.fake
    gid = await start_steps(table)
    picks = ["pick 1", "pick 2", "pick 3"]
    await prompt_with(fake, ALICE, picks)
    await prompt_with(fake, BOB, picks)
    await table.ask(ALICE, "/move pick 2")
    t0 = time.perf_counter()
    await table.ask(BOB, "pick 3", private=True)  # typed, in his private chat
    prompt = await prompt_with(fake, BOB, ["settle keep", "settle give"], since=t0)
    assert "Your turn" in prompt.body and gid in prompt.body


async def test_next_step_buttons_replace_the_pressed_ones(table: Table) -> None:
    """Item 13: a press that does not end the turn shows the next step's buttons in place."""
    fake = table.fake
    gid = await start_steps(table)
    await table.ask(ALICE, "/move pick 1")
    await table.ask(BOB, "/move pick 2")
    t0 = time.perf_counter()
    await table.ask(BOB, "/move settle keep")
    board = await table.turn_photo(after=t0)
    assert board.labels() == ["walk left", "walk right"]
    version = table.version(gid)
    fake.press(ALICE, board, "walk left")
    await fake.wait(lambda: board.labels() == ["rest short", "rest long"], 20, "next step in place")
    assert table.version(gid) == version + 1
    # the buttons work: the turn ends and the next round's board comes
    t1 = time.perf_counter()
    fake.press(ALICE, board, "rest long")
    nxt = await table.turn_photo(after=t1)
    assert "Alice: rest long" in nxt.body or "rest long" in nxt.body
    await fake.wait(lambda: board.labels() == [], 10, "the finished turn's keyboard removed")
    assert not fake.unanswered()


async def test_a_pressed_prompt_becomes_the_next_decision(table: Table) -> None:
    """Items 2 and 13 by buttons: the last picker presses his pick on his private prompt; the
    lone decision that follows reaches him once, text and buttons, and its buttons act."""
    fake = table.fake
    gid = await start_steps(table)
    picks = ["pick 1", "pick 2", "pick 3"]
    await prompt_with(fake, ALICE, picks)
    bob = await prompt_with(fake, BOB, picks)
    await table.ask(ALICE, "/move pick 2")
    fake.press(BOB, bob, "pick 3")
    # the decision reaches him with its buttons: in place of the pressed prompt, or (when the
    # outbox was quicker) as the next prompt; never both, and never neither
    settle = ["settle keep", "settle give"]
    await fake.wait(lambda: [m for m in fake.sent(BOB.id) if m.labels() == settle], 20, "the decision")
    await asyncio.sleep(0.5)
    live = [m for m in fake.sent(BOB.id) if m.labels() == settle]
    assert len(live) == 1
    bob = live[0]
    assert "settle" in bob.body and gid in bob.body
    version = table.version(gid)
    fake.press(BOB, bob, "settle give")
    await fake.wait(lambda: table.version(gid) == version + 1, 20, "the decision applied")
    await asyncio.sleep(0.3)
    assert len(keyboards(fake, BOB.id)) <= 1 and not fake.unanswered()


async def test_press_is_answered_in_time_while_the_worker_is_down(table: Table, tg_worker: Worker) -> None:
    """Item 3: with no worker, a press is answered within seconds; the move is applied once
    the worker is back; the bot's move wait is inside Telegram's window for a press."""
    fake = table.fake
    assert telegram_client(table.redis_url).move_timeout < CALLBACK_WINDOW
    gid = await start_steps(table)
    prompt = await prompt_with(fake, ALICE, ["pick 1", "pick 2", "pick 3"])
    table.client.move_timeout = 4.0
    version = table.version(gid)
    await asyncio.to_thread(tg_worker.stop)
    try:
        uid = fake.press(ALICE, prompt, "pick 2")
        pressed = fake.pushed_at[uid]
        await fake.wait(lambda: not fake.unanswered(), 6, "the press answered")
        answer = fake.method_calls("answerCallbackQuery")[-1]
        assert answer.at - pressed < 4.0
        await table.handled(uid, timeout=15)
        queued = [m for m in fake.sent(ALICE.id, since=pressed) if "queued" in m.body]
        assert queued, "the outcome follows as a message"
    finally:
        tg_worker.start()
    await fake.wait(lambda: table.version(gid) == version + 1, 60, "the queued move applied")


async def test_flood_wait_in_a_group_does_not_delay_press_answers(table: Table) -> None:
    """Item 7: a reply waiting out flood control holds the group's lock; a press in the same
    group is still answered within a few seconds."""
    fake = table.fake
    await start_steps(table)
    await table.ask(ALICE, "/move pick 1")
    t0 = time.perf_counter()
    await table.ask(BOB, "/move pick 2")
    await table.ask(BOB, "/move settle keep")
    board = await table.turn_photo(after=t0)
    await prompt_with(fake, ALICE, ["walk left", "walk right"], since=t0)
    await asyncio.sleep(0.3)
    fake.fail("sendMessage", retry_after=8)
    slow = table.say(BOB, "/help")  # its reply meets an 8 s flood wait, holding the lock
    await fake.wait(lambda: [c for c in fake.method_calls("sendMessage") if c.status == 429], 10)
    uid = fake.press(ALICE, board, "walk left")
    pressed = fake.pushed_at[uid]
    await fake.wait(lambda: not fake.unanswered(), 6, "the press answered during the flood wait")
    assert fake.method_calls("answerCallbackQuery")[-1].at - pressed < 4.0
    await table.handled(slow, timeout=20)
    await table.handled(uid, timeout=20)


async def test_prompts_of_two_games_keep_their_buttons(table: Table, fake: FakeBotApi) -> None:
    """Item 5: one player in two games; the second game's prompt leaves the first one's
    buttons alone, and a move typed privately goes to the one game waiting for her."""
    other = fake.add_group(-100_555, "Second table")
    await table.ask(ALICE, "/start", private=True)
    await table.ask(BOB, "/start", private=True)
    await table.ask(ALICE, "/new toy")
    await table.ask(BOB, "/join")
    await table.ask(ALICE, "/begin")  # game 1: Alice moves first
    first = await prompt_with(fake, ALICE, ["add 1", "add 2", "add 3", "roll"])
    g1 = table.gid()
    for user, text in ((BOB, "/new toy"), (ALICE, "/join"), (BOB, "/begin")):
        await table.handled(fake.push_message(user, text, group=other))
    g2 = table.client.chat_game("telegram", str(other))
    assert g2 and g2 != g1
    t0 = time.perf_counter()
    await table.handled(fake.push_message(BOB, "/move add 1", group=other))  # now game 2 waits for Alice
    second = await prompt_with(fake, ALICE, ["add 1", "add 2", "add 3", "roll"], since=t0)
    assert g2 in second.body
    await asyncio.sleep(0.5)
    assert first.labels() == ["add 1", "add 2", "add 3", "roll"], "game 1's prompt keeps its buttons"
    # both wait for her: the first prompt's buttons still act in game 1
    v1 = table.version(g1)
    t1 = time.perf_counter()
    fake.press(ALICE, first, "add 2")
    await table.turn_photo(after=t1)
    assert table.version(g1) == v1 + 1
    # now only game 2 waits for her: a typed move goes there
    v2 = table.version(g2)
    reply = await table.ask(ALICE, "add 3", private=True)
    assert table.version(g2) == v2 + 1, [m.body for m in reply]


async def toy_with_alice_connected(table: Table) -> None:
    """A toy game in the group; only Alice opened the private chat; the first board is out."""
    await table.ask(ALICE, "/start", private=True)
    await table.ask(ALICE, "/new toy")
    await table.ask(BOB, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, "/begin")
    await table.turn_photo(after=t0)


async def test_a_move_typed_in_the_private_chat_is_answered_there(table: Table) -> None:
    """Item 4: every part of a reply in a private chat is private; it must still be sent."""
    await toy_with_alice_connected(table)
    t1 = time.perf_counter()
    reply = await table.ask(ALICE, "/move add 3", private=True)
    assert [m for m in reply if m.chat == ALICE.id and "adds 3" in m.body], "the private move is answered"
    await table.turn_photo(after=t1)


async def test_a_refusal_is_explained_to_a_player_without_a_private_chat(table: Table) -> None:
    """Item 6: Bob never opened the private chat; his typo is explained in the group (the toy's
    reasons name nothing hidden), not with a bare "I have something private for you"."""
    fake = table.fake
    await toy_with_alice_connected(table)
    t1 = time.perf_counter()
    table.say(ALICE, "/move add 3")
    await table.turn_photo(after=t1)
    before = len(fake.group())
    refused = await table.ask(BOB, "/move add 9")
    assert any("add 9 is not a legal move" in m.body for m in refused if m.chat == fake.group_id)
    assert not any("🔒" in m.body for m in fake.group()[before:])


async def test_private_replies_are_acknowledged_with_a_reaction(table: Table) -> None:
    """Item 14: what goes privately is acknowledged on the command with a reaction, not with a
    "sent to our private chat" line the whole table reads."""
    fake = table.fake
    await toy_with_alice_connected(table)
    uid = table.say(ALICE, "/hand")
    await table.handled(uid)
    assert fake.reactions_to(uid)
    uid = table.say(ALICE, "/moves")
    await table.handled(uid)
    assert not any("sent to our private chat" in m.body for m in fake.group())


async def test_start_in_a_group_lobby_does_not_begin(table: Table) -> None:
    """Item 8: `/start` typed by reflex in a group explains how to begin; only `/begin` begins."""
    await table.ask(ALICE, "/new toy")
    await table.ask(BOB, "/join")
    reply = await table.ask(BOB, "/start")
    gid = table.gid()
    assert table.client.store.meta(gid)["status"] == "lobby"
    assert "does not begin" in reply[-1].body and "begin" in reply[-1].body
    assert agora(table.app).client is table.client


async def test_a_refusal_whose_reason_is_secret_names_nothing_in_the_group(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 6, the other half: when the exact reason would name hidden moves (here the toy's
    moves are made secret in the bot's process), the group reads a reason that names nothing,
    and the exact one goes to the private chat of a player who opened it."""
    from engine import find_game

    fake = table.fake
    await toy_with_alice_connected(table)
    monkeypatch.setattr(type(find_game("toy")), "private_action", lambda self, state, seat, action: True)
    t1 = time.perf_counter()
    uid = table.say(ALICE, "/move add 7")
    await table.handled(uid)
    public = [m.body for m in fake.group(since=t1)]
    assert public and "not one of your moves" in public[-1]
    assert not any("add 3" in b or "add 7" in b for b in public), public
    await fake.wait(lambda: [m for m in fake.sent(ALICE.id, since=t1) if "Closest legal moves" in m.body], 10)


async def test_boards_held_up_by_flood_control_catch_up_as_one_post(table: Table) -> None:
    """A group's board waiting out Telegram's flood control while the game goes on: the turns
    posted meanwhile come as one photo with all their lines and the newest board, not as one
    out-of-date board per turn (workers/outbox.py ``MERGE_AFTER``)."""
    fake = table.fake
    await toy_with_alice_connected(table)
    gid = table.gid()
    t0 = time.perf_counter()
    fake.fail("sendPhoto", retry_after=3)
    await table.ask(ALICE, "/move add 1")  # its board meets the flood wait
    await fake.wait(lambda: [c for c in fake.method_calls("sendPhoto") if c.status == 429], 10, "the flood wait")
    await table.ask(BOB, "/move add 2")
    await table.ask(ALICE, "/move add 3")
    version = table.version(gid)
    await fake.wait(lambda: [m for m in fake.group(since=t0) if m.photo][1:], 30, "the boards")
    await asyncio.sleep(1.5)  # nothing else is coming
    photos = [m for m in fake.group(since=t0) if m.photo]
    assert len(photos) == 2, [m.body for m in photos]
    held, caught_up = photos
    assert "adds 1" in held.body and "adds 2" not in held.body
    assert "adds 2" in caught_up.body and "adds 3" in caught_up.body, caught_up.body  # the merged turn's line too
    assert table.client.store.r.zscore(k_told(gid), "") == version  # the newest post counts as seen
