"""Timers, reminders, vacations, pauses, autopilot, substitutes and ``myturns`` through the
command layer, against the real server with a settable clock. Sweeps call
``deadlines.process`` the way the beat's ``sweep`` task does; timeouts and automatic moves run
the real task functions in this process.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.workers.test_undo_resign import sync_commands
from tests.workers.util import PLUGINS_ALL, A, B, assert_replays, db_image, make_game, outbox_messages, record
from workers import deadlines, lobby, pipeline, tasks
from workers.commands import Commands, Context
from workers.store import PARTITIONS, Store, k_deadlines, k_deadlines_in, k_meta

DAY = 1_800_057_600  # 2027-01-16 00:00 UTC
H = 3600.0
C = "console:carol"


@pytest.fixture
def clock(store: Store, monkeypatch: pytest.MonkeyPatch, app: Any) -> list[float]:
    now = [DAY + 10 * H]
    monkeypatch.setattr(store, "now", lambda: now[0])
    monkeypatch.setattr(tasks, "_store", store)
    return now


@pytest.fixture
def cmds(store: Store) -> Commands:
    return sync_commands(store)


def say(cmds: Commands, user: str, text: str, chat: str = "table") -> tuple[bool, str]:
    platform, _, uid = user.partition(":")
    reply = cmds.handle(Context(platform, chat, uid, uid), text)
    return all(p.ok for p in reply), "\n".join(p.text for p in reply)


class Sweeper:
    """One sweeper: enqueues nothing, runs the tasks' functions right away (in order)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def __call__(self, now: float) -> int:
        def handle(gid: str) -> None:
            deadlines.process(
                self.store,
                gid,
                now,
                run_auto=lambda g, s, v: tasks.auto(g, s, v),
                submit_timeout=lambda g, s, t, k: tasks.timeout(g, s, t, k),
            )

        return deadlines.sweep_due(self.store, now, handle)


def reminders(store: Store, seat: int | None = None) -> list[tuple[str, str]]:
    return [
        (m["game"], m["lead"])
        for m in outbox_messages(store)
        if m["type"] == "reminder" and (seat is None or m["seat"] == seat)
    ]


def game_image_of(image: dict[str, Any]) -> dict[str, Any]:
    """A database image without what any command writes about its sender (name, chat)."""
    return {k: v for k, v in image.items() if not k.startswith(("agora:u:", "agora:names:"))}


def game_image(store: Store) -> dict[str, Any]:
    return game_image_of(db_image(store))


def notices(store: Store) -> list[str]:
    return [m["text"] for m in outbox_messages(store) if m["type"] == "notice"]


# ------------------------------------------------------------------ presets
def test_presets_at_new_and_the_creator_changes_the_timer(store: Store, clock: list[float], cmds: Commands) -> None:
    ok, text = say(cmds, A, "new toy timer=fast bank=10m misses=3 vacation=3d")
    assert ok and "Timer: fast (1 hour per turn)" in text and "time bank 10 minutes" in text, text
    say(cmds, B, "join")
    assert say(cmds, A, "begin seed=3")[0]
    gid = store.chat_game("console", "table")
    assert gid is not None
    meta = store.meta(gid)
    assert float(meta["deadline_at"]) == clock[0] + H and meta["bank_secs"] == "600" and meta["miss_limit"] == "3"
    # a non-creator cannot change it: a clear reply, nothing written
    before = db_image(store)
    ok, text = say(cmds, B, "timer blitz")
    assert not ok and "Only the player who opened this table" in text
    assert db_image(store) == before
    clock[0] += 30 * 60
    ok, text = say(cmds, A, "timer relaxed")
    assert ok and "relaxed (3 days per turn)" in text
    assert float(store.meta(gid)["deadline_at"]) == DAY + 10 * H + 72 * H  # counted from the turn's start
    ok, text = say(cmds, A, "timer blitz")
    assert ok and float(store.meta(gid)["deadline_at"]) == clock[0] + 300  # never sooner than 5 minutes
    ok, text = say(cmds, A, "timer off")
    assert ok and "deadline_at" not in store.meta(gid)
    assert store.r.zscore(k_deadlines(gid), gid) == DAY + 10 * H + 24 * H  # a gentle reminder after a day
    for bad in ("timer soon", "timer 10s", "timer 99d", "timer fast slow", "timer bank=-1h"):
        ok, text = say(cmds, A, bad)
        assert not ok and ("`timer` takes a preset" in text or "`bank`" in text), (bad, text)
    ok, text = say(cmds, A, "new toy timer=sometimes", chat="other")
    assert not ok and "`timer` takes a preset" in text


def test_time_bank_is_drawn_by_a_slow_turn(store: Store, clock: list[float]) -> None:
    gid = make_game(store, turn_hours=1)
    store.r.hset(k_meta(gid), "bank_secs", "1800")
    sweep = Sweeper(store)
    clock[0] += H + 10 * 60  # ten minutes into alice's bank: no timeout
    sweep(clock[0])
    assert record(store, gid)[0] == 1
    assert pipeline.submit(store, gid, text="add 1", idem="a1", user=A).ok
    assert float(store.meta(gid)["bank_used:0"]) == 600
    assert pipeline.submit(store, gid, text="add 1", idem="b1", user=B).ok
    # alice's next turn: 1 h plus the 20 minutes left in her bank
    start = clock[0]
    sweep(start + H + 19 * 60)
    assert record(store, gid)[0] == 3
    sweep(start + H + 20 * 60 + 1)
    _, log = assert_replays(store, gid)
    assert log[-1]["src"] == "timeout" and log[-1]["s"] == 0


# ------------------------------------------------------------------ reminders
def test_reminders_once_at_each_lead_time_none_after_the_move(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=4)
    start = clock[0]
    sweep = Sweeper(store)
    assert store.r.zscore(k_deadlines(gid), gid) == start + 2 * H  # half time
    sweep(start + 2 * H - 1)
    assert reminders(store) == []
    sweep(start + 2 * H)
    sweep(start + 2 * H + 1)
    Sweeper(Store(store.r.__class__.from_url(os.environ.get("REDIS_URL") or _url(store))))(start + 2 * H + 2)
    assert reminders(store) == [(gid, "half")]
    assert store.r.zscore(k_deadlines(gid), gid) == start + 3 * H  # an hour before the deadline
    sweep(start + 3 * H + 5)
    sweep(start + 3 * H + 6)
    assert reminders(store) == [(gid, "half"), (gid, "3600s")]
    msg = [m for m in outbox_messages(store) if m["type"] == "reminder"][-1]
    part = cmds.reminder_part(msg)
    assert part is not None and "Toy race" in part.text and "59 minutes left" in part.text and part.buttons
    clock[0] = start + 3 * H + 10
    assert pipeline.submit(store, gid, text="add 1", idem="a", user=A).ok
    assert cmds.reminder_part(msg) is None  # the move was made: the reminder is out of date
    sweep(start + 3.9 * H)
    assert reminders(store, 0) == [(gid, "half"), (gid, "3600s")] and reminders(store, 1) == []
    # bob mutes this turn: nothing at his half time or an hour before; his next turn reminds him
    ok, _ = say(cmds, B, "mute")
    assert ok
    sweep(clock[0] + 3 * H + 1)
    assert reminders(store, 1) == []
    clock[0] += 3 * H + 2
    assert pipeline.submit(store, gid, text="add 1", idem="b", user=B).ok
    assert pipeline.submit(store, gid, text="add 1", idem="a2", user=A).ok
    sweep(clock[0] + 2 * H + 1)
    assert reminders(store, 1) == [(gid, "half")]


def _url(store: Store) -> str:
    kw = store.r.connection_pool.connection_kwargs
    return f"redis://{kw['host']}:{kw['port']}/{kw.get('db', 0)}"


def test_reminder_without_a_private_chat_is_a_mention_in_the_game_chat(store: Store, clock: list[float]) -> None:
    from workers.client import Client

    make_game(store, "sim", turn_hours=2, platform="telegram", users=("telegram:1", "telegram:2"))
    store.r.hset("agora:u:telegram:1", mapping={"name": "Ann", "dm": "501"})
    store.r.hset("agora:u:telegram:2", mapping={"name": "Ben"})
    Sweeper(store)(clock[0] + H + 1)
    msgs = [m for m in outbox_messages(store, "telegram") if m["type"] == "reminder"]
    assert sorted(m["user"] for m in msgs) == ["telegram:1", "telegram:2"]
    client = Client.__new__(Client)
    client.store = store
    from workers.outbox import Envelope

    routes = {m["user"]: client.destination(Envelope("1-0", m)) for m in msgs}
    assert routes == {"telegram:1": ("501", True), "telegram:2": ("table", False)}
    cmds = sync_commands(store)
    ben = cmds.reminder_part(next(m for m in msgs if m["user"] == "telegram:2"))
    assert ben is not None and not ben.private and ben.text.startswith("⏰ Ben,") and not ben.buttons
    assert (ben.mention, ben.mention_name) == ("telegram:2", "Ben")  # the adapter notifies Ben
    from bots.telegram.format import to_html
    from bots.telegram.sender import mention_html

    assert mention_html(to_html(ben.text), ben).startswith('⏰ <a href="tg://user?id=2">Ben</a>,')
    from dataclasses import replace

    from bots.discord.sender import mention_text

    on_discord = replace(ben, mention="discord:77")
    assert mention_text(on_discord.text, on_discord).startswith("⏰ <@77>,")
    assert mention_text(ben.text, ben) == ben.text  # a Telegram user is not mentioned on Discord
    ann = cmds.reminder_part(next(m for m in msgs if m["user"] == "telegram:1"))
    assert ann is not None and ann.private and ann.buttons


# ------------------------------------------------------------------ vacation
def test_vacation_stops_the_clock_and_is_charged(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=24)
    start = clock[0]
    sweep = Sweeper(store)
    ok, text = say(cmds, A, "away 3d")
    assert ok and "vacation left in this game: 4 days" in text, text
    assert float(store.meta(gid)["ext:0"]) == 3 * 86400
    sweep(start + 24 * H + 1)  # the old deadline: alice is away, nothing is played or sent
    assert record(store, gid)[0] == 1 and reminders(store) == []
    ok, text = say(cmds, A, "status")
    assert "(alice) is away for 3 days more" in text, text
    clock[0] = start + 36 * H  # back after a day and a half: a day and a half refunded
    ok, text = say(cmds, A, "back")
    assert ok and "1 day and 12 hours of vacation given back" in text, text
    meta = store.meta(gid)
    assert float(meta["away_used:0"]) == 36 * H and float(meta["ext:0"]) == 36 * H
    assert "is back" in notices(store)[-1]
    # budget: 7 days, 1.5 used; 6 days more is refused, clearly, and changes nothing
    before = db_image(store)
    ok, text = say(cmds, A, "away 6d")
    assert not ok and "more than your vacation time left" in text and "5 days and 12 hours" in text, text
    ok2, text2 = say(cmds, A, "away 400d")
    assert not ok2 and "at most" in text2
    ok3, text3 = say(cmds, A, "away soon")
    assert not ok3 and "away 3d" in text3
    assert db_image(store) == before
    # the deadline is the old one plus the vacation actually taken
    sweep(start + 24 * H + 36 * H - 1)
    assert record(store, gid)[0] == 1
    sweep(start + 24 * H + 36 * H + 1)
    assert assert_replays(store, gid)[1][-1]["src"] == "timeout"


def test_away_before_a_turn_moves_that_turns_deadline(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=24)
    assert say(cmds, B, "away 2d")[0]  # bob is not awaited yet
    assert pipeline.submit(store, gid, text="add 1", idem="a", user=A).ok
    assert float(store.meta(gid)["ext:1"]) == 2 * 86400
    assert store.r.zscore(k_deadlines(gid), gid) >= clock[0] + 2 * 86400  # nothing before he returns


# ------------------------------------------------------------------ pause
def test_pause_and_resume_by_majority(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=2)
    start = clock[0]
    ok, text = say(cmds, A, "pause")
    assert ok and "1 more vote needed" in text and "paused_at" not in store.meta(gid)
    ok, text = say(cmds, B, "pause")
    assert ok and "paused" in text and store.meta(gid)["paused_at"]
    assert store.r.zscore(k_deadlines(gid), gid) is None
    Sweeper(store)(start + 5 * H)
    assert record(store, gid)[0] == 1 and reminders(store) == []
    assert "Paused" in say(cmds, A, "status")[1]
    clock[0] = start + 10 * H
    assert "1 more vote needed" in say(cmds, B, "resume")[1]
    ok, text = say(cmds, A, "resume")
    assert ok and "resumes after a pause of 10 hours" in text, text
    meta = store.meta(gid)
    assert float(meta["deadline_at"]) == start + 12 * H and float(meta["turn_at"]) == start + 10 * H
    assert store.r.zscore(k_deadlines(gid), gid) == start + 11 * H


def test_pause_in_a_finished_game_is_refused(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store)
    assert lobby.resign(store, gid, B).ok
    before = db_image(store)
    for command in ("pause", "resume", "away 1d", "timer fast", "mute", "back", f"sub 2 @{A}"):
        ok, text = say(cmds, A, command)
        assert not ok and "over" in text, (command, text)
    assert game_image(store) == game_image_of(before)


# ------------------------------------------------------------------ autopilot
def test_autopilot_after_the_configured_misses_and_back(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, "sim", turn_hours=1)
    sweep = Sweeper(store)
    assert pipeline.submit(store, gid, text="pick 1", idem="b1", user=B).ok
    clock[0] += H + 1
    sweep(clock[0])  # alice misses once
    assert store.meta(gid)["misses:0"] == "1" and "auto:0" not in store.meta(gid)
    assert any("Time ran out for alice" in n for n in notices(store)) or record(store, gid)[0] == 3
    assert pipeline.submit(store, gid, text="pick 1", idem="b2", user=B).ok
    clock[0] += H + 1
    sweep(clock[0])  # twice: autopilot
    meta = store.meta(gid)
    assert meta["auto:0"] == "1"
    texts = [e["text"] for entry in store.events(gid, last=10) for e in entry["events"] if e.get("seats") is None]
    assert any("automatic player takes the seat" in t for t in texts)
    # the automatic player now picks for alice, in time, every round
    for n in range(3):
        assert pipeline.submit(store, gid, text="pick 1", idem=f"b{n + 3}", user=B).ok
        clock[0] += 16
        sweep(clock[0])
    _, log = assert_replays(store, gid)
    assert [e["src"] for e in log if e["s"] == 0][-3:] == ["auto", "auto", "auto"]
    assert "(alice) is on autopilot" in say(cmds, A, "status")[1]
    # alice's own move also takes her seat back
    assert pipeline.submit(store, gid, text="pick 3", idem="a-back", user=A).ok
    assert "auto:0" not in store.meta(gid) and "steps aside" in notices(store)[-1]
    store.r.hset(k_meta(gid), "auto:0", "1")  # on autopilot again: `back` ends it too
    ok, text = say(cmds, A, "back")
    assert ok and "hands your seat back" in text, text
    assert "auto:0" not in store.meta(gid) and "steps aside" in notices(store)[-1]
    assert assert_replays(store, gid)[1][-1]["src"] == "player"


def test_autopilot_plays_a_whole_seven_wonders_game(store: Store, clock: list[float]) -> None:
    """Every seat on autopilot: simultaneous picks and the decisions a single player makes out of
    turn (paying coins or taking debt, Babylon's last card) are all legal moves to the end."""
    users = ("console:a", "console:b", "console:c")
    gid = make_game(store, "seven-wonders", users=users, turn_hours=1)
    store.r.hset(k_meta(gid), mapping={f"auto:{s}": "1" for s in range(3)})
    for _ in range(600):
        loaded = pipeline.load(store, gid)
        if loaded.meta["status"] == "over":
            break
        for seat in sorted(loaded.game.to_move(loaded.state)):
            tasks.auto(gid, seat, pipeline.load(store, gid).version)
    assert store.meta(gid)["status"] == "over"
    _, log = assert_replays(store, gid)
    assert {e["src"] for e in log} == {"auto"}
    assert any(e["t"].startswith("pay") for e in log)  # a decision one player makes alone


# ------------------------------------------------------------------ substitute
def test_substitute_takes_the_seat(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=24)
    assert pipeline.submit(store, gid, text="add 1", idem="a", user=A).ok  # bob to move
    ok, text = say(cmds, A, "substitute 2 @carol")
    assert not ok and "must write to me once" in text
    say(cmds, C, "help", chat="dm-carol")
    before = game_image(store)
    ok, text = say(cmds, B, "sub 2 @carol")
    assert not ok and "Only the player who opened this table" in text
    ok, text = say(cmds, A, "sub 9 @carol")
    assert not ok and "no seat" in text.lower()
    ok, text = say(cmds, A, "sub 2 @alice")
    assert not ok and "already plays in this game" in text
    assert game_image(store) == before
    ok, text = say(cmds, A, "sub 2 @Carol")
    assert ok and "carol now plays" in text, text
    assert store.seats(gid)[1] == C and gid in store.user_games(C) and gid not in store.user_games(B)
    private = [m for m in outbox_messages(store) if m["type"] == "private" and m["user"] == C]
    assert private and "You now play" in private[-1]["text"] and "taking over from bob" in private[-1]["text"]
    assert any(m["type"] == "prompt" and m["user"] == C for m in outbox_messages(store))
    res = pipeline.submit(store, gid, text="add 1", idem="b", user=B)
    assert not res.ok and res.code == "auth/not_a_player"
    assert pipeline.submit(store, gid, text="add 1", idem="c", user=C).ok


# ------------------------------------------------------------------ myturns
def test_myturns_lists_waiting_games_longest_first(store: Store, clock: list[float], cmds: Commands) -> None:
    old = make_game(store, turn_hours=24, chat="c1")
    clock[0] += 5 * H
    new = make_game(store, turn_hours=0, chat="c2")
    make_game(store, users=(B, A), chat="c3")  # bob's turn there
    clock[0] += H
    ok, text = say(cmds, A, "myturns")
    assert ok
    lines = text.split("\n")[1:]
    assert len(lines) == 2 and f"`{old}`" in lines[0] and f"`{new}`" in lines[1], text
    assert "waiting 6 hours, 18 hours left" in lines[0] and "waiting 1 hour, no deadline" in lines[1]
    assert "No game is waiting" in say(cmds, C, "myturns")[1]


# ------------------------------------------------------------------ settings
def test_settings_zone_quiet_hours_and_bad_input(store: Store, clock: list[float], cmds: Commands) -> None:
    ok, text = say(cmds, A, "settings tz=europe/athens quiet=23:00-08:00 remind=half,2h")
    assert ok and "Europe/Athens" in text and "23:00-08:00" in text and "2 hours before" in text, text
    user = store.user(A)
    assert (user["tz"], user["quiet"], user["remind"]) == ("Europe/Athens", "23:00-08:00", "half,7200s")
    before = db_image(store)
    cases = {
        "settings tz=Mars/Olympus": "I don't know the time zone `Mars/Olympus`",
        "settings tz=Europe/Athen": "Did you mean `Europe/Athens`",
        "settings quiet=25-99": "hours run from 0 to 23",
        "settings tz=UTC quiet=7": "not a quiet-hours window",
        "settings remind=soon": "not a reminder time",
        "settings colour=blue": "Settings are",
    }
    for line, expect in cases.items():
        ok, text = say(cmds, A, line)
        assert not ok and expect in text and "Nothing was changed" in text, (line, text)
    after = db_image(store)
    assert {k: v for k, v in after.items() if k != "agora:u:console:alice"} == {
        k: v for k, v in before.items() if k != "agora:u:console:alice"
    }
    assert store.user(A)["tz"] == "Europe/Athens" and store.user(A)["quiet"] == "23:00-08:00"


# ------------------------------------------------------------------ the index
def test_rebuild_command_restores_the_index(store: Store, clock: list[float], redis_url: str) -> None:
    games = [make_game(store, turn_hours=h, chat=f"r{h}") for h in (1, 3, 0)]
    before = sorted(deadlines.scheduled(store).items(), key=lambda e: (e[1], e[0]))
    assert len(before) == 3
    store.r.delete(*[k_deadlines_in(p) for p in range(PARTITIONS)])
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "REDIS_URL": redis_url, "PYTHONPATH": str(root), "AGORA_PLUGINS": PLUGINS_ALL}
    out = subprocess.run(
        [sys.executable, "-m", "bots.cli", "deadlines", "rebuild"], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and "3 games scheduled" in out.stdout, out.stderr
    # computed at the real time, not the test's clock: the same games, the same due times
    after = sorted(deadlines.scheduled(store).items(), key=lambda e: (e[1], e[0]))
    assert [g for g, _ in after] == [g for g, _ in before] and len(games) == 3
    assert after == before


def test_sweep_takes_due_entries_in_batches_until_none_is_due(store: Store, clock: list[float]) -> None:
    gids = [make_game(store, turn_hours=2, chat=f"b{i}") for i in range(7)]
    seen: list[str] = []

    def handle(gid: str) -> None:
        seen.append(gid)
        deadlines.process(store, gid, clock[0] + H + 1, run_auto=lambda *a: None, submit_timeout=lambda *a: None)

    assert deadlines.sweep_due(store, clock[0] + H + 1, handle, limit=3) == 7
    assert sorted(seen) == sorted(gids) and len(reminders(store)) == 7
    assert deadlines.sweep_due(store, clock[0] + H + 2, handle, limit=3) == 0


# ------------------------------------------------------------------ simultaneous steps
def test_the_last_one_to_choose_hears_that_everyone_waits(store: Store, clock: list[float]) -> None:
    gid = make_game(store, "sim", turn_hours=24)
    deadline = store.meta(gid)["deadline_at"]
    assert pipeline.submit(store, gid, text="pick 2", idem="b", user=B).ok
    assert store.meta(gid)["deadline_at"] == deadline  # one deadline for the whole step
    pings = [m for m in outbox_messages(store) if m["type"] == "private" and m["user"] == A]
    assert len(pings) == 1 and "the table is waiting for you" in pings[0]["text"]


# ------------------------------------------------------------------ wall clocks
@pytest.mark.parametrize(
    ("zone", "quiet", "start", "end"),
    [
        # Athens, spring forward on 28 March 2027: deadline 02:00 EET -> 08:00 EEST (05:00 UTC)
        ("Europe/Athens", "23:00-08:00", (2027, 3, 27, 16), (2027, 3, 28, 5)),
        # Athens, fall back on 31 October 2027: deadline 02:00 EEST -> 08:00 EET (06:00 UTC)
        ("Europe/Athens", "23:00-08:00", (2027, 10, 30, 15), (2027, 10, 31, 6)),
        # New York, spring forward on 14 March 2027: deadline 01:00 EST -> 07:00 EDT (11:00 UTC)
        ("America/New_York", "22:00-07:00", (2027, 3, 13, 22), (2027, 3, 14, 11)),
        # New York, fall back on 7 November 2027: deadline 01:30 EDT -> 07:00 EST (12:00 UTC)
        ("America/New_York", "22:00-07:00", (2027, 11, 6, 21, 30), (2027, 11, 7, 12)),
        # Kolkata (+05:30): deadline 05:30 IST -> 07:30 IST (02:00 UTC)
        ("Asia/Kolkata", "23:00-07:30", (2027, 1, 15, 16), (2027, 1, 16, 2)),
    ],
)
def test_a_deadline_in_quiet_hours_waits_for_the_players_morning(
    store: Store,
    clock: list[float],
    cmds: Commands,
    zone: str,
    quiet: str,
    start: tuple[int, ...],
    end: tuple[int, ...],
) -> None:
    from datetime import UTC, datetime

    clock[0] = datetime(*start, tzinfo=UTC).timestamp()  # type: ignore[misc]
    morning = datetime(*end, tzinfo=UTC).timestamp()  # type: ignore[misc]
    assert say(cmds, A, f"settings tz={zone} quiet={quiet}")[0]
    gid = make_game(store, turn_hours=8, chat=f"q{zone}")
    store.r.hset(k_meta(gid), "quiet_deadlines", "1")
    assert deadlines.rebuild_index(store, clock[0]) >= 1  # the option was set after the start
    assert store.r.zscore(k_deadlines(gid), gid) <= morning
    sweep = Sweeper(store)
    sweep(clock[0] + 8 * H + 1)  # the table's deadline passed, in the middle of alice's night
    sweep(morning - 1)
    assert record(store, gid)[0] == 1 and reminders(store, 0) == [(gid, "half")]
    sweep(morning + 1)
    assert assert_replays(store, gid)[1][-1]["src"] == "timeout"


def test_concurrent_sweepers_apply_a_timeout_once(store: Store, clock: list[float]) -> None:
    """Eight sweepers race on the same due game, then every timeout task they submitted runs at
    once: ``on_timeout`` is applied exactly once, and the sweepers split the claimed entries."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    gids = [make_game(store, turn_hours=1, chat=f"cc{i}") for i in range(4)]
    clock[0] += H + 1
    submitted: list[tuple[str, int, str, str]] = []
    handled: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def sweeper() -> None:
        def handle(gid: str) -> None:
            with lock:
                handled.append(gid)
            deadlines.process(
                store, gid, clock[0], run_auto=lambda *a: None, submit_timeout=lambda *a: submitted.append(a)
            )

        barrier.wait(timeout=10)
        deadlines.sweep_due(store, clock[0], handle, limit=1)

    with ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(sweeper) for _ in range(8)]:
            f.result(timeout=60)
    assert sorted(handled) == sorted(gids)  # each due entry claimed by one sweeper only
    with ThreadPoolExecutor(8) as pool:
        for f in [pool.submit(tasks.timeout.run, *call) for call in submitted * 3]:
            f.result(timeout=60)
    for gid in gids:
        _, log = assert_replays(store, gid)
        assert [(e["s"], e["src"]) for e in log] == [(0, "timeout")]


def test_no_waiting_ping_against_automatic_players_alone(store: Store, clock: list[float]) -> None:
    gid = make_game(store, "sim", users=(A,), bots=1, turn_hours=24)
    assert pipeline.submit(store, gid, text="pick 2", idem="bot", seat=1, source="auto").ok
    assert not [m for m in outbox_messages(store) if m["type"] == "private" and "waiting for you" in m["text"]]


def test_the_creator_changes_table_options_of_a_running_game(store: Store, clock: list[float], cmds: Commands) -> None:
    gid = make_game(store, turn_hours=24)
    ok, text = say(cmds, A, "timer fast misses=0 quiet_deadlines=on vacation=3d bank=1h")
    assert ok, text
    assert text == (
        "Timer: fast (1 hour per turn); time bank 1 hour per player; vacation 3 days per player; "
        "no autopilot; deadlines wait for the end of a player's quiet hours."
    )
    meta = store.meta(gid)
    assert (meta["miss_limit"], meta["quiet_deadlines"], float(meta["vacation_days"])) == ("0", "1", 3.0)
    assert "The table's clock is changed" in notices(store)[-1]
    before = game_image(store)
    for bad in ("timer misses=99", "timer vacation=90d", "timer quiet_deadlines=maybe", "timer fast fast"):
        ok, text = say(cmds, A, bad)
        assert not ok, bad
    assert game_image(store) == before
    ok, text = say(cmds, A, "timer misses=2 quiet_deadlines=off")
    assert ok and "autopilot after 2 missed deadlines in a row" in text and "quiet_deadlines" not in store.meta(gid)


def test_where_a_game_is_said_so_a_player_can_get_there() -> None:
    from workers.commands.timers import _where

    assert _where("telegram:-1001234", "telegram") == "https://t.me/c/1234"
    assert _where("telegram:-4567", "telegram") == "its Telegram group"  # a basic group has no link
    assert _where("discord:998877", "discord") == "<#998877>"  # clickable in Discord
    assert _where("discord:998877", "telegram") == "its Discord channel"  # raw <#…> would show on Telegram
    assert _where("console:local", "console") == "this terminal"
