"""Boards are drawn by a render worker of their own (issue 12): the move worker only claims the
drawing and queues it on the ``render`` queue, so the moves queued behind it never wait for a
render; and a turn post still goes out with its board when no render worker runs, or when the
one drawing it is SIGKILLed (the outbox consumer draws it then)."""

from __future__ import annotations

import os
import signal
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import REGISTRY

import renderer
from tests.workers.util import PLUGINS_ALL, A, B, Spawner, make_game
from workers import outbox
from workers.client import Client
from workers.outbox import Envelope
from workers.store import Store, k_image


def _env(log: Path, **extra: str) -> dict[str, str]:
    return {"AGORA_PLUGINS": f"{PLUGINS_ALL},tests.workers.drawlog", "AGORA_DRAW_LOG": str(log),
            "AGORA_RENDER_WORKERS": "1", **extra}  # fmt: skip


def _draws(log: Path) -> list[tuple[int, str]]:
    """(pid, "start"/"done") of every board drawn by a worker, in order."""
    if not log.exists():
        return []
    return [(int(p), what) for p, what in (line.split() for line in log.read_text().splitlines())]


@pytest.fixture
def drawn_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Boards drawn in this process (the outbox consumer's place)."""
    out: list[str] = []
    original = renderer.render

    def render(game_id: str, view: Mapping[str, Any]) -> bytes:
        out.append(game_id)
        return original(game_id, view)

    monkeypatch.setattr(renderer, "render", render)
    return out


def _move(store: Store, gid: str, i: int) -> int:
    """One toy move through the move worker; the version of the turn it posted."""
    from workers import tasks

    res = tasks.move.delay(gid, A if i % 2 == 0 else B, "add 1", f"rw{i}").get(timeout=60)
    assert res["ok"], res
    assert store.meta(gid).get("posted_v") == str(res["version"])  # each toy move posts a turn
    return int(res["version"])


def _turn_posts(store: Store, gid: str) -> dict[int, Envelope]:
    envs = [Envelope(mid, m) for mid, m in outbox.entries(store, "console")]
    return {int(e.message["version"]): e for e in envs if e.message["type"] == "turn" and e.message["game"] == gid}


def _deliver(redis_url: str, env: Envelope) -> bytes:
    client = Client(redis_url)
    try:
        part = client.render(env)
    finally:
        client.close()
    assert part is not None and part.image is not None and part.image.startswith(b"\x89PNG")
    return part.image


def test_the_board_of_a_posted_turn_is_drawn_by_the_render_worker_not_the_move_worker(
    store: Store, spawn: Spawner, redis_url: str, tmp_path: Path, drawn_here: list[str]
) -> None:
    from tests.workers.util import wait_for

    log = tmp_path / "draws.log"
    mover = spawn.worker("m1", env=_env(log), queues="celery")
    drawer = spawn.worker("r1", env=_env(log), queues="render")
    gid = make_game(store)
    versions = [_move(store, gid, i) for i in range(4)]
    for v in versions:
        wait_for(lambda v=v: store.r.exists(k_image(gid, v, "public")), timeout=60, interval=0.05)
    draws = _draws(log)
    assert {pid for pid, _ in draws} == {drawer.pid}, (draws, mover.pid, drawer.pid)
    assert [what for _, what in draws].count("done") == len(versions)  # once each
    posts = _turn_posts(store, gid)
    for v in versions:  # the consumer sends what the render worker drew, drawing nothing
        assert _deliver(redis_url, posts[v]) == store.r.get(k_image(gid, v, "public"))
    assert drawn_here == []


def test_without_a_render_worker_the_turn_post_still_carries_its_board(
    store: Store, spawn: Spawner, redis_url: str, tmp_path: Path, drawn_here: list[str]
) -> None:
    from workers import images

    log = tmp_path / "draws.log"
    spawn.worker("m1", env=_env(log), queues="celery")
    gid = make_game(store)
    n = images.BEHIND_LAPSES
    lapses = REGISTRY.get_sample_value("agora_render_handover_lapses_total") or 0.0
    for i in range(n):
        v = _move(store, gid, i)
        assert store.r.llen("render") == i + 1  # queued for a render worker that does not run
        assert not store.r.exists(images.RENDER_BEHIND)
        assert _deliver(redis_url, _turn_posts(store, gid)[v]) == store.r.get(k_image(gid, v, "public"))
    assert _draws(log) == [] and drawn_here == ["toy"] * n  # the consumer drew each, once its claim lapsed
    assert REGISTRY.get_sample_value("agora_render_handover_lapses_total") == lapses + n  # seen by operators
    # The lapses told the move workers that the render workers lag: the next board is neither
    # claimed nor queued, and the consumer draws it without waiting.
    assert store.r.exists(images.RENDER_BEHIND)
    v2 = _move(store, gid, n)
    assert store.r.llen("render") == n and not store.r.exists(k_image(gid, v2, "public") + ":drawing")
    assert _deliver(redis_url, _turn_posts(store, gid)[v2]) == store.r.get(k_image(gid, v2, "public"))
    assert drawn_here == ["toy"] * (n + 1)


def test_a_render_worker_killed_mid_drawing_costs_no_board_and_its_redelivery_draws_nothing(
    store: Store, spawn: Spawner, redis_url: str, tmp_path: Path, drawn_here: list[str]
) -> None:
    from tests.workers.util import wait_for

    log = tmp_path / "draws.log"
    spawn.worker("m1", env=_env(log), queues="celery")
    slow = spawn.worker("r1", env=_env(log, AGORA_DRAW_SLEEP="60"), queues="render")
    gid = make_game(store)
    v = _move(store, gid, 0)
    wait_for(lambda: (slow.pid, "start") in _draws(log), timeout=60, interval=0.05)
    os.kill(slow.pid, signal.SIGKILL)
    slow.proc.wait(10)  # type: ignore[union-attr]
    image = _deliver(redis_url, _turn_posts(store, gid)[v])  # drawn here, after DRAWING_WAIT
    assert drawn_here == ["toy"] and image == store.r.get(k_image(gid, v, "public"))
    # The killed worker's task comes back (visibility timeout 4 s) to a new render worker,
    # which finds the board drawn and draws nothing.
    fresh = spawn.worker("r2", env=_env(log), queues="render")
    wait_for(lambda: not store.r.llen("render") and not store.r.hlen("unacked"), timeout=60, interval=0.1)
    assert [d for d in _draws(log) if d[0] == fresh.pid] == []


# ------------------------------------------------------------- the claim, in this process
def test_draw_posted_takes_over_the_hand_over_and_draws_board_and_pages_once(store: Store) -> None:
    from workers import images

    gid = make_game(store, "capitals", users=("console:ann", "console:bo", "console:cy"))
    version, _ = store.snapshot(gid)
    assert images.hand_over(store, gid, version)
    assert not images.hand_over(store, gid, version)  # claimed: a second move worker queues nothing
    assert images.draw_posted(store, gid, version)
    assert store.r.get(k_image(gid, version, "public")).startswith(b"\x89PNG")  # type: ignore[union-attr]
    assert store.r.get(k_image(gid, version, "pages")) == b"3"
    assert not store.r.exists(k_image(gid, version, "public") + ":drawing")  # released
    assert not images.draw_posted(store, gid, version)  # a redelivery: drawn already
    assert not images.hand_over(store, gid, version)  # nor queued again (a kick after a duplicate)


def test_while_the_render_workers_lag_nothing_is_claimed_for_them(store: Store) -> None:
    from workers import images

    gid = make_game(store)
    store.r.set(images.RENDER_BEHIND, "1", ex=images.BEHIND_SECONDS)
    assert not images.hand_over(store, gid, 1)
    assert not store.r.exists(k_image(gid, 1, "public") + ":drawing")
    store.r.delete(images.RENDER_BEHIND)  # lapsed: the next board tests the render worker again
    assert images.hand_over(store, gid, 1)


def test_draw_posted_leaves_a_board_the_consumer_is_drawing_alone(store: Store, drawn_here: list[str]) -> None:
    from workers import images

    gid = make_game(store)
    key = k_image(gid, 1, "public") + ":drawing"
    store.r.set(key, "1", ex=images.DRAWING_TTL)  # the outbox consumer's claim (its hand-over lapsed)
    assert not images.draw_posted(store, gid, 1)
    assert drawn_here == [] and store.r.exists(key)  # still claimed: the consumer deletes it when done


def test_a_drawing_that_could_not_be_queued_releases_its_claim_at_once(
    store: Store, monkeypatch: pytest.MonkeyPatch, drawn_here: list[str]
) -> None:
    from workers import images, pipeline, tasks

    monkeypatch.setenv("AGORA_RENDER_WORKERS", "1")

    def broken(*_: Any, **__: Any) -> None:
        raise ConnectionError("broker gone")

    monkeypatch.setattr(tasks.render, "apply_async", broken)
    gid = make_game(store)
    tasks.draw_or_queue(store, pipeline.load(store, gid))  # logs, never raises
    assert not store.r.exists(k_image(gid, 1, "public") + ":drawing")  # the consumer need not wait
    assert images.board_png(store, gid, 1) is not None and drawn_here == ["toy"]
