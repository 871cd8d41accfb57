"""Moves are sent on producers kept between sends, without declaring the queue (issue 12).

Why these tests: the publisher skips two things Celery does on every send (taking a producer
from its pool, declaring the queue). Each test pins what that must not lose: the messages still
reach the queue a worker reads, also on a store that lost its bindings; a producer is never
shared by two sends at once; one whose send raised is never used again.
"""

from __future__ import annotations

import threading
from typing import Any

import pytest

from tests.conftest import Worker, wait_for
from tests.workers.util import assert_replays, make_game
from workers.celery_app import MOVE_QUEUE
from workers.publisher import Publisher
from workers.store import Store


def test_sends_reuse_one_producer_and_declare_no_binding(app: Any, store: Store) -> None:
    from workers import tasks

    publisher = Publisher(app, app.conf.broker_url)
    try:
        for i in range(20):
            publisher.send(tasks.noop, args=[i], ignore_result=True)
    finally:
        publisher.close()
    assert publisher.made == 1
    assert store.r.llen(MOVE_QUEUE) == 20
    # Celery's own send declares the queue (a binding set per exchange); this one does not.
    assert not list(store.r.scan_iter("_kombu.binding.*"))
    # On a connection of its own: a connection declares a queue once, and the pool's may have
    # done so for an earlier test already.
    with app.connection_for_write() as conn:
        tasks.noop.apply_async(args=[0], ignore_result=True, producer=app.amqp.Producer(conn))
    assert list(store.r.scan_iter("_kombu.binding.*")), "the check above could not fail"


def test_concurrent_sends_never_share_a_producer(app: Any, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import tasks

    publisher = Publisher(app, app.conf.broker_url)
    busy: set[int] = set()
    shared: list[int] = []
    lock = threading.Lock()
    real = tasks.noop.apply_async

    def watched(**options: Any) -> Any:
        producer = id(options["producer"])
        with lock:
            if producer in busy:
                shared.append(producer)
            busy.add(producer)
        try:
            return real(**options)
        finally:
            with lock:
                busy.discard(producer)

    monkeypatch.setattr(tasks.noop, "apply_async", watched)
    start = threading.Barrier(4)

    def sender(n: int) -> None:
        start.wait()
        for i in range(25):
            publisher.send(tasks.noop, args=[n * 100 + i], ignore_result=True)

    threads = [threading.Thread(target=sender, args=(n,)) for n in range(4)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
    finally:
        publisher.close()
    assert not shared
    assert 1 <= publisher.made <= 4
    assert store.r.llen(MOVE_QUEUE) == 100


def test_a_send_that_raised_drops_its_producer(app: Any, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import tasks

    publisher = Publisher(app, app.conf.broker_url)
    used: list[Any] = []
    real = tasks.noop.apply_async

    def flaky(**options: Any) -> Any:
        used.append(options["producer"])
        if len(used) == 2:
            raise ConnectionError("the store went away")
        return real(**options)

    monkeypatch.setattr(tasks.noop, "apply_async", flaky)
    try:
        publisher.send(tasks.noop, args=[1], ignore_result=True)
        with pytest.raises(ConnectionError):
            publisher.send(tasks.noop, args=[2], ignore_result=True)
        publisher.send(tasks.noop, args=[3], ignore_result=True)
    finally:
        publisher.close()
    assert used[0] is used[1]  # reused while it worked
    assert used[2] is not used[1]  # dropped once it raised
    assert publisher.made == 2
    assert store.r.llen(MOVE_QUEUE) == 2


def test_a_forked_child_does_not_reuse_its_parents_producers(app: Any, store: Store) -> None:
    from workers import tasks

    publisher = Publisher(app, app.conf.broker_url)
    try:
        publisher.send(tasks.noop, args=[1], ignore_result=True)
        publisher._pid = -1  # as a forked child sees it: another process made these
        publisher.send(tasks.noop, args=[2], ignore_result=True)
    finally:
        publisher.close()
    assert publisher.made == 2


def test_moves_reach_a_worker_after_the_store_lost_every_key(redis_url: str, store: Store, worker: Worker) -> None:
    """A store restarted without its data has no bindings; moves sent undeclared still arrive."""
    from workers.client import Client, Context

    client = Client(redis_url, move_timeout=30)
    try:
        gid = make_game(store)
        assert client.command(Context("console", "table", "alice", "alice", idem="p:1"), "move add 2")[0].ok
        store.r.flushall()
        gid = wait_for(lambda: make_game(store))
        reply = client.command(Context("console", "table", "alice", "alice", idem="p:2"), "move add 3")
        assert reply[0].ok, reply
        assert client.publisher.made == 1
    finally:
        client.close()
    version, log = assert_replays(store, gid)
    assert version == 2 and [e["k"] for e in log] == ["p:2"]


def test_a_send_that_ends_after_close_closes_its_producer(
    app: Any, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from workers import tasks

    publisher = Publisher(app, app.conf.broker_url)
    real = tasks.noop.apply_async
    closed: list[Any] = []

    def closing_meanwhile(**options: Any) -> Any:
        publisher.close()  # the adapter shuts down while this send runs
        monkeypatch.setattr(options["producer"].connection, "close", lambda: closed.append(options["producer"]))
        return real(**options)

    monkeypatch.setattr(tasks.noop, "apply_async", closing_meanwhile)
    publisher.send(tasks.noop, args=[1], ignore_result=True)
    assert len(closed) == 1 and publisher._idle.empty()
    assert store.r.llen(MOVE_QUEUE) == 1
