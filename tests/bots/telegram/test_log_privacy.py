"""Logs of a whole game at DEBUG, from the bot and from the worker, carry neither the bot
token nor anything private (the toy's secret word), and name the game they concern."""

from __future__ import annotations

import io
import json
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bots.telegram.conftest import ALICE, BOB, PLUGINS, Table
from tests.bots.telegram.fake_api import TOKEN, FakeBotApi
from tests.bots.telegram.test_telegram import SECRET, start_toy
from tests.conftest import ROOT, Worker
from tests.support.logcapture import captured_logs

LOG_ENV = {"TELEGRAM_TOKEN": TOKEN, "AGORA_LOG_LEVEL": "DEBUG", "AGORA_LOG_FORMAT": "json"}


class LoggingWorker(Worker):
    """A worker whose output goes to a file the test reads."""

    def __init__(self, redis_url: str, path: Path) -> None:
        super().__init__(redis_url, name="logs", env={**LOG_ENV, "AGORA_PLUGINS": PLUGINS})
        self.path = path

    def start(self, redis_url: str | None = None) -> LoggingWorker:
        out = self.path.open("wb")
        self.proc = subprocess.Popen(self.args, env=self.env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
        out.close()
        return self


@pytest.fixture
def bot_log() -> Iterator[io.StringIO]:
    with captured_logs(LOG_ENV) as stream:
        yield stream


async def test_a_whole_game_logs_no_token_and_no_secret(
    fake: FakeBotApi, redis_url: str, store: Any, tmp_path: Path, bot_log: io.StringIO
) -> None:
    worker = LoggingWorker(redis_url, tmp_path / "worker.log").start()
    table = Table(fake, redis_url)
    try:
        await table.start()
        await table.ask(BOB, "/start", private=True)
        gid, _ = await start_toy(table)
        t0 = time.perf_counter()
        table.say(ALICE, "/move add 3")
        await table.turn_photo(after=t0)
        await table.ask(BOB, "/hand")
        await table.ask(BOB, "/move add 9")  # refused
        for user, move in ((BOB, "add 2"), (ALICE, "add 3"), (BOB, "add 3"), (ALICE, "add 3")):
            t = time.perf_counter()
            table.say(user, f"/move {move}")
            await table.turn_photo(after=t)
        await fake.wait(lambda: [m for m in fake.sent(BOB.id) if SECRET in m.body], 10, "the secret, privately")
    finally:
        await table.stop()
        table.close()
        worker.stop()
    texts = {"bot": bot_log.getvalue(), "worker": (tmp_path / "worker.log").read_text(errors="replace")}
    for name, text in texts.items():
        assert text.strip(), f"the {name} logged nothing at DEBUG"
        assert TOKEN not in text, f"the bot token is in the {name} log"
        assert SECRET not in text, f"the secret word is in the {name} log"
    lines = [json.loads(line) for line in texts["bot"].splitlines() if line.startswith("{")]
    assert lines and all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    worker_lines = [json.loads(x) for x in texts["worker"].splitlines() if x.startswith("{")]
    assert any(line.get("game") == gid for line in worker_lines), "no worker line names the game"
