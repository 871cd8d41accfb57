"""Button payloads live in one hash per game and only while they can act (workers/buttons.py).

Why: buttons were one key each, kept 14 days: about 1.9 KB of Redis memory per move that
outlived the game (issue 12: storage that stays bounded while a game runs). Checked against a
real server: one script call per part, the buttons of earlier turns dropped when a newer turn's
are written, a dropped button still answered with why, older tokens still honoured, and a long
game's buttons within a fixed budget.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from tests.faults.fuzzing import sync_commands
from tests.workers.util import make_game
from workers import buttons, outbox, pipeline
from workers.client import Client
from workers.commands import Context
from workers.commands.base import store_buttons
from workers.store import Store, k_buttons, k_callback

ALICE = Context("console", "table", "alice", "alice")


def payload(gid: str, version: int, posted: int, text: str) -> dict[str, Any]:
    return {"g": gid, "v": version, "s": 0, "pv": posted, "k": "move", "t": text}


def test_a_part_s_buttons_are_one_hash_with_the_game_s_expiry(store: Store) -> None:
    gid = "g1"
    made = [buttons.new_token(gid, 3) for _ in range(12)]
    store_buttons(
        store,
        [(gid, 3, 0, 0, field, json.dumps(payload(gid, 3, 3, f"move {i}"))) for i, (_, field) in enumerate(made)],
    )
    found = buttons.payloads(store, [token for token, _ in made])
    assert [found[token]["t"] for token, _ in made] == [f"move {i}" for i in range(12)]  # type: ignore[index]
    assert buttons.BUTTON_TTL - 5 <= store.r.ttl(k_buttons(gid)) <= buttons.BUTTON_TTL
    assert [k.decode() for k in store.r.scan_iter(match="agora:*")] == [k_buttons(gid)]  # no key per button
    # The script is registered once per store; a server that lost it (a restart, SCRIPT FLUSH)
    # gets it again: redis-py loads it on NOSCRIPT.
    store.r.script_flush()
    token, field = buttons.new_token(gid, 4)
    store_buttons(store, [(gid, 3, 0, 0, field, json.dumps(payload(gid, 4, 3, "again")))])
    assert buttons.payloads(store, [token])[token]["t"] == "again"  # type: ignore[index]


def test_buttons_of_earlier_turns_are_dropped_by_the_first_of_a_newer_turn(store: Store) -> None:
    gid = "g2"

    def write(version: int, posted: int) -> str:
        token, field = buttons.new_token(gid, version)
        store_buttons(store, [(gid, posted, 0, 0, field, json.dumps(payload(gid, version, posted, f"v{version}")))])
        return token

    turn5 = [write(5, 5), write(6, 5), write(7, 5)]  # three steps of the turn posted at version 5
    assert all(buttons.payloads(store, turn5).values())
    turn8 = write(8, 8)
    assert buttons.payloads(store, [*turn5, turn8]) == {
        **{t: None for t in turn5},
        turn8: payload(gid, 8, 8, "v8"),
    }
    # A writer that read the game before the newer turn was posted drops nothing of it.
    late = write(7, 5)
    assert buttons.payloads(store, [turn8])[turn8] is not None
    assert buttons.payloads(store, [late])[late] is not None  # harmless: pressing it says it is stale


def test_a_seat_s_buttons_go_once_it_has_acted_and_stay_while_only_others_did(store: Store) -> None:
    """Within one posted turn: a seat's buttons made before its legal moves changed (it acted)
    are dropped by its newer ones; a seat whose moves did not change (others picked, as in a
    simultaneous step) keeps its buttons, which still act (``same_turn``)."""
    gid = "g3"

    def write(version: int, seat: int, fingerprint: int) -> str:
        token, field = buttons.new_token(gid, version, seat)
        data = {**payload(gid, version, 5, f"v{version}"), "s": seat, "f": fingerprint}
        store_buttons(store, [(gid, 5, seat, fingerprint, field, json.dumps(data))])
        return token

    first = [write(5, 0, 123456789), write(5, 0, 123456789)]
    other = write(5, 1, 70)  # seat 1, awaited at the same time
    later = write(6, 0, 12)  # seat 0 acted: its legal moves changed
    kept = write(7, 1, 70)  # seat 1 again after another pick, the same moves
    found = buttons.payloads(store, [*first, other, later, kept])
    assert [found[t] is not None for t in (*first, other, later, kept)] == [False, False, True, True, True]
    # A token is seen in the chat: nothing derived from the seat's moves (a hidden hand) is in it.
    assert not any(mark in token for token in first for mark in ("123456789", "21i3v9"))


def test_a_press_of_a_dropped_button_says_why_and_older_tokens_still_act(store: Store) -> None:
    gid = make_game(store)
    cmds = sync_commands(store)
    version = pipeline.load(store, gid).version
    gone, _ = buttons.new_token(gid, version - 1)  # a button of an earlier turn, dropped since
    assert [p.code for p in cmds.press(ALICE, gone)] == ["button/stale"]
    assert "earlier moment" in cmds.press(ALICE, gone)[0].text
    unknown, _ = buttons.new_token("g9999", 1)  # a game that is not there (any more)
    assert [p.code for p in cmds.press(ALICE, unknown)] == ["button/expired"]
    # A button made before this layout (its own key) still acts while that key lives.
    loaded = pipeline.load(store, gid)
    seat = sorted(loaded.game.to_move(loaded.state))[0]
    text = loaded.game.notation(loaded.state, seat, loaded.game.legal_actions(loaded.state, seat)[0])
    user = Context("console", "table", loaded.seats[seat].split(":")[1], loaded.seats[seat].split(":")[1])
    legacy = "bAbCdEfGhIjKl"
    store.r.set(k_callback(legacy), json.dumps({"g": gid, "v": loaded.version, "s": seat, "k": "move", "t": text}))
    reply = cmds.press(user, legacy)
    assert reply and reply[0].code not in ("button/expired", "button/stale"), [(p.code, p.text) for p in reply]
    assert pipeline.load(store, gid).version == loaded.version + 1
    # Once the game is over and archived, its buttons are gone and say why.
    loaded = pipeline.load(store, gid)
    name = loaded.seats[sorted(loaded.game.to_move(loaded.state))[0]].split(":")[1]
    mover = Context("console", "table", name, name)
    live = cmds.handle(mover, "moves")[0].buttons[0][0].token
    assert store.r.exists(k_buttons(gid))
    assert cmds.handle(mover, "resign")[0].ok
    assert store.archive(gid) and not store.r.exists(k_buttons(gid))
    assert [p.code for p in cmds.press(ALICE, live)] == ["button/game_over"]


def test_a_long_game_keeps_its_buttons_within_a_fixed_budget(store: Store, redis_url: str) -> None:
    """300 Duellum moves, every outbox message built as a Telegram bot builds it (turn posts
    with the awaited seat's buttons, a prompt for every step): the game's buttons stay within
    8 KB at every move (6.0 KB measured: those of the current step), where one key per button
    had reached ~560 KB (1.9 KB a move, kept 14 days)."""
    gid = make_game(store, "duellum", users=["telegram:21", "telegram:22"], chat="-100b", platform="telegram")
    client = Client(redis_url)
    peak, built = 0, 0
    try:
        for _ in range(300):
            loaded = pipeline.load(store, gid)
            seat = sorted(loaded.game.to_move(loaded.state))[0]
            action = loaded.game.auto_action(loaded.state, seat, zlib.crc32(f"{gid}:{loaded.version}".encode()))
            text = loaded.game.notation(loaded.state, seat, action)
            assert pipeline.submit(store, gid, text=text, idem=f"m{loaded.version}", user=loaded.seats[seat]).ok
            for env in outbox.fetch(store, "telegram", "buttons", count=100, block_ms=1):
                part = client.render(env)
                built += len([b for row in part.buttons for b in row]) if part else 0
                client.mark_sent(env, ack="telegram")
            peak = max(peak, int(store.r.memory_usage(k_buttons(gid), samples=0) or 0))
    finally:
        client.close()
    assert built > 1000  # the game made its buttons ...
    assert not list(store.r.scan_iter(match="agora:callback:*"))  # ... none as a key of its own
    assert peak <= 8 * 1024, peak
