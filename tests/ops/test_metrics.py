"""Prometheus metrics and health endpoints: in-process, and served by a real worker process."""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request
from typing import Any

import redis

from tests.conftest import Worker
from tests.workers.util import A, make_game
from workers import metrics, pipeline
from workers.store import Store


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_endpoint_counts_moves_and_reports_health(store: Store, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    server = metrics.serve("127.0.0.1", 0, metrics.Health(lambda: bool(client.ping())), redis=lambda: client)
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        gid = make_game(store)
        assert pipeline.submit(store, gid, text="add 2", idem="m:1", user=A).ok
        assert not pipeline.submit(store, gid, text="add 2", idem="m:2", user=A).ok  # not A's turn now
        status, body = _get(base + "/metrics")
        assert status == 200
        assert 'agora_moves_total{code="ok",source="player"}' in body
        assert 'agora_moves_total{code="action/not_your_turn",source="player"}' in body or "not_your_turn" in body
        assert "agora_pipeline_seconds_bucket" in body
        assert 'agora_queue_depth{queue="celery"}' in body and "agora_outbox_lag_seconds" in body
        assert 'agora_queue_depth{queue="render"}' in body  # the boards waiting for a render worker
        assert _get(base + "/healthz") == (200, "ok\n")
        assert _get(base + "/readyz") == (200, "ok\n")
        assert _get(base + "/nothing")[0] == 404
    finally:
        server.shutdown()
        client.close()


def test_readyz_fails_while_redis_is_unreachable() -> None:
    dead = redis.Redis.from_url(f"redis://127.0.0.1:{_free_port()}/0", socket_timeout=0.5)
    server = metrics.serve("127.0.0.1", 0, metrics.Health(lambda: bool(dead.ping())))
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        assert _get(base + "/healthz")[0] == 200
        assert _get(base + "/readyz") == (503, "not ok\n")
    finally:
        server.shutdown()


def test_health_goes_bad_when_the_loop_stalls() -> None:
    health = metrics.Health(stall_after=0.05)
    assert health.alive()
    time.sleep(0.1)
    assert not health.alive() and not health.ready()
    health.beat()
    assert health.alive()


def test_a_worker_process_serves_its_own_endpoint(redis_url: str, store: Any) -> None:
    port = _free_port()
    w = Worker(redis_url, name="metrics", env={"AGORA_METRICS_PORT": str(port - 3), "AGORA_METRICS_OFFSET": "3"})
    w.start()
    try:
        deadline = time.monotonic() + 30
        status = 0
        while time.monotonic() < deadline:
            try:
                status, _ = _get(f"http://127.0.0.1:{port}/readyz")
                break
            except OSError:
                time.sleep(0.2)
        assert status == 200
        status, body = _get(f"http://127.0.0.1:{port}/metrics")
        assert status == 200 and "agora_pipeline_seconds" in body
    finally:
        w.stop()


def test_dashboard_queries_only_metrics_we_export() -> None:
    import json
    import re
    from pathlib import Path

    dash = json.loads((Path(__file__).resolve().parents[2] / "deploy" / "grafana" / "agora-dashboard.json").read_text())
    names = {m.group(0) for p in dash["panels"] for t in p["targets"] for m in re.finditer(r"agora_[a-z_]+", t["expr"])}
    exported = {"agora_queue_depth", "agora_outbox_lag_seconds", "agora_outbox_pending", "agora_scheduled_games"}
    families = (metrics.MOVES, metrics.PIPELINE_SECONDS, metrics.RENDER_SECONDS, metrics.REMINDER_LAG)
    families += (metrics.OUTBOX_SENT,)
    for family in families:
        for collected in family.collect():
            exported |= {collected.name + suffix for suffix in ("", "_total", "_bucket", "_sum", "_count")}
    assert names and names <= exported, names - exported
