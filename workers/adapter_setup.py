"""Process set-up for the adapters: settings, logging, metrics, and the deadline index rebuild.

Why a module of its own: adapters reach the rest of ``workers`` only through
:mod:`workers.client` (the import-layer rule); these are the pieces of process set-up they
need, re-exported there.
"""

from __future__ import annotations

from typing import Any

from workers import settings
from workers.store import Store

Settings = settings.Settings
SettingsError = settings.SettingsError
mask_url = settings.mask_url


def load_settings() -> settings.Settings:
    """The validated settings (raises :class:`SettingsError` naming every wrong variable)."""
    return settings.load()


def require_settings(cfg: settings.Settings, *variables: str, why: str) -> None:
    """Raise :class:`SettingsError` when a variable the command needs is not set."""
    settings.require(cfg, *variables, why=why)


def setup_logging(cfg: settings.Settings) -> None:
    """Text or JSON logs with game context and secrets scrubbed (see :mod:`workers.logs`)."""
    from workers import logs

    logs.setup(cfg)


def start_metrics(redis_url: str, *, offset: int = 0) -> Any:
    """This process's /metrics, /healthz and /readyz when ``AGORA_METRICS_PORT`` is set."""
    from workers import metrics

    return metrics.start_from_settings(redis_url, offset=offset)


def count_delivered(platform: str) -> None:
    """One outbox message delivered on ``platform`` (a metric)."""
    from workers import metrics

    metrics.OUTBOX_SENT.labels(platform).inc()


def rebuild_deadline_index(redis_url: str) -> int:
    """Rebuild the deadline index from the game records (``agora deadlines rebuild``);
    returns how many games are scheduled."""
    from workers import deadlines

    return int(deadlines.rebuild_index(Store.from_url(redis_url)))
