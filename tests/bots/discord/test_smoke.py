"""First contact: the bot connects to the fake gateway and answers /agora commands."""

from __future__ import annotations

from tests.bots.discord.conftest import ALICE, BOB, Table


async def test_new_join_begin_move(table: Table) -> None:
    fake = table.fake
    new = await table.cmd(ALICE, "new", game="toy")
    assert "New Toy race table" in new.text(), new.text()
    assert not new.original.ephemeral
    join = await table.cmd(BOB, "join")
    assert "Bob joined" in join.text()
    await table.cmd(ALICE, "begin")
    board = await fake.wait(lambda: fake.boards(), 30, "the first board")
    print(board[0].content, board[0].labels())
    moves = await table.cmd(ALICE, "moves")
    print(moves.text(), [m.labels() for m in moves.replies()])
    move = await table.cmd(ALICE, "move", text="add 2")
    print(move.text(), move.original.ephemeral)
    await fake.wait(lambda: len(fake.boards()) >= 2, 30, "the second board")
    print(fake.boards()[-1].content)
