"""Capture this process's logs as a bot process writes them (the settings' format, the
redaction and context filters), and put the test runner's own handlers back afterwards."""

from __future__ import annotations

import contextlib
import io
import logging
from collections.abc import Iterator, Mapping

from workers import logs, settings


@contextlib.contextmanager
def captured_logs(env: Mapping[str, str]) -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    stream = io.StringIO()
    logs.setup(settings.load(env), stream=stream)
    try:
        yield stream
    finally:
        for h in list(root.handlers):
            root.removeHandler(h)
        for h in saved[0]:
            root.addHandler(h)
        root.setLevel(saved[1])
