"""A turn post always carries its board, however late it is delivered (the fault suite's
consumer-kill scenario once sent ``g1:1:turn`` without its image).

How it happened: a consumer SIGKILLed while drawing a board leaves its drawing claim
(``img:…:drawing``, ``DRAWING_TTL``) behind; the restarted consumer waits that long for an
image nobody draws, killed again it waits again, while the players go on moving. Past
``POSTED_KEPT`` newer posts the commit prunes the snapshot the old post is drawn from, and
``board_png`` of that version found nothing to draw: the post went out as text alone."""

from __future__ import annotations

import time

import pytest

from tests.workers.util import A, B, make_game
from workers import commit, images, outbox, pipeline
from workers.client import Client
from workers.outbox import Envelope
from workers.store import Store, k_image, k_snapv

KEPT = 4  # POSTED_KEPT here, so the toy race (over at 21) outruns it


@pytest.fixture(autouse=True)
def _few_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(commit, "POSTED_KEPT", KEPT)


def _move_on(store: Store, gid: str, moves: int) -> None:
    for i in range(moves):
        res = pipeline.submit(store, gid, text="add 1", idem=f"on{i}", user=A if i % 2 == 0 else B)
        assert res.ok, res


def _first_turn(store: Store, gid: str) -> Envelope:
    (env,) = [e for e in outbox.fetch(store, "console", "bot", count=1, block_ms=10) if e.message["type"] == "turn"]
    assert env.message["version"] == 1
    return env


def test_a_post_older_than_the_kept_snapshots_is_drawn_from_the_game_as_it_is_now(store: Store, redis_url: str) -> None:
    gid = make_game(store)
    env = _first_turn(store, gid)
    _move_on(store, gid, KEPT + 2)
    assert store.snapshot_at(gid, 1) is None  # pruned: more than POSTED_KEPT newer posts wait
    client = Client(redis_url)
    try:
        part = client.render(env)
    finally:
        client.close()
    assert part is not None and part.image is not None and part.image.startswith(b"\x89PNG")
    now, _ = store.snapshot(gid)
    assert store.r.get(k_image(gid, now, "public")) == part.image  # the board as it is now
    assert store.r.get(k_image(gid, 1, "public")) is None  # never cached under the old version


def test_a_consumer_killed_while_drawing_does_not_cost_the_board(
    store: Store, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The consumer that died held the drawing claim of v1; the game moved on past the kept
    snapshots before its successor built the post."""
    monkeypatch.setattr(images, "DRAWING_WAIT", 1.0)
    gid = make_game(store)
    env = _first_turn(store, gid)
    store.r.set(k_image(gid, 1, "public") + ":drawing", "1", px=300)  # the killed consumer's claim
    _move_on(store, gid, KEPT + 2)
    client = Client(redis_url)
    try:
        part = client.render(env)
    finally:
        client.close()
    assert part is not None and part.image is not None


def test_a_post_within_the_kept_snapshots_is_drawn_at_its_own_version(store: Store, redis_url: str) -> None:
    gid = make_game(store)
    env = _first_turn(store, gid)
    _move_on(store, gid, 3)
    client = Client(redis_url)
    try:
        part = client.render(env)
    finally:
        client.close()
    assert part is not None and part.image is not None
    assert store.r.get(k_image(gid, 1, "public")) == part.image
    assert store.r.hexists(k_snapv(gid), "1")  # kept until the post is delivered
    outbox.delivered(store, env)
    assert not store.r.hexists(k_snapv(gid), "1")


def test_a_post_recorded_twice_counts_its_snapshot_down_once(store: Store) -> None:
    """Recording a delivery is retried (a store outage) and a resent post is recorded again:
    neither may drop the snapshot another table's post of that version still waits for."""
    gid = make_game(store)
    env = _first_turn(store, gid)
    store.r.hset(k_snapv(gid), "n:1", 2)  # two tables were posted v1
    outbox.delivered(store, env)
    outbox.delivered(store, env)
    assert store.r.hexists(k_snapv(gid), "1") and store.r.hget(k_snapv(gid), "n:1") == b"1"
    other = Envelope("2-0", {**env.message, "key": env.key + "@telegram:other"})
    outbox.delivered(store, other)
    assert not store.r.hexists(k_snapv(gid), "1")


def test_a_pruned_post_whose_board_is_still_cached_shows_its_own_version(store: Store, redis_url: str) -> None:
    gid = make_game(store)
    env = _first_turn(store, gid)
    own = images.board_png(store, gid, 1)  # drawn by the move task right after the commit
    _move_on(store, gid, KEPT + 1)  # seat 2 to move: another board
    assert store.snapshot_at(gid, 1) is None
    client = Client(redis_url)
    try:
        part = client.render(env)
    finally:
        client.close()
    assert part is not None and part.image == own
    assert own != images.board_png(store, gid)


def test_a_claim_left_by_a_killed_process_is_waited_for_briefly(store: Store) -> None:
    """Nobody draws behind the claim (its holder was SIGKILLed): the board comes after
    ``DRAWING_WAIT``, not after the claim's whole ``DRAWING_TTL``."""
    gid = make_game(store)
    store.r.set(k_image(gid, 1, "public") + ":drawing", "1", ex=images.DRAWING_TTL)
    started = time.monotonic()
    png = images.board_png(store, gid, 1)
    waited = time.monotonic() - started
    assert png is not None and images.DRAWING_WAIT <= waited < images.DRAWING_WAIT + 2
