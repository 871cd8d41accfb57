"""Turn posts with pages (The Capitals: the central board, then one image per city): the
pages are cached like the board, a turn's ``Part`` carries them, and a failure behaves like the
board's — a store error keeps the outbox message pending, a drawing failure drops the pages."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

import renderer
from engine import find_game
from tests.workers.util import make_game
from workers import images
from workers.client import Client
from workers.outbox import Envelope
from workers.store import k_image


def test_capitals_pages_are_one_per_city_and_cached(store: Any) -> None:
    gid = make_game(store, "capitals", users=("console:ann", "console:bo", "console:cy"))
    version, _ = store.snapshot(gid)
    pages = images.page_pngs(store, gid)
    assert len(pages) == 3 and all(p.startswith(b"\x89PNG") for p in pages)
    assert store.r.get(k_image(gid, version, "pages")) == b"3"
    assert store.r.get(k_image(gid, version, "page2")) == pages[1]
    with mock.patch.object(images.renderer, "render_pages", side_effect=AssertionError("drawn again")):
        assert images.page_pngs(store, gid, version) == pages  # from the cache


def test_a_game_without_pages_costs_no_key_and_no_view(store: Any) -> None:
    gid = make_game(store, "duellum")
    version, _ = store.snapshot(gid)
    game = find_game("duellum")
    with mock.patch.object(type(game), "view", side_effect=AssertionError("a view for no pages")):
        assert images.page_pngs(store, gid) == []
        assert images.page_pngs(store, gid, version, game=game) == []
    assert store.r.get(k_image(gid, version, "pages")) is None


def test_a_drawing_failure_gives_no_pages_like_the_board(store: Any) -> None:
    gid = make_game(store, "capitals", users=("console:ann", "console:bo"))
    with mock.patch.object(images.renderer, "render_pages", side_effect=RuntimeError("bug")):
        assert images.page_pngs(store, gid) == []
    assert len(images.page_pngs(store, gid)) == 2  # nothing wrong was cached


def _turn(store: Any, gid: str) -> Envelope:
    version, _ = store.snapshot(gid)
    message = {"type": "turn", "game": gid, "version": version, "since": 0, "chat": "table"}
    return Envelope("1-0", dict(message, key=f"turn:{gid}:{version}"))


def test_turn_part_carries_the_pages_and_a_store_failure_keeps_it_pending(store: Any, redis_url: str) -> None:
    gid = make_game(store, "capitals", users=("console:ann", "console:bo", "console:cy"))
    client = Client(redis_url)
    try:
        part = client.render(_turn(store, gid))
        assert part is not None and part.image is not None
        assert part.pages == renderer.render_pages("capitals", _public_view(store, gid))
        assert len(part.pages) == 3
        store.r.delete(*store.r.keys(f"*img:{gid}:*"))
        failing = mock.patch.object(images, "page_pngs", side_effect=RedisConnectionError("store restarting"))
        with failing, pytest.raises(RedisConnectionError):
            client.render(_turn(store, gid))  # the caller keeps the message pending
        again = client.render(_turn(store, gid))
        assert again is not None and again.pages == part.pages
        duellum = make_game(store, "duellum", chat="other")
        plain = client.render(_turn(store, duellum))
        assert plain is not None and plain.image and plain.pages == []
    finally:
        client.close()


def _public_view(store: Any, gid: str) -> dict[str, Any]:
    import json

    from engine import find_game

    game = find_game("capitals")
    _, snap = store.snapshot(gid)
    state = game.load(json.loads(snap))
    view = game.view(state, None)
    names = store.names(gid)
    view["player_names"] = [names.get(str(s), "") for s in range(len(game.seat_names(state)))]
    return dict(view)


def test_a_delivered_posts_board_and_pages_are_kept_only_briefly(store: Any, redis_url: str) -> None:
    """Issue 12: images are never kept in Redis longer than delivery needs. Drawn, they are a
    10-minute cache; once the post is delivered, a minute (the other tables, a resend)."""
    from workers import outbox

    gid = make_game(store, "capitals", users=("console:ann", "console:bo"))
    env = _turn(store, gid)
    env = Envelope(env.id, {**env.message, "key": f"{gid}:{env.message['version']}:turn"})
    client = Client(redis_url)
    try:
        part = client.render(env)
        assert part is not None and part.image and len(part.pages) == 2
        version = env.message["version"]
        keys = [k_image(gid, version, w) for w in ("public", "pages", "page1", "page2")]
        assert all(store.r.ttl(k) > outbox.DELIVERED_IMAGE_TTL for k in keys)
        client.mark_sent(env)
        assert all(0 < store.r.ttl(k) <= outbox.DELIVERED_IMAGE_TTL for k in keys)
        store.r.expire(keys[0], 5)
        client.mark_sent(env)  # recorded again (a resend): never lengthened
        assert store.r.ttl(keys[0]) <= 5
    finally:
        client.close()
