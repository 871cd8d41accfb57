"""`agora serve` end to end: with TELEGRAM_TOKEN set and no REDIS_URL it starts the embedded
server, a worker with beat and the Telegram bot (against the fake Bot API on 127.0.0.1); a
group plays its first turn; SIGTERM stops it and every process it started."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.bots.telegram.conftest import ALICE, BOB, PLUGINS
from tests.bots.telegram.fake_api import TOKEN, FakeBotApi

ROOT = Path(__file__).resolve().parents[3]


def _processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(entry.name))
    return found


async def test_agora_serve_runs_everything_and_stops_it(fake: FakeBotApi, tmp_path: Path) -> None:
    data = tmp_path / "serve-data"
    env = dict(os.environ, TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_BASE=fake.base_url, AGORA_DATA_DIR=str(data),
               AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT))
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "bots.cli", "serve"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        await fake.wait(lambda: fake.method_calls("getUpdates"), timeout=60, what="the bot to start polling")
        assert fake.method_calls("setMyCommands")
        fake.push_message(ALICE, "/new toy")
        await fake.wait(lambda: any("New Toy race table" in m.body for m in fake.group()), timeout=30,
                        what="the table to open")
        fake.push_message(BOB, "/join")
        await fake.wait(lambda: any("Bob joined" in m.body for m in fake.group()), timeout=30, what="Bob to join")
        fake.push_message(ALICE, "/begin")
        await fake.wait(lambda: fake.photos(), timeout=30, what="the first board photo in the group")
        assert _processes_mentioning(str(data)), "the embedded server and the worker run with the data folder"
    finally:
        proc.send_signal(signal.SIGTERM)
        # Wait without blocking the event loop: the fake Bot API answering the bot's last long
        # poll runs in this loop.
        for _ in range(600):
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        else:
            proc.kill()
        out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0, out.decode(errors="replace")[-3000:]
    assert b"Traceback" not in out, out.decode(errors="replace")[-3000:]
    assert _processes_mentioning(str(data)) == []  # server, worker and beat stopped by PID
