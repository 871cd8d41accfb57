"""Prometheus metrics and the health endpoints of a process.

Why per process and not multiprocess mode: every long-running piece (each worker process, the
beat scheduler, each bot) is its own process with its own port, so each serves its own
registry; Prometheus adds them up. The gauges that describe shared state (queue depth, outbox
lag, active games) are read from Redis when scraped, so any process can serve them and they
are never stale.

Endpoints on ``AGORA_METRICS_HOST:AGORA_METRICS_PORT``: ``/metrics`` (Prometheus text),
``/healthz`` (the process is alive and its loop is turning), ``/readyz`` (it can reach Redis).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from socketserver import ThreadingMixIn
from typing import Any
from wsgiref.simple_server import WSGIRequestHandler, WSGIServer, make_server

from prometheus_client import REGISTRY, CollectorRegistry, Counter, Histogram, make_wsgi_app
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

MOVES = Counter("agora_moves_total", "Moves answered, by result code (ok, action/illegal, ...)", ["code", "source"])
PIPELINE_SECONDS = Histogram(
    "agora_pipeline_seconds",
    "Time from a move's submission to its answer in the pipeline",
    ["source"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
RENDER_SECONDS = Histogram(
    "agora_render_seconds",
    "Time to draw one board or private image",
    ["game", "kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)
REMINDER_LAG = Histogram(
    "agora_reminder_lag_seconds",
    "Time from a deadline or reminder being due to its message in the outbox",
    buckets=(0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0),
)
OUTBOX_SENT = Counter("agora_outbox_sent_total", "Outbox messages delivered", ["platform"])
BOARDS_DRAWN = Counter(
    "agora_boards_drawn_total",
    "Images drawn, by who drew them: render_worker, move_worker, or on_demand (a bot delivering a post)",
    ["by"],
)
TURNS_MERGED = Counter(
    "agora_turn_posts_merged_total",
    "Turn posts that waited over a second and were sent as part of a newer post of their table",
)
RENDER_LAPSES = Counter(
    "agora_render_handover_lapses_total",
    "Boards handed over to a render worker that none took in time, so this process drew them",
)


def observe_move(code: str, source: str, seconds: float) -> None:
    """Count one answered move and its pipeline time (never raises: metrics are best effort).

    ``source`` is ``player``, ``auto`` or ``timeout``; a duplicate answers as ``duplicate``."""
    try:
        MOVES.labels(code or "?", source or "?").inc()
        PIPELINE_SECONDS.labels(source or "?").observe(seconds)
    except Exception:  # pragma: no cover - a broken metric must never cost a move
        log.debug("could not record a move metric", exc_info=True)


class StoreCollector(Collector):
    """Gauges read from Redis at scrape time: queue depth, outbox lag, scheduled games."""

    def __init__(
        self,
        redis: Callable[[], Any],
        platforms: Iterable[str] = ("telegram", "discord", "console"),
        broker: Callable[[], Any] | None = None,
    ) -> None:
        self.redis = redis
        self.broker = broker or redis  # the Celery queue (another Redis when the store is a cluster)
        self.platforms = tuple(platforms)

    def collect(self) -> Iterator[GaugeMetricFamily]:
        from workers import store as st

        try:
            r = self.redis()
            depth = GaugeMetricFamily("agora_queue_depth", "Tasks waiting in the Celery queue", labels=["queue"])
            for queue in ("celery", "render"):  # moves (and follow-ups); board drawings
                depth.add_metric([queue], float(self.broker().llen(queue)))
            yield depth
            lag = GaugeMetricFamily(
                "agora_outbox_lag_seconds", "Age of the oldest undelivered outbox message", labels=["platform"]
            )
            pending = GaugeMetricFamily(
                "agora_outbox_pending", "Outbox messages fetched but not yet acknowledged", labels=["platform"]
            )
            now_ms = time.time() * 1000
            for platform in self.platforms:
                # every partition's stream: the lag is the oldest's, the pending count the sum
                streams = [st.k_outbox_in(platform, part) for part in range(st.PARTITIONS)]
                stamps = [t for t in (_oldest_undelivered(r, s) for s in streams) if t]
                oldest = min(stamps) if stamps else None
                lag.add_metric([platform], max(0.0, (now_ms - oldest) / 1000) if oldest else 0.0)
                pending.add_metric([platform], float(sum(_pending_count(r, s) for s in streams)))
            yield lag
            yield pending
            games = GaugeMetricFamily(
                "agora_scheduled_games", "Games being played with a pending reminder or deadline"
            )
            pipe = r.pipeline(transaction=False)
            for part in range(st.PARTITIONS):
                pipe.zcard(st.k_deadlines_in(part))
            games.add_metric([], float(sum(pipe.execute())))
            yield games
        except Exception:
            log.warning("metrics: could not read the store", exc_info=True)


def _oldest_undelivered(r: Any, stream: str) -> float | None:
    """Milliseconds timestamp of the oldest entry not yet acknowledged by the group."""
    try:
        info = r.xpending(stream, "delivery")
        if info and info.get("pending"):
            return float(str(info["min"]).split("-")[0])
        groups = r.xinfo_groups(stream)
        for g in groups:
            if g.get("name") in ("delivery", b"delivery"):
                last = str(g.get("last-delivered-id", "0-0"))
                nxt = r.xrange(stream, min=f"({last}", count=1) if last != "0-0" else r.xrange(stream, count=1)
                return float(nxt[0][0].split("-")[0]) if nxt else None
    except Exception:
        return None
    return None


def _pending_count(r: Any, stream: str) -> int:
    try:
        return int(r.xpending(stream, "delivery").get("pending", 0))
    except Exception:
        return 0


class _Server(ThreadingMixIn, WSGIServer):
    daemon_threads = True


class _Quiet(WSGIRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        return


class Health:
    """What ``/healthz`` and ``/readyz`` answer: alive while the process serves HTTP and, for
    a process with a loop that calls ``beat()`` (``stall_after`` set), while that loop has
    ticked recently; ready when alive and ``ready()`` returns True (e.g. Redis answers PING)."""

    def __init__(self, ready: Callable[[], bool] | None = None, *, stall_after: float | None = None) -> None:
        self.ready_check = ready
        self.stall_after = stall_after
        self.last_beat = time.monotonic()

    def beat(self) -> None:
        self.last_beat = time.monotonic()

    def alive(self) -> bool:
        return self.stall_after is None or time.monotonic() - self.last_beat < self.stall_after

    def ready(self) -> bool:
        try:
            return self.alive() and (self.ready_check is None or bool(self.ready_check()))
        except Exception:
            return False


def wsgi_app(health: Health, registry: CollectorRegistry = REGISTRY) -> Callable[..., Iterable[bytes]]:
    """/metrics from the registry, /healthz and /readyz from ``health``."""
    metrics = make_wsgi_app(registry)

    def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "/")
        if path in ("/healthz", "/readyz"):
            ok = health.alive() if path == "/healthz" else health.ready()
            body = b"ok\n" if ok else b"not ok\n"
            start_response("200 OK" if ok else "503 Service Unavailable", [("Content-Type", "text/plain")])
            return [body]
        if path == "/metrics":
            return metrics(environ, start_response)  # type: ignore[no-any-return]
        start_response("404 Not Found", [("Content-Type", "text/plain")])
        return [b"/metrics, /healthz or /readyz\n"]

    return app


def serve(
    host: str,
    port: int,
    health: Health,
    *,
    redis: Callable[[], Any] | None = None,
    broker: Callable[[], Any] | None = None,
) -> WSGIServer:
    """Start the endpoint in a daemon thread; returns the server (``.server_port``, ``.shutdown()``)."""
    if redis is not None and not getattr(serve, "_collector", None):
        REGISTRY.register(StoreCollector(redis, broker=broker))
        serve._collector = True  # type: ignore[attr-defined]
    server = make_server(host, port, wsgi_app(health), server_class=_Server, handler_class=_Quiet)
    threading.Thread(target=server.serve_forever, name="agora-metrics", daemon=True).start()
    log.info("metrics on http://%s:%s/metrics", host, server.server_port)
    return server


def start_from_settings(redis_url: str, *, offset: int = 0) -> WSGIServer | None:
    """Serve this process's endpoint on ``AGORA_METRICS_PORT + offset`` when the port is set;
    readiness is a PING of ``redis_url``. Returns the server, or None when metrics are off."""
    import redis

    from workers import settings

    cfg = settings.load()
    if not cfg.agora_metrics_port:
        return None
    from workers import redisconn

    client = redisconn.connect(redis_url, socket_timeout=2)
    broker_url, _ = redisconn.broker(redis_url)
    queue = redis.Redis.from_url(broker_url, socket_timeout=2) if broker_url.startswith("redis") else client
    health = Health(lambda: bool(client.ping()))
    return serve(
        cfg.agora_metrics_host,
        cfg.agora_metrics_port + offset,
        health,
        redis=lambda: client,
        broker=lambda: queue,
    )
