"""Logs of a whole Discord game at DEBUG, from the bot and from the worker, carry neither the
bot token nor anything private (the toy's secret word), and name the game they concern."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.bots.discord.conftest import ALICE, BOB, Table
from tests.bots.discord.fake_discord import TOKEN, FakeDiscord
from tests.bots.discord.test_discord import SECRET, start_toy
from tests.bots.telegram.test_log_privacy import LoggingWorker
from tests.support.logcapture import captured_logs

LOG_ENV = {"DISCORD_TOKEN": TOKEN, "AGORA_LOG_LEVEL": "DEBUG", "AGORA_LOG_FORMAT": "json"}


@pytest.fixture
def bot_log() -> Iterator[io.StringIO]:
    with captured_logs(LOG_ENV) as stream:
        yield stream


async def test_a_whole_discord_game_logs_no_token_and_no_secret(
    fake: FakeDiscord, redis_url: str, store: Any, tmp_path: Path, bot_log: io.StringIO
) -> None:
    worker = LoggingWorker(redis_url, tmp_path / "worker.log")
    worker.env.update(LOG_ENV)
    worker.start()
    table = Table(fake, redis_url)
    try:
        await table.start()
        gid, _ = await start_toy(table)
        hand = await table.cmd(BOB, "hand")
        assert SECRET in hand.text()  # the secret is in play (shown to Bob only)
        for user, move in ((ALICE, "add 3"), (BOB, "add 9"), (BOB, "add 2"), (ALICE, "add 3"), (BOB, "add 3")):
            await table.cmd(user, "move", text=move)
    finally:
        await table.stop()
        table.close()
        worker.stop()
    texts = {"bot": bot_log.getvalue(), "worker": (tmp_path / "worker.log").read_text(errors="replace")}
    for name, text in texts.items():
        assert text.strip(), f"the {name} logged nothing at DEBUG"
        assert TOKEN not in text, f"the bot token is in the {name} log"
        assert SECRET not in text, f"the secret word is in the {name} log"
    worker_lines = [json.loads(x) for x in texts["worker"].splitlines() if x.startswith("{")]
    assert any(line.get("game") == gid for line in worker_lines), "no worker line names the game"
