"""One game across Discord and Telegram: a join code seats a Telegram player at a table
opened on Discord, both chats show every board on their own platform, prompts reach each
player on theirs, and ``link`` makes one person's two accounts one player.

Both bots run in this process against their fakes on 127.0.0.1, with one real Redis and one
real Celery worker; each bot has its own client, as in ``agora serve``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

import pytest

from tests.bots.discord.conftest import ALICE, Table
from tests.bots.discord.fake_discord import FakeDiscord, FakeUser
from tests.bots.telegram.conftest import BOB as TG_BOB
from tests.bots.telegram.conftest import Table as TgTable
from tests.bots.telegram.fake_api import FakeBotApi
from tests.conftest import Worker

BOB_ON_DISCORD = FakeUser("1200000000000000012", "Bob")
SECRET = "plover"  # the toy's hidden word of seat 2 (Bob, on Telegram)


@pytest.fixture
async def tg(redis_url: str) -> AsyncIterator[TgTable]:
    api = await FakeBotApi().start()
    t = TgTable(api, redis_url)
    await t.start()
    try:
        yield t
    finally:
        await t.stop()
        t.close()
        await api.stop()


def totals(texts: list[str]) -> list[int]:
    return [int(m.group(1)) for t in texts if (m := re.search(r"Total (\d+)\.", t))]


async def test_discord_and_telegram_players_share_one_game(table: Table, tg: TgTable, dc_worker: Worker) -> None:
    fake: FakeDiscord = table.fake
    tfake = tg.fake
    new = await table.cmd(ALICE, "new", game="toy")
    gid = table.gid()
    assert f"Join code `{gid}`" in new.text()
    # Bob opens the private chat with the Telegram bot, then joins from his Telegram group
    await tg.ask(TG_BOB, "/start", private=True)
    joined = await tg.ask(TG_BOB, f"/join {gid}")
    assert any("Bob joined" in m.body for m in joined)
    assert tg.client.chat_game("telegram", str(tfake.group_id)) == gid
    # a code that does not exist is refused, and changes nothing
    wrong = await tg.ask(TG_BOB, "/join gzzzz")
    assert "no table with the join code" in wrong[-1].body

    # link: Bob's Discord account becomes the same player as his Telegram account
    asked = await tg.ask(TG_BOB, "/link", private=True)
    code = re.search(r"link code is `?([A-Z0-9]{6})", asked[-1].body)
    assert code, asked[-1].body
    linked = await table.cmd(BOB_ON_DISCORD, "link", code=code.group(1))
    assert "Linked" in linked.text() and linked.original.ephemeral
    again = await table.cmd(BOB_ON_DISCORD, "link", code=code.group(1))
    assert "unknown or has expired" in again.text()

    await table.cmd(ALICE, "begin")
    await fake.wait(lambda: fake.boards(), 30, "the first Discord board")
    await tfake.wait(lambda: tfake.photos(tfake.group_id), 30, "the first Telegram board")
    # mygames shows the game to Bob on both platforms
    on_discord = await table.cmd(BOB_ON_DISCORD, "mygames")
    assert gid in on_discord.text()
    on_telegram = await tg.ask(TG_BOB, "/mygames", private=True)
    assert gid in on_telegram[-1].body

    moves = 0
    while table.client.game_status(gid) == "active":
        v = table.version(gid)
        if table.client.awaits(gid, "discord", ALICE.id):
            await table.cmd(ALICE, "move", text="add 3")
        elif moves % 2:  # Bob plays from Telegram, or from Discord as the same player
            tg.say(TG_BOB, "/move add 3")
        else:
            await table.cmd(BOB_ON_DISCORD, "move", text="add 3")
        moves += 1
        await fake.wait(lambda v=v: table.version(gid) > v, 30, f"move {moves}")
        assert moves < 20
    final = table.version(gid)
    await fake.wait(lambda: any("Game over" in b.content for b in fake.boards()), 30, "the last Discord board")
    await tfake.wait(lambda: any("Game over" in (m.body or "") for m in tfake.photos(tfake.group_id)), 30,
                     "the last Telegram board")
    discord_boards = [b.content for b in fake.boards()]
    telegram_boards = [m.body for m in tfake.photos(tfake.group_id)]
    # every board reached both tables, once each and in order
    assert totals(discord_boards) == totals(telegram_boards)
    assert totals(discord_boards) == sorted(totals(discord_boards)) and len(discord_boards) == final
    assert len(set(telegram_boards)) == len(telegram_boards)
    # Bob's secret reached him privately on Telegram only
    assert any(SECRET in m.body for m in tfake.sent(TG_BOB.id))
    assert not any(SECRET in m.body for m in tfake.group())
    assert not any(SECRET in m.content for m in fake.messages if not m.ephemeral)
    assert fake.unanswered() == []
