"""The Celery application: JSON only, late acks, lost-worker rejection, time limits.

Why these settings: every task is idempotent (moves carry an idempotency key, follow-ups
re-check the game version), so ``acks_late`` + ``reject_on_worker_lost`` turn a crashed or
killed worker into a redelivery instead of a lost move; JSON keeps messages inspectable and
rules out pickle; time limits stop a stuck render from blocking a worker forever.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals


def store_url() -> str:
    """The store: ``REDIS_URL`` (the embedded server sets it for children), with
    ``REDIS_PASSWORD`` (or its secret file) put in when the URL has none."""
    from workers import settings

    return settings.load().store_url() or "redis://127.0.0.1:6379/0"


def broker_url() -> str:
    """The broker and result store: the store's Redis, or ``AGORA_BROKER_URL`` (required when
    the store is a Redis Cluster; see workers/redisconn.py)."""
    from workers import redisconn

    return redisconn.broker(store_url())[0]


def _sentinel_options() -> dict[str, Any]:
    """kombu's Sentinel options (the master's name) when the broker is a Sentinel."""
    from workers import redisconn

    return redisconn.broker(store_url())[1]


def load_plugins() -> None:
    """Import extra game modules named in ``AGORA_PLUGINS`` (comma-separated); each registers
    its game with ``engine.register``. Tests use it for their toy game."""
    import importlib
    import sys
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    if os.environ.get("AGORA_PLUGINS") and root not in sys.path:
        sys.path.append(root)
    for name in filter(None, (x.strip() for x in os.environ.get("AGORA_PLUGINS", "").split(","))):
        importlib.import_module(name)


def _transport_options() -> dict[str, float]:
    """Redelivery of a killed worker's unacknowledged tasks.

    ``visibility_timeout`` (``AGORA_VISIBILITY_TIMEOUT``, default 300 s) is how long a task may
    stay unacknowledged before another worker takes it over. kombu 5.7 sweeps for such tasks
    only every ``unacked_restore_interval`` (10 s) x ``unacked_restore_throttle`` (10) = 100 s,
    so a move held by a crashed worker waited up to a further 100 s (with the tests' 4 s
    timeout, no redelivery within 40 s was observed). We sweep every quarter of the visibility
    timeout (1-10 s) and scan on every sweep: one ZRANGE per worker per interval.
    """
    visibility = int(os.environ.get("AGORA_VISIBILITY_TIMEOUT", "300"))
    return {
        "visibility_timeout": visibility,
        "unacked_restore_interval": max(1, min(10, visibility // 4)),
        "unacked_restore_throttle": 1,
    }


def _reuse_broker_clients() -> None:
    """One Redis client object per broker connection pool (see ``redisconn.reuse_broker_clients``)."""
    from workers import redisconn

    redisconn.reuse_broker_clients()


# The queue of board drawings, consumed only by the render workers (``celery worker -Q render``):
# a move worker that drew the board of the turn it posted made the moves queued behind it wait
# 60-360 ms (issue 12). Move workers consume ``MOVE_QUEUE`` only.
RENDER_QUEUE = "render"
MOVE_QUEUE = "celery"

load_plugins()
_reuse_broker_clients()
app = Celery("agora", include=["workers.tasks"])
app.conf.update(
    broker_url=broker_url(),
    result_backend=broker_url(),
    task_default_queue=MOVE_QUEUE,
    task_routes={"agora.render": {"queue": RENDER_QUEUE}},
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    task_acks_on_failure_or_timeout=True,
    task_time_limit=60,
    task_soft_time_limit=45,
    worker_prefetch_multiplier=1,
    result_expires=3600,
    broker_connection_retry_on_startup=True,
    broker_transport_options={**_transport_options(), **_sentinel_options()},
    result_backend_transport_options={"retry_policy": {"timeout": 5.0}, **_sentinel_options()},
    agora_store_url=store_url(),
    worker_hijack_root_logger=False,
    beat_schedule={
        "sweep-deadlines": {"task": "agora.sweep", "schedule": float(os.environ.get("AGORA_SWEEP_SECONDS", "5"))},
    },
    timezone="UTC",
    enable_utc=True,
)


def _settings() -> Any:
    from workers import settings

    return settings.load()


@signals.setup_logging.connect
def _setup_logging(**_: Any) -> None:
    """Worker and beat processes log like every other process: the level and format of the
    settings, with game context and secrets scrubbed (Celery leaves logging to us)."""
    from workers import logs

    logs.setup(_settings())


def _serve_metrics(offset_env: str) -> None:
    """Start this process's /metrics, /healthz and /readyz when ``AGORA_METRICS_PORT`` is set,
    on that port plus ``AGORA_METRICS_OFFSET`` (``agora serve`` gives each child its own)."""
    from workers import metrics

    metrics.start_from_settings(store_url(), offset=int(os.environ.get(offset_env, "0") or 0))


@signals.worker_ready.connect
def _worker_metrics(**_: Any) -> None:
    _serve_metrics("AGORA_METRICS_OFFSET")


@signals.beat_init.connect
def _beat_metrics(**_: Any) -> None:
    _serve_metrics("AGORA_METRICS_OFFSET")


@signals.beat_init.connect
def _beat_lease(**_: Any) -> None:
    """One scheduler at a time: block here (a standby) until this process holds the lease."""
    from workers import leader

    leader.hold(store_url(), float(os.environ.get("AGORA_BEAT_LEASE_SECONDS", "30")))
