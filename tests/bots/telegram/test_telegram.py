"""End to end: the Telegram adapter against the fake Bot API, with real Redis and Celery.

The toy game (two players, race to 21; seat 2 holds a secret word) keeps these fast; the
real games are played in ``test_games.py``.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest

from bots.telegram.app import Webhook, agora
from tests.bots.telegram.conftest import ALICE, BOB, CAROL, Table
from tests.bots.telegram.fake_api import FakeBotApi, Msg
from workers import outbox
from workers.client import COMMANDS

SECRET = "plover"  # the toy's hidden word of seat 2


async def start_toy(table: Table) -> tuple[str, Msg]:
    """Alice opens a toy table, Bob joins, Alice begins; returns (gid, first board photo)."""
    await table.ask(ALICE, "/new toy")
    await table.ask(BOB, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, "/begin")
    return table.gid(), await table.turn_photo(after=t0)


def private_reply(reply: list[Msg], user: object) -> Msg:
    """The part of a reply that went to the user's private chat."""
    mine = [m for m in reply if m.chat == getattr(user, "id", None)]
    assert mine, f"nothing private in {[m.body for m in reply]}"
    return mine[-1]


def group_text(fake: FakeBotApi) -> str:
    """Everything anyone in the group can read: texts, captions and button labels."""
    return "\n".join(m.body + " " + " ".join(m.labels()) for m in fake.group())


def live_keyboards(fake: FakeBotApi, chat: int) -> list[Msg]:
    return [m for m in fake.sent(chat) if any("callback_data" in b for b in m.buttons())]


async def test_commands_menu_help_and_games(table: Table) -> None:
    fake = table.fake
    menu = {c["command"]: c["description"] for c in fake.commands}
    assert set(COMMANDS) <= set(menu)
    assert all(0 < len(d) <= 256 and "`" not in d for d in menu.values())
    assert menu["new"].startswith("<game>")

    reply = await table.ask(ALICE, "/help")
    assert "move" in reply[0].body and "<code>" in reply[0].text  # `code` became HTML
    reply = await table.ask(ALICE, "/help toy")
    body = reply[0].body
    assert "Toy race" in body and "Examples from an opening position: move add 1" in body
    reply = await table.ask(ALICE, "/games@agora_test_bot")
    assert "toy" in reply[0].body
    # a command addressed to another bot in the group is not ours
    uid = table.say(ALICE, "/games@some_other_bot")
    await table.handled(table.say(ALICE, "/status"))
    assert table.client.kv_get("tg-update", str(uid)) is None


async def test_toy_game_typed_moves_buttons_and_one_board_per_turn(table: Table) -> None:
    fake = table.fake
    gid, first = await start_toy(table)
    assert "The game begins" in first.body and "Next: Player 1 (Alice)" in first.body
    assert first.labels() == ["add 1", "add 2", "add 3", "roll"]
    assert fake.reactions, "/begin is acknowledged with a reaction; its news is the caption"
    assert len(first.photo or b"") > 1000

    # a typed move: a reaction on the command, then one board photo with a caption
    t0 = time.perf_counter()
    uid = table.say(ALICE, "/move add 3")
    second = await table.turn_photo(after=t0)
    assert "Player 1 adds 3. Total 3." in second.body and "Next: Player 2 (Bob)" in second.body
    await table.handled(uid)
    assert len(fake.reactions_to(uid)) == 1
    # the previous board's buttons are edited away (right after the new board), not stacked
    await fake.wait(lambda: first.labels() == [], 5)
    stale_token = second.button("add 1")["callback_data"]
    assert all(len(b["callback_data"].encode()) <= 64 for b in second.buttons())

    # a button press from the board photo
    t1 = time.perf_counter()
    fake.press(BOB, second, "add 2")
    third = await table.turn_photo(after=t1)
    assert "Player 2 adds 2. Total 5." in third.body
    assert list(fake.answers.values())[-1].startswith("✓ Player 2 adds 2")
    await fake.wait(lambda: second.labels() == [], 5)

    # a stale button (the game moved on) only gets a notice
    version = table.version(gid)
    fake.push_callback(BOB, second, stale_token)
    await fake.wait(lambda: not fake.unanswered(), 10)
    assert "earlier moment" in (list(fake.answers.values())[-1] or "")
    assert table.version(gid) == version

    # /moves in the group: buttons for the player on turn; a press moves
    moves = (await table.ask(ALICE, "/moves"))[-1]
    assert "Your moves (4)" in moves.body and moves.labels() == ["add 1", "add 2", "add 3", "roll"]
    await fake.wait(lambda: third.labels() == [], 5)  # one live keyboard per chat
    t2 = time.perf_counter()
    fake.press(ALICE, moves, "add 1")
    fourth = await table.turn_photo(after=t2)
    assert "Player 1 adds 1. Total 6." in fourth.body

    # read-only commands
    status = (await table.ask(BOB, "/status"))[-1].body
    assert "Waiting for: Player 2 (Bob)" in status
    board = (await table.ask(BOB, "/board"))[-1]
    assert board.photo and "g1 Toy race." in board.body
    log = (await table.ask(BOB, "/log 3"))[-1].body
    assert "Player 1 adds 1. Total 6." in log

    # undo: only the player who moved last, before anyone else moved
    refused = (await table.ask(BOB, "/undo"))[-1].body
    assert "Only the player who made the last move" in refused
    t3 = time.perf_counter()
    took_back = (await table.ask(ALICE, "/undo"))[-1].body
    assert "Player 1 (Alice) took back add 1." in took_back
    fifth = await table.turn_photo(after=t3)
    assert "Next: Player 1 (Alice)" in fifth.body

    # resign ends the game with a final board
    t4 = time.perf_counter()
    await table.ask(BOB, "/resign")
    last = await table.turn_photo(after=t4)
    assert "🏁 Game over" in last.body and last.labels() == []

    # one board photo per posted turn, and never more than one live keyboard in the group
    photos = [m for m in fake.photos(fake.group_id) if m.reply_to is None]
    assert len(photos) == len({m.body for m in photos}) == 6  # begin, 3 moves, undo, resign
    assert len(live_keyboards(fake, fake.group_id)) <= 1
    assert not fake.unanswered()


async def test_private_information_and_deep_link(table: Table) -> None:
    fake = table.fake
    connected = await table.ask(ALICE, "/start", private=True)
    assert "Connected" in connected[0].body
    gid, _ = await start_toy(table)
    # Alice opened the private chat: her "your turn" prompt arrives there
    prompt = await fake.wait(lambda: [m for m in fake.sent(ALICE.id) if "Your turn" in m.body], 10)
    assert prompt[-1].labels() == ["add 1", "add 2", "add 3", "roll"]

    # Bob never did: when it is his turn the group gets a deep link, not his secret
    t0 = time.perf_counter()
    table.say(ALICE, "/move add 2")
    await table.turn_photo(after=t0)
    invite = await fake.wait(lambda: [m for m in fake.group(since=t0) if "private" in m.body and m.buttons()], 10)
    url = invite[0].buttons()[0]["url"]
    assert url == f"https://t.me/agora_test_bot?start={gid}"
    hand = await table.ask(BOB, "/hand")
    assert hand and "open our private chat" in hand[-1].body and hand[-1].buttons()[0]["url"] == url
    assert SECRET not in group_text(fake)

    # Bob follows the link: Telegram sends "/start <payload>" in the private chat
    payload = url.split("start=", 1)[1]
    reply = await table.ask(BOB, f"/start {payload}", private=True)
    bodies = "\n".join(m.body for m in reply)
    assert "Connected" in bodies and SECRET in bodies and "Your turn" in bodies
    assert all(m.chat == BOB.id for m in fake.sent() if SECRET in m.body)

    # he moves from the private chat with a button; his private note stays private
    t1 = time.perf_counter()
    fake.press(BOB, reply[-1], "add 3")
    board = await table.turn_photo(after=t1)
    assert "Player 2 adds 3. Total 5." in board.body
    await fake.wait(lambda: [m for m in fake.sent(BOB.id, since=t1) if SECRET in m.body], 10)
    # /hand in the group now goes to his private chat, acknowledged with a reaction on the
    # command (a "sent to our private chat" line would be noise for the whole table)
    t2 = time.perf_counter()
    hand_uid = table.say(BOB, "/hand")
    await fake.wait(lambda: [m for m in fake.sent(BOB.id, since=t2) if f"hand: {SECRET}" in m.body], 10)
    await fake.wait(lambda: fake.reactions_to(hand_uid), 10)
    assert not [m for m in fake.group(since=t2) if "private chat" in m.body]
    assert SECRET not in group_text(fake)
    # my games, across chats, from the private chat
    mine = (await table.ask(ALICE, "/mygames", private=True))[-1].body
    assert gid in mine and "your turn" in mine

    # Bob blocks the bot: his next prompt cannot be delivered, so he is invited again
    fake.started.discard(BOB.id)
    t3 = time.perf_counter()
    table.say(ALICE, "/move add 1")
    # the invitation is the group message naming Bob with a link button (the turn post, which
    # also names him and has move buttons, may come first)
    again = await fake.wait(
        lambda: [m for m in fake.group(since=t3) if "Bob" in m.body and m.buttons() and "url" in m.buttons()[0]], 10
    )
    assert again[0].buttons()[0]["url"] == url
    assert SECRET not in group_text(fake)


async def test_bad_input_gets_a_friendly_reply_and_changes_nothing(table: Table) -> None:
    fake = table.fake
    fake.add_group(-100_888)
    # a move in a chat with no game
    before = time.perf_counter()
    uid = fake.push_message(ALICE, "/move add 1", group=-100_888)
    await table.handled(uid)
    assert "There is no game in this chat" in fake.sent(-100_888, since=before)[-1].body

    for user in (ALICE, BOB):
        await table.ask(user, "/start", private=True)
    gid, board = await start_toy(table)
    token = board.button("add 1")["callback_data"]
    await fake.wait(lambda: outbox.undelivered(table.client.store, "telegram") == 0, 10)
    version = table.version(gid)
    outbox_before = outbox.length(table.client.store, "telegram")

    unknown = (await table.ask(ALICE, "/frobnicate"))[-1].body
    assert unknown.startswith("I don't know the command frobnicate. Try:")
    # Refusals are answered where the move was typed: the toy's moves reveal nothing hidden,
    # so the engine's own message, closest legal moves included, reaches the group intact.
    malformed = (await table.ask(ALICE, "/move add 7"))[-1]
    assert malformed.chat == fake.group_id
    assert malformed.body == "add 7 is not a legal move right now. Closest legal moves: add 3; add 2; add 1."
    assert "<code>add 3</code>" in (malformed.text or "")
    gibberish = (await table.ask(ALICE, "/move jump"))[-1].body
    assert gibberish == "I don't know the word jump. A move starts with one of: add, roll."
    out_of_turn = (await table.ask(BOB, "/move add 1"))[-1]
    assert out_of_turn.body.startswith("It is not your turn.") and out_of_turn.chat == fake.group_id
    assert not [m for m in fake.group() if "private chat" in m.body]
    foreign = fake.push_callback(BOB, board, token)  # Alice's button, pressed by Bob
    await table.handled(foreign)
    assert list(fake.answers.values())[-1] == "That button belongs to another player."
    # still in a chat with no game, although Alice now plays elsewhere
    uid = fake.push_message(ALICE, "/move add 1", group=-100_888)
    await table.handled(uid)
    assert "There is no game in this chat" in fake.sent(-100_888)[-1].body
    assert table.version(gid) == version
    assert outbox.length(table.client.store, "telegram") == outbox_before

    # a button from a finished game
    await table.ask(BOB, "/resign")
    await fake.wait(lambda: table.client.store.meta(gid).get("status") == "over", 10)
    version = table.version(gid)
    pressed = fake.push_callback(ALICE, board, token)
    await table.handled(pressed)
    assert "This game is over" in (list(fake.answers.values())[-1] or "")
    assert table.version(gid) == version
    assert not fake.unanswered()
    assert all(c.status == 200 for c in fake.calls if c.method in ("sendMessage", "sendPhoto"))


async def test_same_update_twice_applies_once(table: Table) -> None:
    fake = table.fake
    gid, _ = await start_toy(table)
    version = table.version(gid)

    # redelivered after it was handled (a lost confirmation)
    t0 = time.perf_counter()
    uid = table.say(ALICE, "/move add 3")
    await table.turn_photo(after=t0)
    await table.handled(uid)
    fake.redeliver(uid)
    # delivered twice in one batch
    t1 = time.perf_counter()
    twice = fake.push_callback(BOB, await table.turn_photo(after=t0), fake.group()[-1].button("add 2")["callback_data"])
    fake.redeliver(twice)
    await table.turn_photo(after=t1)
    # a later update of the same chat is handled after both copies
    await table.ask(ALICE, "/status")

    assert table.version(gid) == version + 2
    assert len(fake.reactions_to(uid)) == 1
    captions = [m.body for m in fake.photos(fake.group_id)]
    assert sum("Player 1 adds 3" in c for c in captions) == 1
    assert sum("Player 2 adds 2" in c for c in captions) == 1
    assert len(fake.method_calls("answerCallbackQuery")) == 1
    assert not fake.unanswered()


async def test_flood_control_and_network_errors(table: Table) -> None:
    fake = table.fake
    await table.ask(BOB, "/start", private=True)
    gid, _ = await start_toy(table)

    fake.fail("sendPhoto", retry_after=1)
    t0 = time.perf_counter()
    table.say(ALICE, "/move add 3")
    board = await table.turn_photo(after=t0)
    assert board.at - t0 >= 1.0, "the photo waited out retry_after"
    assert [c.status for c in fake.method_calls("sendPhoto")][-2:] == [429, 200]

    fake.fail("sendPhoto", status=502, times=2)
    fake.fail("sendMessage", retry_after=1)
    t1 = time.perf_counter()
    uid = table.say(BOB, "/move add 9")  # illegal: its (private) reply meets flood control
    table.say(BOB, "/move add 1")
    await table.turn_photo(after=t1)
    await table.handled(uid)
    await asyncio.sleep(0.3)
    captions = [m.body for m in fake.photos(fake.group_id)]
    assert sum("Player 1 adds 3" in c for c in captions) == 1
    assert sum("Player 2 adds 1" in c for c in captions) == 1
    assert sum("add 9 is not" in m.body for m in fake.group()) == 1
    assert 429 in [c.status for c in fake.method_calls("sendMessage")]
    assert table.version(gid) == 3

    # a longer outage than one send's retries: the entry stays pending and is sent later, once
    agora(table.app).sender.base_delay = 0.02
    fake.fail("sendPhoto", status=502, times=agora(table.app).sender.attempts + 2)
    t2 = time.perf_counter()
    table.say(ALICE, "/move add 2")
    await table.turn_photo(after=t2)
    await asyncio.sleep(0.3)
    assert [c.status for c in fake.method_calls("sendPhoto")][-8:] == [502] * 7 + [200]
    assert sum("Player 1 adds 2" in m.body for m in fake.photos(fake.group_id)) == 1
    assert outbox.pending_count(table.client.store, "telegram") == 0


async def test_restart_mid_game_loses_nothing(
    fake: FakeBotApi, redis_url: str, store: object, tg_worker: object
) -> None:
    table = await Table(fake, redis_url).start()
    try:
        gid, _ = await start_toy(table)
        # a board photo meets flood control, and the bot stops while waiting it out
        fake.fail("sendPhoto", retry_after=5)
        t0 = time.perf_counter()
        uid = table.say(ALICE, "/move add 3")
        await table.handled(uid)
        await fake.wait(lambda: [c for c in fake.method_calls("sendPhoto") if c.status == 429], 10)
        await table.stop(timeout=0.1)  # the delivery is cancelled mid-wait: its entry stays pending
        assert not [m for m in fake.group(since=t0) if m.photo]

        # while the bot is down, players go on writing; one old update comes again
        down = [table.say(BOB, "/move add 2"), table.say(CAROL, "/status"), table.say(ALICE, "/log 2")]
        fake.redeliver(uid)
        await asyncio.sleep(0.2)

        await table.start()  # a new Application, client and delivery loop
        for u in down:
            await table.handled(u)
        await fake.wait(lambda: sum(bool(m.photo) for m in fake.group(since=t0)) >= 2, 20)
        await asyncio.sleep(0.5)  # room for any duplicate to show up
        captions = [m.body for m in fake.group(since=t0) if m.photo]
        assert sum("Player 1 adds 3" in c for c in captions) == 1
        assert sum("Player 2 adds 2" in c for c in captions) == 1
        assert table.version(gid) == 3
        assert len(fake.reactions_to(uid)) == 1
        assert outbox.pending_count(table.client.store, "telegram") == 0
    finally:
        await table.stop()
        table.close()


async def test_webhook_mode(fake: FakeBotApi, redis_url: str, store: object, tg_worker: object) -> None:
    import aiohttp

    from workers.embedded import free_port

    hook = Webhook("https://agora.example/telegram/hook", "127.0.0.1", free_port(), "s3cret")
    table = await Table(fake, redis_url).start(webhook=hook)
    try:
        assert fake.webhook is not None and fake.webhook["url"] == hook.url
        assert fake.webhook["secret_token"] == "s3cret"
        assert not fake.method_calls("getUpdates")
        update = {
            "update_id": 5000,
            "message": {
                "message_id": 1,
                "date": int(time.time()),
                "text": "/games",
                "entities": [{"type": "bot_command", "offset": 0, "length": 6}],
                "chat": fake.chat_of(ALICE, False),
                "from": ALICE.json(),
            },
        }
        url = f"http://127.0.0.1:{hook.port}/telegram/hook"
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "wrong"}) as r:
                assert r.status == 403
            async with http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}) as r:
                assert r.status == 200
        assert "toy" in fake.group()[-1].body  # answered before the 200
        assert json.dumps(fake.webhook.get("allowed_updates", "")).count("callback_query") == 1
    finally:
        await table.stop()
        table.close()


async def test_store_errors_while_delivering_lose_no_board_and_send_none_twice(table: Table) -> None:
    """A store restart makes building a turn post fail (a reset connection) and then writing
    its sent marker fail: the post stays pending and goes out later, once, with its image."""
    from redis.exceptions import ConnectionError as RedisConnectionError

    fake = table.fake
    gid, _ = await start_toy(table)
    version = table.version(gid)
    commands, client = table.client.commands, table.client
    real_turn_part, real_mark_sent = commands.turn_part, client.mark_sent
    failures = {"build": 2, "mark": 2}

    def flaky_turn_part(message: dict[str, object]) -> object:
        if failures["build"]:
            failures["build"] -= 1
            raise RedisConnectionError("Connection reset by peer")
        return real_turn_part(message)

    def flaky_mark_sent(envelope: object, **kwargs: object) -> None:
        if failures["mark"] and failures["build"] == 0:
            failures["mark"] -= 1
            raise RedisConnectionError("Connection reset by peer")
        real_mark_sent(envelope, **kwargs)

    commands.turn_part = flaky_turn_part
    client.mark_sent = flaky_mark_sent
    try:
        t0 = time.perf_counter()
        table.say(ALICE, "/move add 3")
        board = await table.turn_photo(after=t0)
        await asyncio.sleep(1.0)
    finally:
        commands.turn_part, client.mark_sent = real_turn_part, real_mark_sent
    assert failures == {"build": 0, "mark": 0}
    assert board.photo, "the turn went out with its image"
    captions = [m.body for m in fake.photos(fake.group_id)]
    assert sum("Player 1 adds 3" in c for c in captions) == 1
    assert table.version(gid) == version + 1
    assert outbox.pending_count(table.client.store, "telegram") == 0


async def test_group_messages_are_paced_to_the_flood_limit(
    fake: FakeBotApi, redis_url: str, store: object, tg_worker: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot keeps Telegram's per-group limit itself (here shrunk to 2 messages a second)
    instead of sending as fast as it can and waiting out 429 answers."""
    monkeypatch.setenv("TELEGRAM_GROUP_RATE", "2/1")
    table = Table(fake, redis_url)
    await table.start()
    try:
        t0 = time.perf_counter()
        for _ in range(6):
            uid = table.say(ALICE, "/games")
        await table.handled(uid)
        replies = await fake.wait(lambda: fake.group(since=t0)[5:] and fake.group(since=t0), 30, "six replies")
        spread = replies[5].at - replies[0].at
        assert spread >= 1.5, f"six group messages within {spread:.2f} s at 2 a second"
        assert all(c.status == 200 for c in fake.method_calls("sendMessage"))
    finally:
        await table.stop()
        table.close()


async def test_a_reminder_due_while_the_bot_is_down_arrives_once_after_restart(
    fake: FakeBotApi, redis_url: str, store: object, tg_worker: object
) -> None:
    """A reminder fired by the sweeper while the bot is stopped waits in the outbox and is sent
    once when the bot is back; a second sweep of the same moment sends nothing more."""
    from workers import deadlines

    table = await Table(fake, redis_url).start()
    try:
        gid, _ = await start_toy(table)
        await table.stop()
        later = time.time() + 30 * 3600  # past half of the 48-hour turn
        st = table.client.store

        def sweep() -> int:
            return deadlines.sweep_due(
                st,
                later,
                lambda g: deadlines.process(st, g, later, run_auto=lambda *a: None, submit_timeout=lambda *a: None),
            )

        assert sweep() >= 1
        t0 = time.perf_counter()
        await table.start()
        reminder = await fake.wait(lambda: [m for m in fake.group(since=t0) if "⏰" in m.body], 20, "the reminder")
        assert "Alice" in reminder[0].body and gid in reminder[0].body
        sweep()  # the same moment swept again (a second sweeper, a restarted one)
        await asyncio.sleep(1.0)
        assert len([m for m in fake.group(since=t0) if "⏰" in m.body]) == 1
    finally:
        await table.stop()
        table.close()


async def test_a_group_admin_administers_a_table_like_its_creator(table: Table) -> None:
    """`timer` is for the game's creator or the group's administrators; others are refused."""
    fake = table.fake
    gid, _ = await start_toy(table)
    refused = await table.ask(BOB, "/timer fast")
    assert "Only the player who opened this table (or a chat admin)" in refused[-1].body
    assert table.client.store.meta(gid).get("timer") != "fast"
    fake.admins.add(BOB.id)
    accepted = await table.ask(BOB, "/timer fast")
    assert "Only the player" not in accepted[-1].body
    assert table.client.store.meta(gid).get("timer") == "fast"
    assert [c for c in fake.method_calls("getChatMember") if c.params.get("user_id") == str(BOB.id)]
