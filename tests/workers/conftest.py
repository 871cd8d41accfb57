"""Fixtures for the service-layer tests (all against the real server of tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.workers.util import Spawner


@pytest.fixture
def app(redis_url: str, store: Any) -> Any:
    """The Celery app of this process, pointed at the test server (producer and results)."""
    import tests.workers.simgame  # noqa: F401
    from workers import tasks
    from workers.celery_app import app as celery_app

    if celery_app.conf.broker_url != redis_url:  # another test pointed it at its own server
        from workers.redisconn import drop_celery_connections

        drop_celery_connections(celery_app)
    celery_app.conf.broker_url = redis_url
    celery_app.conf.result_backend = redis_url
    celery_app.conf.agora_store_url = redis_url
    tasks._store = None  # the in-process task store follows the URL too
    return celery_app


@pytest.fixture
def spawn(redis_url: str, app: Any, tmp_path: Path) -> Iterator[Spawner]:
    """Start workers with ``spawn.worker(name, env=...)``; all are stopped by PID afterwards."""
    s = Spawner(redis_url, app, tmp_path)
    try:
        yield s
    finally:
        s.stop_all()
