"""Sending tasks on producers kept between sends: the adapter's side of every move.

Why not Celery's own pool of producers (issue 12, the adapter's CPU per move): taking a
producer from that pool binds a fresh copy of the exchange to a channel every time, and every
send declares the task's queue again (copies of the queue and its exchange, hashed against the
connection's record of what it declared). Of the ~360-400 us of CPU a move's send cost, that
was ~100-140 us (``bench/bench_publish.py``). A producer here keeps its own broker connection and
channel, and goes back to an idle list after each send.

Why sending without declaring loses nothing: Celery sends a task for a queue on a direct
exchange (both of Agora's queues) as to the nameless exchange, and kombu's Redis transport puts
such a message straight onto the list named after the queue; no binding is looked up, so none
has to exist (a store restarted empty included: ``tests/workers/test_publisher.py``). The
workers declare the queues they consume when they connect.

One producer is used by one thread at a time (a kombu channel is not thread-safe): a send takes
an idle one or makes a new one, so there are at most as many as sends ever ran at once (the
adapter's pool). A send that raised drops its producer and closes its connection, so a
half-broken channel is never reused; the retry of a lost connection within a send is kombu's
(Celery's publish retry policy), as with the pool.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from typing import Any


class Publisher:
    """Producers for one broker URL, reused between sends; :meth:`close` closes them."""

    def __init__(self, app: Any, url: str) -> None:
        self._app = app
        self._url = url
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._pid = os.getpid()
        self._lock = threading.Lock()
        self._closed = False
        self.made = 0  # producers made so far (each with its own connection)

    def send(self, task: Any, **options: Any) -> Any:
        """``task.apply_async(**options)`` on a reused producer, without declaring the queue."""
        producer = self._take()
        try:
            result = task.apply_async(producer=producer, declare=[], **options)
        except BaseException:
            _close(producer)
            raise
        if self._closed:  # closed while this send ran: nobody would take it again
            _close(producer)
        else:
            self._idle.put(producer)
        return result

    def close(self) -> None:
        """Close the idle producers' connections; one still sending closes its own when done."""
        self._closed = True
        while True:
            try:
                _close(self._idle.get_nowait())
            except queue.Empty:
                return

    def _take(self) -> Any:
        if os.getpid() != self._pid:
            # A forked child must not write on its parent's sockets: forget (not close) them.
            with self._lock:
                if os.getpid() != self._pid:
                    self._idle = queue.SimpleQueue()
                    self._pid = os.getpid()
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._lock:
            self.made += 1
        return self._app.amqp.Producer(self._app.connection_for_write(self._url), auto_declare=False)


def _close(producer: Any) -> None:
    with contextlib.suppress(Exception):
        producer.connection.close()
