"""The cheaper paths of a move (issue 12: the CPU per move) give what the plain ones gave.

Each test checks a shortcut against the long way it replaced: the turn post's one read
against the four reads it stood for, the events picked from their first bytes against
decoding them all, the button payloads written by one script against one SET each, the
broker's reused client objects against a new pool, the reminder marks left unread only for a
turn that starts with the commit.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.workers.util import A, B, make_game
from workers import commit, gamelog, pipeline, plan, redisconn
from workers.compact import pack_events, unpack_events
from workers.store import Store, k_events


def _move_on(store: Store, gid: str, moves: int, prefix: str = "m") -> None:
    for i in range(moves):
        v = int(store.meta(gid)["version"])
        res = pipeline.submit(store, gid, text="add 1", idem=f"{prefix}{i}", user=A if v % 2 == 1 else B)
        assert res.ok, res


def test_a_turn_posts_one_read_is_the_four_reads_it_replaced(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commit, "POSTED_KEPT", 3)
    gid = make_game(store)
    _move_on(store, gid, 8)
    current = int(store.meta(gid)["version"])
    for version in (current, current - 1, current - 2, 1):  # current, kept, kept or pruned, pruned
        record, snap, names, raw = store.post_record(gid, version)
        assert record == store.game_record(gid)
        assert snap == store.snapshot_at(gid, version)
        assert names == store.names(gid)
        assert [json.loads(unpack_events(x)) for x in raw] == store.events(gid, last=200)
    assert store.post_record(gid, 1)[1] is None  # pruned: the post is drawn from the game as it is now


def _entries(raw: list[bytes], since: int, until: int) -> list[dict[str, Any]]:
    """The long way: decode every entry, keep those of the versions asked."""
    return [e for e in (json.loads(unpack_events(x)) for x in raw) if since <= int(e.get("v", 0)) <= until]


def test_events_picked_by_their_first_bytes_are_those_decoding_all_gives(store: Store) -> None:
    gid = make_game(store)
    _move_on(store, gid, 6)
    raw = store.r.lrange(k_events(gid), 0, -1)
    assert all(item[:1].isdigit() for item in raw)  # packed (workers/compact.py), the version first
    odd = [
        json.dumps({"s": 0, "v": 3, "events": [{"text": "key order of another writer"}]}).encode(),
        b'{"v":4}',
        b'{"v": 5, "events": []}',
        b'{"v":"6","events":[]}',
        b'{"events":[],"v":12}',
        pack_events(7, b'{"v":7,"s":1,"events":[]}', "duellum"),  # packed against a dictionary
        pack_events(8, b'{"v":8,"s":null,"events":[]}', "no-such-game"),  # packed plainly
    ]
    for items in (raw, odd, raw + odd):
        for since in range(0, 9):
            for until in range(since, 13):
                assert gamelog.events_between(items, since, until) == _entries(items, since, until), (since, until)


def test_a_broker_channel_reuses_one_client_per_pool(redis_url: str) -> None:
    from kombu import Connection

    redisconn.reuse_broker_clients()
    redisconn.reuse_broker_clients()  # idempotent: not wrapped twice
    with Connection(redis_url) as conn:
        channel: Any = conn.default_channel
        first = channel._create_client()
        assert channel._create_client() is first
        with channel.conn_or_acquire() as client:
            assert client is first
            assert client.ping()
        assert first.connection_pool is channel.pool
        channel._pool = None  # a new pool (kombu resets it on reconnect): a client of its own
        second = channel._create_client()
        assert second is not first and second.connection_pool is channel.pool
        assert channel._create_client(asynchronous=True) is not channel._create_client(asynchronous=True)


def _wanted(store: Store, gid: str) -> tuple[dict[str, Any], Any]:
    loaded = pipeline.load(store, gid)
    after = loaded.game.to_move(loaded.state)
    return dict(loaded.meta), after


def test_reminder_marks_are_read_unless_the_turn_starts_with_the_commit(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sent reminder of a turn that goes on is not scheduled again; ``fresh`` (no marks
    read) is what ``plan_after_step`` passes only when ``turn_v`` is the version it commits.
    Only the marks of reminders already due are read: before any is due there is no read."""
    gid = make_game(store, turn_hours=2)
    meta, after = _wanted(store, gid)
    (seat,) = after
    loaded = pipeline.load(store, gid)
    early = float(meta["turn_at"]) + 60
    times = _reminders(store, meta, loaded, seat, early)
    assert times, "the table's clock has reminders"
    now = max(times.values()) + 1  # every reminder due, the deadline not yet
    first = plan.index_time(store, gid, meta, loaded.seats, after, now)
    assert first == min(times.values())  # none sent: the earliest is overdue
    for lead in times:  # every reminder of this turn was sent already
        store.r.set(plan.k_remind_lead(gid, meta["turn_v"], seat, lead), "1")
    later = plan.index_time(store, gid, meta, loaded.seats, after, now)
    assert later is not None and later > now  # the sent ones are skipped: the deadline is next
    assert plan.index_time(store, gid, meta, loaded.seats, after, now, fresh=True) == first

    reads: list[Any] = []
    real_mget = store.r.mget
    monkeypatch.setattr(store.r, "mget", lambda keys, *a: reads.append(keys) or real_mget(keys, *a))
    # Nothing due yet: no mark is read, and a mark sent early (under other settings) at worst
    # makes the sweep look once more at the reminder's time.
    assert plan.index_time(store, gid, meta, loaded.seats, after, early) == min(times.values())
    assert reads == []
    assert plan.index_time(store, gid, meta, loaded.seats, after, now) == later
    assert len(reads) == 1 and len(reads[0]) == len(times)
    monkeypatch.undo()

    calls: list[bool] = []
    original = plan.index_time

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(bool(kwargs.get("fresh")))
        return original(*args, **kwargs)

    plan.index_time = spy  # type: ignore[assignment]
    try:
        v = int(store.meta(gid)["version"])
        res = pipeline.submit(store, gid, text="add 1", idem="fresh", user=A if v % 2 == 1 else B)
        assert res.ok
    finally:
        plan.index_time = original  # type: ignore[assignment]
    meta_after = store.meta(gid)
    assert calls == [meta_after.get("turn_v") == str(res.version)]


def _reminders(store: Store, meta: dict[str, Any], loaded: Any, seat: int, now: float) -> dict[str, float]:
    """The seat's reminders of this step: lead key -> due time."""
    from workers.timing import seat_clock

    (user,) = store.users([loaded.seats[seat]])
    return dict(seat_clock(meta, seat, user, now).reminders)


def test_a_move_answered_through_a_mailbox_returns_nothing_to_celery(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The answer goes to the client's mailbox; the task's return value (which Celery would
    only ``saferepr`` for its log line) is None. Without a mailbox it is the answer, as before."""
    from workers import tasks
    from workers.store import k_answers

    monkeypatch.setattr(tasks, "_store", store)
    monkeypatch.setenv("AGORA_SKIP_KICK", "1")
    gid = make_game(store)
    assert tasks.move.run(gid, A, "add 1", "k-box", reply_to="box", rid="r1") is None
    posted = json.loads(store.r.lpop(k_answers("box")))  # type: ignore[arg-type]
    assert posted["id"] == "r1" and posted["answer"]["ok"] and posted["answer"]["version"] == 2
    again = tasks.move.run(gid, A, "add 1", "k-box", reply_to="box", rid="r2")  # a duplicate: the same answer
    assert again is None
    copy = json.loads(store.r.lpop(k_answers("box")))  # type: ignore[arg-type]
    assert copy["answer"]["duplicate"] and copy["answer"]["version"] == 2
    out = tasks.move.run(gid, B, "add 1", "k-plain")
    assert out is not None and out["ok"] and out["version"] == 3


def test_the_task_reprs_are_celerys_for_short_arguments() -> None:
    from celery.utils.saferepr import saferepr

    from workers import tasks

    args, kwargs = ["g1f", "telegram:42", "play «Altar» 'x\"", "c0123"], {"reply_to": "ab", "rid": "cd"}
    shown = tasks.reprs(args, kwargs)
    assert shown == {"argsrepr": saferepr(args, 1024), "kwargsrepr": saferepr(kwargs, 1024)}
    assert tasks.reprs(("g1", 4)) == {"argsrepr": saferepr(("g1", 4), 1024), "kwargsrepr": saferepr({}, 1024)}
    assert tasks.reprs(["x" * 2000]) == {}  # long: Celery truncates it itself


@pytest.mark.parametrize("name", ["duellum", "seven-wonders", "clash", "mare-nostrum", "capitals"])
def test_a_kept_parsed_snapshot_is_the_state_a_fresh_parse_gives(name: str) -> None:
    """The copy handed out from the parsed-snapshot cache is the state parsing gives: same
    dump, same moves and texts for every seat, in positions along a game; and a caller that
    changes its copy changes nothing another caller gets."""
    from engine import find_game
    from workers import loading

    try:
        game = find_game(name)
    except Exception:
        pytest.skip(f"{name} is not registered here")
    players = min(max(game.info.min_players, 3), game.info.max_players)
    state = game.new_game(5, players)
    for step in range(40):
        text = game.dumps(state)
        first = loading.parsed_state(game, text)  # a miss: parsed (and a copy kept)
        second = loading.parsed_state(game, text)  # a hit: a copy of the kept one
        assert second is not first
        assert game.dumps(second) == game.dumps(first) == text
        for seat in range(players):
            assert [game.notation(second, seat, a) for a in game.legal_actions(second, seat)] == [
                game.notation(first, seat, a) for a in game.legal_actions(first, seat)
            ]
        assert game.to_move(second) == game.to_move(first)
        if game.outcome(state) is not None:
            break
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
        # A caller's copy is its own: moving on from it leaves the kept one as it was.
        game.apply(second, seat, game.auto_action(second, seat, step))
        assert game.dumps(loading.parsed_state(game, text)) == text


def test_the_parsed_snapshots_follow_the_store_not_the_game_id(store: Store) -> None:
    """Two processes' moves, an undo-like rewrite, a database flushed and a new game under the
    same id: the key is the snapshot text, so a load always gives the stored state."""
    gid = make_game(store)
    _move_on(store, gid, 3)
    before = pipeline.load(store, gid)
    _move_on(store, gid, 2, prefix="other")  # as another worker would
    after = pipeline.load(store, gid)
    assert after.version == before.version + 2
    assert after.game.dumps(after.state) == store.snapshot(gid)[1]
    store.r.flushdb()
    again = make_game(store, seed=99)
    assert again == gid  # the same id, another game
    fresh = pipeline.load(store, gid)
    assert fresh.version == 1 and fresh.game.dumps(fresh.state) == store.snapshot(gid)[1]


@pytest.mark.parametrize(
    ("game_id", "players"), [("duellum", 2), ("seven-wonders", 3), ("clash", 2), ("mare-nostrum", 3), ("capitals", 2)]
)
def test_a_turn_mark_from_the_listed_moves_is_the_one_from_the_legal_moves(game_id: str, players: int) -> None:
    """Buttons take their turn mark from the move list the prompt built (``every``) instead of
    listing the legal moves again: the two must agree in every state, or a button pressed in
    time would be refused as stale."""
    from engine import find_game
    from workers.commands.play import fingerprint, move_entries, turn_mark

    game = find_game(game_id)
    state = game.new_game(11, players)
    seats = {s: f"console:p{s}" for s in range(players)}
    checked = 0
    for step in range(60):
        if game.outcome(state) is not None:
            break
        for seat in sorted(game.to_move(state)):
            loaded = pipeline.Loaded("g", {"posted_v": "3"}, game, step + 1, state, seats)
            every = move_entries(loaded, seat)
            assert fingerprint(loaded, seat, every) == fingerprint(loaded, seat)
            assert turn_mark(loaded, seat, every) == turn_mark(loaded, seat)
            checked += 1
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
    assert checked >= 30


@pytest.mark.parametrize(("game_id", "players"), [("duellum", 2), ("seven-wonders", 3), ("mare-nostrum", 3)])
def test_kept_move_lists_are_the_lists_of_their_snapshot(
    game_id: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A turn post and the prompt of the same version list the awaited seat's moves once
    (``move_entries`` keeps them under the snapshot's text): what a kept list gives must be
    what listing that state gives, in every state of a game, and another text (the next move,
    a flushed store refilled) is listed anew."""
    from engine import find_game
    from workers.commands import play

    game = find_game(game_id)
    state = game.new_game(5, players)
    seats = {s: f"console:p{s}" for s in range(players)}
    listed = 0
    real = game.legal_actions

    def counted(*args: Any) -> Any:
        nonlocal listed
        listed += 1
        return real(*args)

    monkeypatch.setattr(game, "legal_actions", counted)
    play._entries.clear()
    for step in range(40):
        if game.outcome(state) is not None:
            break
        text = game.dumps(state)
        for seat in sorted(game.to_move(state)):
            plain = play.move_entries(pipeline.Loaded("g", {}, game, step + 1, state, seats), seat)
            before = listed
            first = play.move_entries(pipeline.Loaded("g", {}, game, step + 1, state, seats, text), seat)
            reread = game.load(json.loads(text))
            again = play.move_entries(pipeline.Loaded("g", {}, game, step + 1, reread, seats, text), seat)
            assert first == again == plain
            assert listed == before + 1  # the second read of the same text listed nothing
            again.clear()  # a caller's changes stay its own
            assert play.move_entries(pipeline.Loaded("g", {}, game, step + 1, state, seats, text), seat) == plain
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
    assert len(play._entries) <= play.ENTRIES_KEPT
