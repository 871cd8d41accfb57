"""Turn posts with pages over Telegram: a game of The Capitals posts its central board (with
the caption and the keyboard) and then one image per city as an album; other games post the
board alone; a page that cannot be built yet keeps the turn pending until it can."""

from __future__ import annotations

import json
import time
from typing import Any
from unittest import mock

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from tests.bots.telegram.conftest import ALICE, BOB, CAROL, Table
from tests.bots.telegram.playbook import auto_notation
from workers import outbox


def public_view(table: Table, gid: str, version: int) -> tuple[str, dict[str, Any]]:
    """The game id and the public view at ``version``, with the players' names as posted."""
    from engine import find_game

    store = table.client.store
    game = find_game(store.meta(gid)["game"])
    snap = store.snapshot_at(gid, version)
    assert snap is not None
    state = game.load(json.loads(snap))
    view = dict(game.view(state, None))
    names = store.names(gid)
    view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(state)))]
    return game.id, view


async def settled(table: Table) -> None:
    """Every outbox message delivered."""
    await table.fake.wait(
        lambda: not outbox.undelivered(table.client.store, "telegram"), 30, "delivery"
    )


@pytest.mark.slow
async def test_capitals_turn_post_is_the_board_then_an_album_of_cities(table: Table) -> None:
    import renderer
    from engine import find_game

    fake = table.fake
    users = [ALICE, BOB, CAROL]
    await table.ask(ALICE, "/new capitals")
    await table.ask(BOB, "/join")
    await table.ask(CAROL, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, "/begin")
    board = await table.turn_photo(after=t0)
    gid = table.gid()
    assert "The game begins" in board.body
    albums = await fake.wait(lambda: fake.albums(fake.group_id), 30, "the album of cities")
    game_id, view = public_view(table, gid, table.version(gid))
    assert board.photo == renderer.render(game_id, view)
    assert [m.photo for m in albums[0]] == renderer.render_pages(game_id, view)
    assert len(albums[0]) == 3 and board.message_id < albums[0][0].message_id
    assert all(m.caption is None and not m.reply_markup for m in albums[0])

    # two more turns: every turn post brings its own album, drawn at its own version
    game = find_game("capitals")
    for _ in range(2):
        version = table.version(gid)
        _, snap = table.client.store.snapshot(gid)
        state = game.load(json.loads(snap or "{}"))
        seat = min(game.to_move(state))
        table.say(users[seat], f"/move {auto_notation(game, state, seat, f'{gid}:{version}')}")
        await table.fake.wait(lambda v=version: table.version(gid) > v, 30, "the move")
    await settled(table)
    posted = int(table.client.store.meta(gid)["posted_v"])
    albums = fake.albums(fake.group_id)
    turns = [m for m in fake.photos(fake.group_id) if m.album is None and m.reply_to is None]
    assert len(albums) == len(turns) >= 2
    _, last_view = public_view(table, gid, posted)
    assert turns[-1].photo == renderer.render(game_id, last_view)
    assert [m.photo for m in albums[-1]] == renderer.render_pages(game_id, last_view)
    assert all(c.status == 200 for c in fake.calls if c.method == "sendMediaGroup")


@pytest.mark.slow
async def test_other_games_post_no_album(table: Table) -> None:
    fake = table.fake
    await table.ask(ALICE, "/new duellum")
    await table.ask(BOB, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, "/begin")
    await table.turn_photo(after=t0)
    await settled(table)
    assert not fake.method_calls("sendMediaGroup") and not fake.albums()


@pytest.mark.slow
async def test_a_page_that_cannot_be_built_keeps_the_turn_pending(table: Table) -> None:
    from workers import images

    fake = table.fake
    await table.ask(ALICE, "/new capitals")
    await table.ask(BOB, "/join")
    real = images.page_pngs
    failing = {"on": True, "calls": 0}

    def flaky(*args: Any, **kwargs: Any) -> list[bytes]:
        if failing["on"]:
            failing["calls"] += 1
            raise RedisConnectionError("the store is restarting")
        return real(*args, **kwargs)

    with mock.patch.object(images, "page_pngs", flaky):
        t0 = time.perf_counter()
        await table.ask(ALICE, "/begin")
        await fake.wait(lambda: failing["calls"] >= 2, 30, "the turn was tried and retried")
        assert not [m for m in fake.group(since=t0) if m.photo], "no board without its pages"
        failing["on"] = False
        await table.turn_photo(after=t0)
        albums = await fake.wait(lambda: fake.albums(fake.group_id), 30, "the album after the retry")
    await settled(table)
    assert len(albums) == 1 and len(albums[0]) == 2
    assert len([m for m in fake.photos(fake.group_id) if m.album is None and m.reply_to is None]) == 1


async def test_pages_go_in_albums_of_ten_and_a_lone_page_as_a_photo(fake: Any) -> None:
    """Telegram's album holds 2 to 10 photos: 11 pages are an album of 10 and one photo; a
    single page is a photo (no game has that many pages today; the adapter must not care)."""
    import io
    from concurrent.futures import ThreadPoolExecutor

    from PIL import Image
    from telegram import Bot

    from bots.telegram.sender import Sender
    from tests.bots.telegram.fake_api import TOKEN

    def png(shade: int) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (40, 30), (shade, shade, shade)).save(out, "PNG")
        return out.getvalue()

    chat = fake.add_group(-100_4242, "Pages")
    bot = Bot(TOKEN, base_url=fake.base_url, base_file_url=fake.base_url.replace("/bot", "/file/bot"))
    await bot.initialize()
    pool = ThreadPoolExecutor(1)
    try:
        sender = Sender(bot, client=None, pool=pool)  # type: ignore[arg-type]  # pages need no store
        pages = [png(i * 20) for i in range(11)]
        await sender.send_pages(str(chat), pages)
        await sender.send_pages(str(chat), [png(250)])
    finally:
        await bot.shutdown()
        pool.shutdown()
    sent = fake.sent(chat)
    assert [m.photo for m in fake.albums(chat)[0]] == pages[:10] and len(fake.albums(chat)) == 1
    assert [(m.method, m.photo) for m in sent[10:]] == [("sendPhoto", pages[10]), ("sendPhoto", png(250))]
