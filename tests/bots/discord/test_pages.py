"""Turn posts with pages over Discord: a game of The Capitals posts its central board and one
image per city as files of the same message (the board first, with the text and the move
components); other games post the board alone; `/agora board` shows the pages too."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bots.discord.conftest import ALICE, BOB, CAROL, Table


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


@pytest.mark.slow
async def test_capitals_turn_post_carries_the_board_and_one_file_per_city(table: Table) -> None:
    import renderer

    fake = table.fake
    await table.cmd(ALICE, "new", game="capitals")
    await table.cmd(BOB, "join")
    await table.cmd(CAROL, "join")
    await table.cmd(ALICE, "begin")
    first = (await fake.wait(lambda: fake.boards(), 30, "the first board"))[0]
    gid = table.gid()
    assert "The game begins" in first.content
    game_id, view = public_view(table, gid, table.version(gid))
    assert list(first.files) == ["board.png", "page1.png", "page2.png", "page3.png"]
    assert list(first.files.values()) == [renderer.render(game_id, view), *renderer.render_pages(game_id, view)]
    assert len(fake.boards()) == 1  # one message, not one per image

    shown = await table.cmd(ALICE, "board")
    assert shown.original is not None and list(shown.original.files)[1:] == ["page1.png", "page2.png", "page3.png"]


@pytest.mark.slow
async def test_other_games_post_the_board_alone(table: Table) -> None:
    fake = table.fake
    await table.cmd(ALICE, "new", game="duellum")
    await table.cmd(BOB, "join")
    await table.cmd(ALICE, "begin")
    first = (await fake.wait(lambda: fake.boards(), 30, "the first board"))[0]
    assert list(first.files) == ["board.png"]


def test_files_past_ten_go_in_batches_after_the_board() -> None:
    """Discord takes at most ten files a message: the board and nine pages first, the rest after."""
    from bots.discord.sender import Sender
    from workers.client import Part

    batches = Sender.files_for(Part(image=b"board", pages=[b"p"] * 12))
    assert [len(b) for b in batches] == [10, 3]
    assert batches[0][0].filename == "board.png" and batches[1][-1].filename == "page12.png"
    assert Sender.files_for(Part(text="no image")) == []
