"""Turn posts a late delivery finds overtaken go out as part of the newest one.

Why: a delivery that fell behind (flood control, a restarted bot, a burst of moves) used to
send one board per turn, each already out of date, and drew every one of them: at saturation
the outbox consumer spent most of its CPU on boards nobody could still use, and the boards
that mattered waited behind them (issue 12). A post older than ``outbox.MERGE_AFTER`` whose
game has posted a newer turn is now marked sent without a message; the newer post's lines
start after the last post its table saw, so no line is lost, and only its board is drawn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from prometheus_client import REGISTRY

from tests.workers.util import A, B, make_game
from workers import commit, images, metrics, outbox, pipeline
from workers.client import Client
from workers.commands import posts
from workers.outbox import Envelope
from workers.store import Store, k_image, k_told


@pytest.fixture
def client(redis_url: str) -> Iterator[Client]:
    c = Client(redis_url)
    try:
        yield c
    finally:
        c.close()


def _moves(store: Store, gid: str, n: int, start: int = 0) -> None:
    """``n`` toy moves (each posts a turn: the other player is awaited next)."""
    for i in range(start, start + n):
        res = pipeline.submit(store, gid, text="add 1", idem=f"m{i}", user=A if i % 2 == 0 else B)
        assert res.ok, res


def _turns(store: Store) -> list[Envelope]:
    envs = outbox.fetch(store, "console", "bot", count=100, block_ms=10)
    for env in envs:
        if env.message["type"] != "turn":
            outbox.ack(store, "console", env)
    return [e for e in envs if e.message["type"] == "turn"]


def _deliver(client: Client, envs: list[Envelope]) -> list[tuple[int, str, bytes | None]]:
    """The adapters' steps for each post: build, (send), mark sent, ack; what was sent."""
    sent = []
    for env in envs:
        part = client.render(env)
        if part is not None:
            sent.append((int(env.message["version"]), part.text, part.image))
        client.mark_sent(env)
        client.ack("console", env)
    return sent


def _merged_count() -> float:
    return metrics.TURNS_MERGED._value.get()


def test_a_delivery_that_keeps_up_sends_every_post_with_its_board(store: Store, client: Client) -> None:
    gid = make_game(store)
    _moves(store, gid, 3)
    sent = _deliver(client, _turns(store))  # fetched at once: younger than MERGE_AFTER
    assert [v for v, _, _ in sent] == [1, 2, 3, 4]
    assert all(png is not None and png.startswith(b"\x89PNG") for _, _, png in sent)
    assert store.r.zscore(k_told(gid), "") == 4


def test_late_posts_go_out_merged_into_the_newest_with_all_their_lines(
    store: Store, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = make_game(store)
    first = _turns(store)
    assert _deliver(client, first)[0][0] == 1  # the opening board went out on its own
    _moves(store, gid, 3)
    envs = _turns(store)
    assert [e.message["version"] for e in envs] == [2, 3, 4]
    client.merge_after = 0.0
    time.sleep(0.01)
    merged_before = _merged_count()
    sent = _deliver(client, envs)
    (only,) = sent
    version, text, png = only
    assert version == 4 and png is not None and png.startswith(b"\x89PNG")
    assert text.count("adds 1") == 3, text  # the lines of the two merged posts, and its own
    assert _merged_count() == merged_before + 2
    # Every merged post is recorded as sent (never re-sent), and only the newest was drawn.
    assert all(outbox.already_sent(store, e.key) for e in envs)
    assert store.r.exists(k_image(gid, 2, "public"), k_image(gid, 3, "public")) == 0
    assert store.r.zscore(k_told(gid), "") == 4


def test_a_merged_post_does_not_move_its_tables_record(store: Store, client: Client) -> None:
    """The lines start after the last post the table saw: a post merged (marked sent without
    a message) must not count as seen, even when the newest one is sent in a later batch."""
    gid = make_game(store)
    _deliver(client, _turns(store))
    _moves(store, gid, 2)
    client.merge_after = 0.0
    time.sleep(0.01)
    envs = _turns(store)
    assert _deliver(client, envs[:1]) == []  # v2 merged: v3 exists already
    assert store.r.zscore(k_told(gid), "") == 1
    (sent,) = _deliver(client, envs[1:])
    assert sent[0] == 3 and sent[1].count("adds 1") == 2, sent[1]


def test_a_young_post_is_sent_on_its_own_even_when_overtaken(store: Store, client: Client) -> None:
    gid = make_game(store)
    _moves(store, gid, 2)
    client.merge_after = 60.0
    sent = _deliver(client, _turns(store))
    assert [v for v, _, _ in sent] == [1, 2, 3]
    assert [t.count("adds 1") for _, t, _ in sent] == [0, 1, 1]


def test_the_console_never_merges(store: Store, client: Client) -> None:
    gid = make_game(store)
    _moves(store, gid, 2)
    client.merge_after = None
    time.sleep(0.01)
    assert [v for v, _, _ in _deliver(client, _turns(store))] == [1, 2, 3]


def test_each_table_keeps_its_own_record(store: Store, client: Client) -> None:
    """A table that saw a post is not told its lines again when another table catches up."""
    gid = make_game(store)
    (env1,) = _turns(store)
    other = {**env1.message, "key": f"{gid}:1:turn@telegram:-1005", "chat": "-1005"}
    client.mark_sent(env1)
    assert store.r.zscore(k_told(gid), "") == 1
    assert store.r.zscore(k_told(gid), outbox.told_member(other)) is None
    client.mark_sent(Envelope(env1.id, other, env1.stream))
    assert store.r.zscore(k_told(gid), "@telegram:-1005") == 1


def test_a_post_resent_after_a_crash_never_moves_the_record_back(store: Store, client: Client) -> None:
    gid = make_game(store)
    _moves(store, gid, 2)
    envs = _turns(store)
    _deliver(client, envs)
    client.mark_sent(envs[0])  # v1 recorded again (a consumer killed before its ack)
    assert store.r.zscore(k_told(gid), "") == 3


def test_a_post_gathering_more_than_the_kept_events_says_so(
    store: Store, client: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commit, "EVENTS_KEPT", 4)
    monkeypatch.setattr(posts, "EVENTS_KEPT", 4)
    gid = make_game(store)
    _deliver(client, _turns(store))
    _moves(store, gid, 6)
    client.merge_after = 0.0
    time.sleep(0.01)
    (sent,) = _deliver(client, _turns(store))
    lines = sent[1].splitlines()
    assert sent[0] == 7 and lines[0] == "… earlier moves (see `log`)", lines
    assert sum("adds 1" in line for line in lines) == 4  # the 4 kept versions' lines


def _drawn(by: str) -> float:
    return REGISTRY.get_sample_value("agora_boards_drawn_total", {"by": by}) or 0.0


def test_the_render_worker_skips_a_board_that_will_go_out_merged(store: Store, client: Client) -> None:
    gid = make_game(store)
    _moves(store, gid, 2)  # posts v2 and v3
    drawn = _drawn("render_worker")
    # Overtaken and older than MERGE_AFTER: not drawn, and its claim is let go at once.
    images.hand_over(store, gid, 2)
    assert not images.draw_posted(store, gid, 2, at=time.time() - outbox.MERGE_AFTER - 1)
    assert not store.r.exists(k_image(gid, 2, "public"), k_image(gid, 2, "public") + ":drawing")
    assert _drawn("render_worker") == drawn
    # Overtaken but young (its post goes out on its own), or the newest: drawn.
    assert images.draw_posted(store, gid, 2, at=time.time())
    assert images.draw_posted(store, gid, 3, at=time.time() - 60)
    # A task queued before ``at`` existed is drawn as before.
    assert images.draw_posted(store, gid, 1)
    assert _drawn("render_worker") == drawn + 3  # operators see who drew the boards
    # A board nobody drew is drawn by the delivery that needs it: counted as on demand.
    on_demand = _drawn("on_demand")
    _moves(store, gid, 1, start=2)
    envs = _turns(store)
    assert [v for v, _, _ in _deliver(client, envs[-1:])] == [4]
    assert _drawn("on_demand") == on_demand + 1


def test_the_age_of_an_entry_comes_from_its_stream_id() -> None:
    now = 1_700_000_000.0
    env = Envelope(f"{int((now - 2.5) * 1000)}-0", {})
    assert outbox.age(env, now) == pytest.approx(2.5)
    assert outbox.age(Envelope("not-an-id", {}), now) == 0.0
