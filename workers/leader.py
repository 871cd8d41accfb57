"""Exactly one beat scheduler: a lease in Redis that a beat process must hold to schedule.

Why: every beat process sends the deadline sweep on its own clock; two of them (an orphan of
a killed worker, a second replica, a restart that overlapped) doubled the sweeps. Sweeps are
idempotent, but duplicate schedulers are waste and hide mistakes. A beat that cannot take the
lease stands by and takes over when the holder stops renewing it (it died); a holder that
finds it lost the lease (Redis unreachable for longer than the lease) exits, and its
supervisor starts it again as a standby.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time

import redis

log = logging.getLogger(__name__)

KEY = "agora:beat:leader"

# Extend the lease only while we still hold it.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""


def identity() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def acquire(r: redis.Redis, me: str, ttl: float, *, stop: threading.Event | None = None) -> bool:
    """Block until ``me`` holds the lease (or ``stop`` is set: False)."""
    standing_by = False
    while not r.set(KEY, me, nx=True, px=int(ttl * 1000)):
        if not standing_by:
            holder = r.get(KEY)
            log.warning("another beat scheduler holds the lease (%s); standing by", holder.decode() if holder else "?")
            standing_by = True
        if stop is not None and stop.wait(ttl / 3):
            return False
        if stop is None:
            time.sleep(ttl / 3)
    log.warning("this beat process is the scheduler (lease %s)", me)
    return True


def renew_forever(r: redis.Redis, me: str, ttl: float, *, on_lost: object = None) -> None:
    """Renew the lease every third of its time; when it is lost, call ``on_lost`` (default:
    exit the process at once, so a second scheduler never runs beside the new holder)."""
    while True:
        time.sleep(ttl / 3)
        try:
            held = r.eval(_RENEW, 1, KEY, me, int(ttl * 1000))
        except redis.RedisError:
            log.warning("could not renew the beat lease; trying again", exc_info=True)
            continue
        if not held:
            log.error("this beat process lost the scheduler lease; exiting so that one scheduler runs")
            if callable(on_lost):
                on_lost()
                return
            os._exit(3)


def hold(url: str, ttl: float) -> None:
    """Take the lease (waiting as a standby while another process holds it), then keep it in
    a daemon thread for the life of the process."""
    from workers import redisconn

    r = redisconn.connect(url, socket_timeout=max(1.0, ttl / 3))
    me = identity()
    acquire(r, me, ttl)
    threading.Thread(target=renew_forever, args=(r, me, ttl), name="agora-beat-lease", daemon=True).start()
