"""The one place that turns ``REDIS_URL`` into a client: a plain Redis, a Redis Cluster or a
Sentinel-managed master, and the Celery broker that goes with it.

Why one factory: the store, the beat lease, the metrics' readiness check and the rate limiter
all talk to the same Redis; when each built its own client from the URL, only plain
``redis://`` URLs worked. Accepted forms:

* ``redis://[:pw@]host:port/db`` (and ``rediss://``, ``unix://``): one server (the default, and
  the embedded Valkey of the quick start);
* ``redis+cluster://[:pw@]host:port[,host:port...]`` (``rediss+cluster://`` with TLS), or a plain
  URL with ``REDIS_CLUSTER=1``: a Redis Cluster, found from any of the seed nodes;
* ``redis+sentinel://[:pw@]host:port[,host:port...]/mastername[/db]``: the master Sentinel names
  (followed through failovers); ``?sentinel_password=`` if the Sentinels have their own.

Celery's broker cannot be a Redis Cluster (kombu needs MULTI over several keys): with a
cluster store it is ``AGORA_BROKER_URL`` (a plain Redis or Sentinel). A Sentinel store gives a
Sentinel broker by itself (kombu's ``sentinel://`` transport with the master's name).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import redis
from redis.cluster import ClusterNode, RedisCluster
from redis.sentinel import Sentinel

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
SENTINEL_SCHEMES = ("redis+sentinel", "rediss+sentinel")
TRUE = ("1", "true", "yes", "on")


def is_cluster(url: str, env: Mapping[str, str] | None = None) -> bool:
    """Whether ``url`` names a Redis Cluster (its scheme, or ``REDIS_CLUSTER=1``)."""
    env = os.environ if env is None else env
    scheme = urlsplit(url).scheme.lower()
    return scheme in CLUSTER_SCHEMES or (
        scheme in ("redis", "rediss") and env.get("REDIS_CLUSTER", "").strip().lower() in TRUE
    )


def is_sentinel(url: str) -> bool:
    return urlsplit(url).scheme.lower() in SENTINEL_SCHEMES


def _hosts(netloc: str, default_port: int) -> list[tuple[str, int]]:
    """``host:port,host:port`` (after the credentials) as pairs."""
    out = []
    for part in netloc.rpartition("@")[2].split(","):
        host, _, port = part.strip().rpartition(":")
        if not host:  # no port given
            host, port = part.strip(), ""
        out.append((host.strip("[]"), int(port) if port else default_port))
    return out


@dataclass(frozen=True, slots=True)
class _Parsed:
    hosts: list[tuple[str, int]]
    username: str | None
    password: str | None
    path: list[str]
    query: dict[str, list[str]]
    tls: bool


def _parse(url: str, default_port: int) -> _Parsed:
    parts = urlsplit(url)
    creds = parts.netloc.rpartition("@")[0]
    user, _, pw = creds.partition(":") if creds else ("", "", "")
    return _Parsed(
        hosts=_hosts(parts.netloc, default_port),
        username=unquote(user) or None,
        password=unquote(pw) or None,
        path=[p for p in parts.path.split("/") if p],
        query=parse_qs(parts.query),
        tls=parts.scheme.lower().startswith("rediss"),
    )


def _cluster_args(url: str, socket_timeout: float) -> dict[str, Any]:
    """Arguments both cluster clients take (startup nodes as ``(host, port)`` pairs)."""
    p = _parse(url, 6379)
    return {
        "nodes": p.hosts,
        "username": p.username,
        "password": p.password,
        "ssl": p.tls,
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": min(socket_timeout, 5.0),
    }


def _sentinel_args(url: str, socket_timeout: float) -> tuple[list[tuple[str, int]], dict[str, Any], str, int]:
    """(Sentinel hosts, Sentinel constructor arguments, master name, db) of a Sentinel URL."""
    p = _parse(url, 26379)
    if not p.path:
        raise ValueError("a Sentinel URL names its master: redis+sentinel://host:26379/mymaster")
    sentinel_pw = (p.query.get("sentinel_password") or [None])[0]
    own: dict[str, Any] = {"socket_timeout": socket_timeout}
    if sentinel_pw:
        own["password"] = sentinel_pw
    args = {
        "socket_timeout": socket_timeout,
        "sentinel_kwargs": own,
        "username": p.username,
        "password": p.password,
        "ssl": p.tls,
    }
    return p.hosts, args, p.path[0], int(p.path[1]) if len(p.path) > 1 else 0


def connect(url: str, *, socket_timeout: float = 10.0, env: Mapping[str, str] | None = None, **kwargs: Any) -> Any:
    """A client for ``url``: ``redis.Redis``, ``RedisCluster`` or a Sentinel master client.

    All three speak the same commands for what Agora does with them: every key one script or
    MULTI touches shares a hash slot (see workers/keys.py), so the cluster client can route
    each of them to one node.
    """
    if is_cluster(url, env):
        args = _cluster_args(url, socket_timeout)
        nodes = [ClusterNode(h, port) for h, port in args.pop("nodes")]
        return RedisCluster(startup_nodes=nodes, **args, **kwargs)
    if is_sentinel(url):
        hosts, args, master, db = _sentinel_args(url, socket_timeout)
        return Sentinel(hosts, **args).master_for(master, db=db, socket_timeout=socket_timeout, **kwargs)
    return redis.Redis.from_url(url, socket_timeout=socket_timeout, **kwargs)


def connect_async(url: str, *, socket_timeout: float = 10.0, env: Mapping[str, str] | None = None) -> Any:
    """The asyncio twin of :func:`connect` for the same three URL forms.

    Why: the adapters wait for move answers on their event loop (workers/answers.py); on a
    cluster or behind Sentinel that wait must reach the same store as the workers' push."""
    import redis.asyncio as aredis
    from redis.asyncio.cluster import ClusterNode as AsyncClusterNode
    from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
    from redis.asyncio.sentinel import Sentinel as AsyncSentinel

    if is_cluster(url, env):
        args = _cluster_args(url, socket_timeout)
        nodes = [AsyncClusterNode(h, port) for h, port in args.pop("nodes")]
        return AsyncRedisCluster(startup_nodes=nodes, **args)
    if is_sentinel(url):
        hosts, args, master, db = _sentinel_args(url, socket_timeout)
        return AsyncSentinel(hosts, **args).master_for(master, db=db, socket_timeout=socket_timeout)
    return aredis.Redis.from_url(url, socket_timeout=socket_timeout)


def broker(store_url: str, env: Mapping[str, str] | None = None) -> tuple[str, dict[str, Any]]:
    """(Celery broker URL, transport options to add) for a store URL.

    ``AGORA_BROKER_URL`` wins when set; a cluster store requires it (the message says so); a
    Sentinel store becomes kombu's ``sentinel://`` list with the master's name."""
    env = os.environ if env is None else env
    explicit = env.get("AGORA_BROKER_URL", "").strip()
    url = explicit or store_url
    if is_cluster(url, {} if explicit else env):
        raise ValueError(
            "REDIS_URL names a Redis Cluster, which Celery cannot use as its broker: set AGORA_BROKER_URL "
            "to a plain Redis or Sentinel URL for the task queue"
        )
    if is_sentinel(url):
        p = _parse(url, 26379)
        if not p.path:
            raise ValueError("a Sentinel URL names its master: redis+sentinel://host:26379/mymaster")
        creds = ""
        if p.password:
            creds = f"{p.username or ''}:{p.password}@"
        db = f"/{p.path[1]}" if len(p.path) > 1 else ""
        joined = ";".join(f"sentinel://{creds}{h}:{port}{db}" for h, port in p.hosts)
        options: dict[str, Any] = {"master_name": p.path[0]}
        sentinel_pw = (p.query.get("sentinel_password") or [None])[0]
        if sentinel_pw:
            options["sentinel_kwargs"] = {"password": sentinel_pw}
        return joined, options
    return url, {}


def configure_celery(app: Any, store_url: str) -> None:
    """Point a Celery app at the broker that goes with ``store_url`` (and remember the store's
    URL for the tasks run in this process)."""
    url, options = broker(store_url)
    if app.conf.broker_url and app.conf.broker_url != url:
        drop_celery_connections(app)
    app.conf.broker_url = url
    app.conf.result_backend = url
    app.conf.agora_store_url = store_url
    if options:
        app.conf.broker_transport_options = {**(app.conf.broker_transport_options or {}), **options}
        app.conf.result_backend_transport_options = {
            **(app.conf.result_backend_transport_options or {}),
            **options,
        }


def drop_celery_connections(app: Any) -> None:
    """Forget the broker connection pool and result backend a Celery app built on first use.

    Why: Celery builds both once, from the URL it had then; an app pointed at another server
    later (``agora serve`` starting its embedded server in a process that already sent a task,
    a test stack with a server of its own) would otherwise keep sending tasks to the old one and
    wait for results there forever."""
    # Not closed: kombu keeps pools in a registry by URL, and a later switch back to that URL
    # gets the same pool again.
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    app._backend_cache = None
    if app._local is not None:
        app._local.backend = None


def reuse_broker_clients() -> None:
    """Make kombu's Redis channels reuse one client object per connection pool.

    Why: kombu 5.7 builds a new ``redis.Redis`` for every publish, every acknowledgement and
    every unacked-message record (``Channel.conn_or_acquire``), and redis-py 7 fills two
    dictionaries of ~80 reply callbacks for each: about 70 us of CPU each time, two or three
    times per move in the worker and once in the adapter (issue 12: the CPU of a move). A
    client object holds no connection of its own (it checks one out of the channel's pool
    per command), so one per pool serves every caller of the channel, threads included; a new
    pool (a reconnect) gets a new client. Idempotent; only synchronous clients are reused
    (the asynchronous one is already built once per channel)."""
    from kombu.transport import redis as kombu_redis

    channel = kombu_redis.Channel
    if getattr(channel._create_client, "_agora_reused", False):
        return
    original = channel._create_client

    def create_client(self: Any, asynchronous: bool = False) -> Any:
        if asynchronous:
            return original(self, asynchronous=True)
        pool = self.pool
        cached = self.__dict__.get("_agora_client")
        if cached is not None and cached.connection_pool is pool:
            return cached
        client = original(self, asynchronous=False)
        self.__dict__["_agora_client"] = client
        return client

    create_client._agora_reused = True  # type: ignore[attr-defined]
    channel._create_client = create_client  # type: ignore[method-assign]
