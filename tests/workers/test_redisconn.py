"""REDIS_URL forms: plain, cluster (scheme or switch) and Sentinel, and the broker for each."""

from __future__ import annotations

import pytest
from redis.cluster import RedisCluster
from redis.sentinel import SentinelConnectionPool

from workers import redisconn
from workers.ratelimit import _storage_url


def test_which_kind_of_redis_a_url_names() -> None:
    assert not redisconn.is_cluster("redis://h:6379/0", {})
    assert redisconn.is_cluster("redis+cluster://h:7000", {})
    assert redisconn.is_cluster("rediss+cluster://h:7000,h2:7001", {})
    assert redisconn.is_cluster("redis://h:7000", {"REDIS_CLUSTER": "1"})
    assert not redisconn.is_cluster("redis://h:7000", {"REDIS_CLUSTER": "0"})
    assert redisconn.is_sentinel("redis+sentinel://h:26379/agora")


def test_clients_for_each_form() -> None:
    """Building a client does not connect: the kind of client and its targets are checked."""
    sentinel = redisconn.connect("redis+sentinel://:pw@s1:26379,s2:26380/agora/2", env={})
    pool = sentinel.connection_pool
    assert isinstance(pool, SentinelConnectionPool) and pool.service_name == "agora"
    assert [(c.connection_pool.connection_kwargs["host"], c.connection_pool.connection_kwargs["port"])
            for c in pool.sentinel_manager.sentinels] == [("s1", 26379), ("s2", 26380)]
    assert pool.connection_kwargs["db"] == 2 and pool.connection_kwargs["password"] == "pw"
    plain = redisconn.connect("redis://127.0.0.1:1/3", env={})
    assert plain.connection_pool.connection_kwargs["db"] == 3
    with pytest.raises(ValueError, match="names its master"):
        redisconn.connect("redis+sentinel://s1:26379", env={})


def test_a_cluster_client_finds_the_cluster(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, object] = {}

    def fake_init(self: RedisCluster, **kwargs: object) -> None:
        seen.update(kwargs)

    monkeypatch.setattr(RedisCluster, "__init__", fake_init)
    redisconn.connect("redis+cluster://:secret@n1:7000,n2:7001", env={})
    nodes = seen["startup_nodes"]
    assert [(n.host, n.port) for n in nodes] == [("n1", 7000), ("n2", 7001)]  # type: ignore[attr-defined]
    assert seen["password"] == "secret"


def test_the_broker_for_each_store() -> None:
    assert redisconn.broker("redis://h:6379/0", {}) == ("redis://h:6379/0", {})
    with pytest.raises(ValueError, match="AGORA_BROKER_URL"):
        redisconn.broker("redis+cluster://h:7000", {})
    with pytest.raises(ValueError, match="AGORA_BROKER_URL"):
        redisconn.broker("redis://h:7000", {"REDIS_CLUSTER": "1"})
    assert redisconn.broker("redis+cluster://h:7000", {"AGORA_BROKER_URL": "redis://q:6379/1"}) == (
        "redis://q:6379/1", {}
    )
    url, options = redisconn.broker("redis+sentinel://:pw@s1:26379,s2:26380/agora/1", {})
    assert url == "sentinel://:pw@s1:26379/1;sentinel://:pw@s2:26380/1" and options == {"master_name": "agora"}


def test_the_rate_limiter_speaks_every_form(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_CLUSTER", raising=False)
    assert _storage_url("redis+cluster://h:7000,h2:7001") == "redis+cluster://h:7000,h2:7001"
    assert _storage_url("redis+sentinel://s:26379/agora") == "redis+sentinel://s:26379/agora"
    monkeypatch.setenv("REDIS_CLUSTER", "1")
    assert _storage_url("redis://:pw@h:7000/0") == "redis+cluster://:pw@h:7000"


def test_settings_name_the_missing_broker_of_a_cluster() -> None:
    from workers import settings

    with pytest.raises(settings.SettingsError, match="AGORA_BROKER_URL") as err:
        settings.load({"REDIS_URL": "redis+cluster://127.0.0.1:7000"})
    assert "Traceback" not in str(err.value)
    with pytest.raises(settings.SettingsError, match="AGORA_BROKER_URL"):
        settings.load({"REDIS_URL": "redis://127.0.0.1:7000", "REDIS_CLUSTER": "1"})
    cfg = settings.load({"REDIS_URL": "redis+cluster://127.0.0.1:7000",
                         "AGORA_BROKER_URL": "redis://:pw@127.0.0.1:6379/0", "REDIS_CLUSTER": ""})
    assert cfg.public()["AGORA_BROKER_URL"] == "redis://:***@127.0.0.1:6379/0"
