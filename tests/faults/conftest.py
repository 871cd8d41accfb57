"""The fault suite shares the service-layer fixtures (the Celery app on the test server and
worker processes stopped by PID) with tests/workers: the failover tests need both."""

from tests.workers.conftest import app, spawn

__all__ = ["app", "spawn"]
