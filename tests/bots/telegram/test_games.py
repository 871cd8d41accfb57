"""Real games over Telegram: a complete Antike Duellum, and an age of 7 Wonders without leaks.

Moves come from the engines (tests may import them): the automatic player's choices, typed as
``/move <notation>`` or pressed as the matching button, so the game is a real one and every
move goes through the fake Bot API, the handlers, Celery and the outbox like a player's.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest

from tests.bots.telegram.conftest import ALICE, BOB, CAROL, Table
from tests.bots.telegram.fake_api import FakeBotApi, FakeUser, Msg
from tests.bots.telegram.playbook import auto_notation, plan_duellum
from workers import outbox


def loaded_state(table: Table, gid: str) -> tuple[Any, Any, int]:
    from engine import find_game

    game = find_game(table.client.store.meta(gid)["game"])
    version, snap = table.client.store.snapshot(gid)
    assert snap is not None
    return game, game.load(json.loads(snap)), version


def keyboards_of(fake: FakeBotApi, user: FakeUser) -> list[Msg]:
    return [m for m in fake.sent(user.id) if any("callback_data" in b for b in m.buttons())]


async def press_move(table: Table, user: FakeUser, notation: str, group_label: str) -> bool:
    """Press the button of ``notation`` on the user's live keyboard in the private chat,
    opening its group page first when the moves are grouped. False if there is none."""
    fake = table.fake
    boards = keyboards_of(fake, user)
    if not boards:
        return False
    msg = boards[-1]
    for _ in range(4):
        labels = msg.labels()
        if notation[:60] in labels:
            answered = set(fake.answers)
            fake.press(user, msg, notation[:60])
            # the pressed keyboard is taken away once the move is in (its buttons are stale), or
            # replaced in place by the next step's buttons when the turn goes on
            await fake.wait(lambda labels=labels: msg.labels() != labels, 20, "the pressed keyboard changed")
            new = await fake.wait(lambda seen=answered: set(fake.answers) - seen, 20, "the press answered")
            # A keyboard from an earlier moment (its prompt was delivered before the last move
            # landed) is refused with a notice and removed: correct, but not a move made.
            return all((fake.answers[q] or "").startswith("✓") for q in new)
        opener = [x for x in labels if x.startswith(f"{group_label} (") or x == "more …"]
        if not opener:
            return False
        fake.press(user, msg, opener[0])
        await fake.wait(lambda labels=labels: msg.labels() != labels, 10, "page of moves")
    return False


async def wait_version(table: Table, gid: str, version: int, timeout: float = 30.0) -> None:
    await table.fake.wait(lambda: table.version(gid) >= version, timeout, f"version {version}")


@pytest.mark.slow
async def test_complete_duellum_game_in_a_group(table: Table) -> None:
    from engine import find_game

    fake = table.fake
    game = find_game("duellum")
    seed, moves, outcome = plan_duellum()

    for user in (ALICE, BOB):
        await table.ask(user, "/start", private=True)
    # help teaches the notation with examples that are real legal moves of an opening
    helped = (await table.ask(ALICE, "/help duellum"))[-1].body
    line = helped.split("Examples from an opening position:", 1)[1].split("\n", 1)[0]
    examples = re.findall(r"move ([^,.]+)", line)
    opening = game.new_game(1, 2, {})
    assert len(examples) >= 3
    for text in examples:
        game.parse(opening, min(game.to_move(opening)), text)
    await table.ask(ALICE, "/new duellum")
    await table.ask(BOB, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, f"/begin seed={seed}")  # the planned deal
    first = await table.turn_photo(after=t0)
    gid = table.gid()
    assert "The game begins" in first.body and first.photo
    users = {0: ALICE, 1: BOB}
    version = table.version(gid)
    pressed = typed = 0
    for i, (seat, text) in enumerate(moves):
        user = users[seat]
        if 2 <= i < 14:
            # a few moves by buttons: a fresh `/moves` keyboard in the private chat (a keyboard
            # left from before the last move is stale by design, and under load the prompt of a
            # new turn may still be on its way)
            await table.ask(user, "/moves", private=True)
            if await press_move(table, user, text, game.action_group(text)):
                pressed += 1
                version += 1
                await wait_version(table, gid, version)
                continue
        uid = table.say(user, f"/move {text}")
        typed += 1
        version += 1
        await wait_version(table, gid, version)
        if i < 2:
            await table.handled(uid)
            assert len(fake.reactions_to(uid)) == 1
    assert pressed >= 3, "buttons were used"

    final = await fake.wait(lambda: [m for m in fake.photos(fake.group_id) if "🏁 Game over" in m.body], 60)
    assert outcome.reason in final[-1].body
    meta = table.client.store.meta(gid)
    assert meta["status"] == "over" and json.loads(meta["result"])["winners"] == list(outcome.winners)
    # every posted turn became exactly one board photo, in order, and nothing failed
    await fake.wait(lambda: not outbox.undelivered(table.client.store, "telegram"), 30)
    turns = [m for m in fake.photos(fake.group_id) if m.reply_to is None]
    assert len(turns) == len({m.body + str(m.message_id) for m in turns}) > 20
    numbers = [int(n) for m in turns for n in re.findall(r"— Turn (\d+)\b", m.body)]
    assert len(numbers) == len(turns) - 1 and numbers == sorted(numbers), "boards arrive in turn order"
    assert not [m for m in fake.sent() if "Something went wrong" in m.body]
    assert not fake.unanswered()
    assert all(c.status == 200 for c in fake.calls if c.method in ("sendMessage", "sendPhoto"))


def boards(fake: FakeBotApi, at_least: int) -> list[Msg]:
    """The turn boards posted in the group, once there are ``at_least`` of them."""
    out = [m for m in fake.photos(fake.group_id) if m.reply_to is None]
    return out if len(out) >= at_least else []


def hidden_card_names(game: Any, state: Any, seats: int) -> set[str]:
    """Names of cards in any hand that no public view shows (built cards are public)."""
    public = json.dumps(game.view(state, None))
    names: set[str] = set()
    for seat in range(seats):
        for card in game.view(state, seat).get("hand") or []:
            if card["name"] not in public:
                names.add(card["name"])
    return names


def assert_no_leak(fake: FakeBotApi, game: Any, state: Any) -> None:
    hidden = hidden_card_names(game, state, 3)
    assert hidden, "the hands are not empty"
    for m in fake.group():
        seen = m.body + " " + " ".join(m.labels())
        leaked = [n for n in hidden if n in seen]
        assert not leaked, f"group message names hidden cards {leaked}: {seen!r}"


@pytest.mark.slow
async def test_seven_wonders_age_without_leaks(table: Table) -> None:
    import renderer

    fake = table.fake
    users = [ALICE, BOB, CAROL]
    for user in (ALICE, BOB):
        await table.ask(user, "/start", private=True)
    await table.ask(ALICE, "/new seven-wonders")
    await table.ask(BOB, "/join")
    await table.ask(CAROL, "/join")
    t0 = time.perf_counter()
    await table.ask(ALICE, "/begin")
    await table.turn_photo(after=t0)
    gid = table.gid()
    game, state, _ = loaded_state(table, gid)

    # Carol never opened the private chat: a deep link in the group, then her hand there
    invite = await fake.wait(lambda: [m for m in fake.group() if "Carol" in m.body and m.buttons()], 10)
    url = invite[0].buttons()[0]["url"]
    assert not [m for m in fake.sent(CAROL.id)]
    assert_no_leak(fake, game, state)
    await table.ask(CAROL, "/start " + url.split("start=", 1)[1], private=True)
    hands = {}
    for seat, user in enumerate(users):
        hand = [c["name"] for c in game.view(state, seat)["hand"]]
        hands[user.id] = hand
        await fake.wait(
            lambda user=user, hand=hand: [m for m in fake.sent(user.id) if all(n in m.body for n in hand)],
            10,
            f"{user.first_name}'s hand in the private chat",
        )
    for user in users:  # nobody's hand reached another private chat
        others = {n for u, h in hands.items() if u != user.id for n in h} - set(hands[user.id])
        assert not [m for m in fake.sent(user.id) if any(n in m.body for n in others)]

    turn_photos = 1
    step = 0
    turn_t0 = t0  # prompts of a turn are sent after the move that started it
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
            # every awaited player gets this turn's prompt (hand and buttons) in private
            await fake.wait(
                lambda user=user, t=turn_t0: [m for m in keyboards_of(fake, user) if m.at >= t],
                10,
                f"no 'your turn' prompt for {user.first_name} in {view['awaiting']}",
            )
            step += 1
            picked_at = time.perf_counter()
            if step % 2 and await press_move(table, user, text, game.action_group(text)):
                pass
            else:
                table.say(user, f"/move {text}", private=True)
            await wait_version(table, gid, version + 1)
        game, state, version = loaded_state(table, gid)
        posted = int(table.client.store.meta(gid)["posted_v"])
        if posted == version:  # a new turn: its board photo, drawn from the public view only
            turn_t0 = picked_at
            turn_photos += 1
            photos = await fake.wait(lambda n=turn_photos: boards(fake, n), 20, "turn photo")
            snap = table.client.store.snapshot_at(gid, posted)
            assert snap is not None
            at = game.load(json.loads(snap))
            public_view = game.view(at, None)
            names = table.client.store.names(gid)  # who plays each seat, as the board names them
            public_view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(at)))]
            assert photos[-1].photo == renderer.render(game.id, public_view)
        assert_no_leak(fake, game, state)

    assert turn_photos >= 7, "a whole age was played, one board per turn"
    assert view["age"] == 2 or game.outcome(state) is not None
    assert not [m for m in fake.sent() if "Something went wrong" in m.body]
    assert not fake.unanswered()
