"""Real games over Discord: a complete Antike Duellum with slash commands, autocomplete and
buttons, and an age of 7 Wonders for four with hands as ephemeral replies and no leaks.

Moves come from the engines (tests may import them): the automatic player's choices, typed
through ``/agora move`` (picked from the autocomplete), or pressed as the matching button or
select option, so every move goes through the fake Discord, the handlers, Celery and the
outbox like a player's.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.bots.discord.conftest import ALICE, BOB, CAROL, DAVE, Table
from tests.bots.discord.fake_discord import FakeDiscord, FakeUser, Msg
from tests.bots.telegram.playbook import auto_notation, plan_duellum
from workers import outbox


def loaded_state(table: Table, gid: str) -> tuple[Any, Any, int]:
    from engine import find_game

    game = find_game(table.client.store.meta(gid)["game"])
    version, snap = table.client.store.snapshot(gid)
    assert snap is not None
    return game, game.load(json.loads(snap)), version


async def wait_version(table: Table, gid: str, version: int, timeout: float = 30.0) -> None:
    await table.fake.wait(lambda: table.version(gid) >= version, timeout, f"version {version}")


USED = {"button": 0, "select": 0}  # how moves were pressed (both kinds must be exercised)


async def press_move(table: Table, user: FakeUser, msg: Msg, notation: str, group: str) -> bool:
    """Press ``notation`` on ``msg`` (a button or a select option), opening its group page
    first when the moves are grouped. False when it is not there."""
    fake = table.fake
    for _ in range(6):
        for b in msg.buttons():
            if b.get("label") == notation[:80]:
                inter = await table.press(user, msg, b["custom_id"])
                await fake.wait(lambda inter=inter: inter.followups, 20, "the press answered")
                USED["button"] += 1
                return inter.followups[0].content.startswith("✓")
        for s in msg.selects():
            for o in s["options"]:
                if o["label"] == notation[:100]:
                    inter = await table.press(user, msg, s["custom_id"], [o["value"]])
                    await fake.wait(lambda inter=inter: inter.followups, 20, "the choice answered")
                    USED["select"] += 1
                    return inter.followups[0].content.startswith("✓")
        opener = [b for b in msg.buttons() if b["label"].startswith(f"{group} (") or b["label"] == "more …"]
        if not opener:
            return False
        before = msg.labels()
        await table.press(user, msg, opener[0]["custom_id"], followup=False)
        await fake.wait(lambda before=before: msg.labels() != before, 10, "a page of moves")
    return False


@pytest.mark.slow
async def test_complete_duellum_game_with_slash_commands_autocomplete_and_buttons(table: Table) -> None:
    from engine import find_game

    fake = table.fake
    game = find_game("duellum")
    seed, moves, outcome = plan_duellum()
    helped = await table.cmd(ALICE, "help", game="duellum")
    assert "Examples from an opening position" in helped.text()
    await table.cmd(ALICE, "new", game="duellum")
    await table.cmd(BOB, "join")
    await table.cmd(ALICE, "begin", options=f"seed={seed}")  # the planned deal
    first = await fake.wait(lambda: fake.boards(), 30, "the first board")
    gid = table.gid()
    assert "The game begins" in first[0].content and first[0].files
    users = {0: ALICE, 1: BOB}
    version = table.version(gid)
    pressed = completed = 0
    for i, (seat, text) in enumerate(moves):
        user = users[seat]
        if 2 <= i < 14:
            listing = await table.cmd(user, "moves")
            menu = listing.replies()[-1]
            assert menu.ephemeral
            if await press_move(table, user, menu, text, game.action_group(text)):
                pressed += 1
                version += 1
                await wait_version(table, gid, version)
                continue
        if i < 40:
            typed = text[: max(3, len(text) // 2)]
            choices = await fake.autocomplete(user, "move", "text", text=typed)
            values = [c["value"] for c in choices]
            assert len(values) <= 25 and text in values, (typed, text, values)
            completed += 1
        inter = await fake.slash(user, "move", text=text)
        version += 1
        await wait_version(table, gid, version)
        if i < 2:
            await fake.done(inter)
            assert all(m.ephemeral for m in inter.replies())
    assert pressed >= 3, "buttons were used"
    assert completed >= 20, "moves were picked from the autocomplete"

    final = await fake.wait(lambda: [m for m in fake.boards() if "🏁 Game over" in m.content], 60, "game over")
    assert outcome.reason in final[-1].content
    meta = table.client.store.meta(gid)
    assert meta["status"] == "over" and json.loads(meta["result"])["winners"] == list(outcome.winners)
    await fake.wait(lambda: not outbox.undelivered(table.client.store, "discord"), 30)
    boards = fake.boards()
    assert len(boards) == len({b.id for b in boards}) > 20
    numbers = [int(n) for b in boards for n in re.findall(r"— Turn (\d+)\b", b.content)]
    assert len(numbers) == len(boards) - 1 and numbers == sorted(numbers), "boards arrive in turn order"
    assert not [m for m in fake.messages if "went wrong" in m.content]
    assert fake.unanswered() == []


def hidden_card_names(game: Any, state: Any, seats: int) -> set[str]:
    """Cards in a hand, picked and not yet revealed, or tucked under a wonder, that no public
    view shows — the platform leak test's notion of hidden, for ``seats`` players."""
    hidden: set[str] = set()
    for seat in range(seats):
        view = game.view(state, seat)
        hidden.update(card["name"] for card in view.get("hand") or [])
        for pick in view.get("my_picks") or []:
            hidden.add(pick["move"].split(" ", 1)[1].split(" pay ")[0].title())
        hidden.update(view["cards"][cid]["name"] for cid in view.get("tucked") or [])
    public = game.view(state, None)
    shown = {public["cards"][i]["name"] for city in public["cities"] for ids in city["structures"].values()
             for i in ids}
    shown |= {public["cards"][x["card"]]["name"] for x in public.get("last_turn") or [] if "card" in x}
    # names that are also words of every public view (a wonder "The Statue of Zeus") cannot be
    # told apart in free text; the platform leak test leaves them out the same way
    static = json.dumps({k: v for k, v in public.items() if k != "cards"}).lower()
    return {h for h in hidden - shown if h.lower() not in static}


def assert_no_leak(fake: FakeDiscord, game: Any, state: Any, seats: int) -> None:
    """No channel message (text, caption or component label) names a hidden card."""
    from tests.platform.test_seven_wonders_leaks import _assert_clean

    hidden = hidden_card_names(game, state, seats)
    assert hidden, "the hands are not empty"
    for m in fake.messages:
        if m.ephemeral or m.channel in fake.dm_users:
            continue
        _assert_clean(m.content + " " + " ".join(m.labels()), hidden, f"channel message {m.id}")


@pytest.mark.slow
async def test_seven_wonders_age_for_four_with_ephemeral_hands_and_no_leaks(table: Table) -> None:
    import renderer

    fake = table.fake
    users = [ALICE, BOB, CAROL, DAVE]
    await table.cmd(ALICE, "new", game="seven-wonders")
    for user in users[1:]:
        await table.cmd(user, "join")
    await table.cmd(ALICE, "begin")
    await fake.wait(lambda: fake.boards(), 30, "the first board")
    gid = table.gid()
    game, state, _ = loaded_state(table, gid)
    assert_no_leak(fake, game, state, 4)
    hands = {}
    for seat, user in enumerate(users):
        hand = [c["name"] for c in game.view(state, seat)["hand"]]
        hands[user.id] = hand
        shown = await table.cmd(user, "hand")
        assert all(m.ephemeral and m.viewer == user.id for m in shown.replies())
        assert all(n in shown.text() for n in hand), (hand, shown.text())
    for user in users:  # nobody's hand reached another player's DMs
        others = {n for u, h in hands.items() if u != user.id for n in h} - set(hands[user.id])
        assert not [m for m in fake.dms(user) if any(n in m.content for n in others)]

    boards_seen = 1
    step = 0
    while True:
        game, state, version = loaded_state(table, gid)
        view = game.view(state, None)
        if view["age"] != 1 or game.outcome(state) is not None:
            break
        for seat in sorted(game.to_move(state)):
            game, state, version = loaded_state(table, gid)
            if seat not in game.to_move(state):
                continue
            user = users[seat]
            text = auto_notation(game, state, seat, f"{gid}:{version}:{seat}")
            step += 1
            done = False
            if step % 2:
                # this turn's prompt (with the hand and buttons) arrives in the player's DMs
                posted = int(table.client.store.meta(gid)["posted_v"])
                prompt = await fake.wait(
                    lambda user=user, v=posted: [m for m in fake.dms(user) if "Your turn" in m.content
                                                 and m.custom_ids() and int(m.custom_ids()[0].split(":")[3]) >= v],
                    15, f"{user.name}'s prompt")
                done = await press_move(table, user, prompt[-1], text, game.action_group(text))
            if not done:
                inter = await table.cmd(user, "move", text=text)
                assert all(m.ephemeral for m in inter.replies()), inter.text()
            await wait_version(table, gid, version + 1)
        game, state, version = loaded_state(table, gid)
        posted = int(table.client.store.meta(gid)["posted_v"])
        if posted == version:  # a new turn: its board, drawn from the public view only
            boards_seen += 1
            boards = await fake.wait(lambda n=boards_seen: fake.boards()[n - 1:], 20, "turn board")
            snap = table.client.store.snapshot_at(gid, posted)
            assert snap is not None
            at = game.load(json.loads(snap))
            public_view = game.view(at, None)
            names = table.client.store.names(gid)  # who plays each seat, as the board names them
            public_view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(at)))]
            assert next(iter(boards[-1].files.values())) == renderer.render(game.id, public_view)
        assert_no_leak(fake, game, state, 4)

    assert boards_seen >= 7, "a whole age was played, one board per turn"
    assert USED["select"] + USED["button"] >= 5, USED
    assert view["age"] == 2 or game.outcome(state) is not None
    assert not [m for m in fake.messages if "went wrong" in m.content]
    assert fake.unanswered() == []
