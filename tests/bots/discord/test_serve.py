"""`agora serve` with both tokens runs Telegram and Discord side by side (store, worker and
beat embedded), each against its fake on 127.0.0.1; `agora discord sync` registers the
commands. The bots run in their own processes here, configured only by the environment."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from tests.bots.discord.conftest import ALICE, BOB
from tests.bots.discord.fake_discord import TOKEN, FakeDiscord
from tests.bots.telegram.conftest import ALICE as TG_ALICE
from tests.bots.telegram.conftest import BOB as TG_BOB
from tests.bots.telegram.conftest import PLUGINS
from tests.bots.telegram.fake_api import TOKEN as TG_TOKEN
from tests.bots.telegram.fake_api import FakeBotApi

ROOT = Path(__file__).resolve().parents[3]


async def test_discord_sync_command_line(fake: FakeDiscord) -> None:
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=fake.api_base, PYTHONPATH=str(ROOT))
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bots.cli", "discord", "sync", env=env,
                                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    text = out.decode()
    assert proc.returncode == 0, text
    assert "added    /agora move" in text and "registered globally" in text
    assert fake.commands["global"][0]["name"] == "agora"


async def test_serve_runs_telegram_and_discord_side_by_side(fake: FakeDiscord, tmp_path: Path) -> None:
    tg = await FakeBotApi().start()
    data = tmp_path / "serve-data"
    env = dict(os.environ, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_BASE=tg.base_url, DISCORD_TOKEN=TOKEN,
               DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url, AGORA_DATA_DIR=str(data),
               AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT))
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([sys.executable, "-m", "bots.cli", "serve"], env=env, cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        await fake.wait_connected(timeout=60)
        await tg.wait(lambda: tg.method_calls("getUpdates"), timeout=60, what="Telegram polling")
        assert fake.identified and fake.identified[0]["intents"] == 1, "only the guilds intent"
        new = await fake.done(await fake.slash(ALICE, "new", game="toy"))
        assert "New Toy race table" in new.text()
        await fake.done(await fake.slash(BOB, "join"))
        await fake.done(await fake.slash(ALICE, "begin"))
        await fake.wait(lambda: fake.boards(), 30, "the first Discord board")
        tg.push_message(TG_ALICE, "/new toy")
        await tg.wait(lambda: any("New Toy race table" in m.body for m in tg.group()), 30, "the Telegram table")
        tg.push_message(TG_BOB, "/join")
        tg.push_message(TG_ALICE, "/begin")
        await tg.wait(lambda: tg.photos(), 30, "the first Telegram board")
    finally:
        proc.send_signal(signal.SIGTERM)
        for _ in range(600):
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        else:
            proc.kill()
        out, _ = proc.communicate(timeout=10)
        await tg.stop()
    text = out.decode(errors="replace")
    assert proc.returncode == 0, text[-3000:]
    assert "Traceback" not in text, text[-3000:]
    assert "Serving Telegram and Discord" in text


async def test_agora_bot_discord_runs_the_bot_alone(fake: FakeDiscord, redis_url: str, store: object) -> None:
    env = dict(os.environ, DISCORD_TOKEN=TOKEN, DISCORD_API_BASE=fake.api_base, DISCORD_GATEWAY_URL=fake.gateway_url,
               REDIS_URL=redis_url, AGORA_PLUGINS=PLUGINS, PYTHONPATH=str(ROOT))
    env.pop("TELEGRAM_TOKEN", None)
    proc = subprocess.Popen([sys.executable, "-m", "bots.cli", "bot", "discord"], env=env, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        await fake.wait_connected(timeout=60)
        games = await fake.done(await fake.slash(ALICE, "games"))
        assert "toy" in games.text().lower() and games.original.ephemeral
    finally:
        proc.send_signal(signal.SIGTERM)
        for _ in range(300):
            if proc.poll() is not None:
                break
            await asyncio.sleep(0.1)
        else:
            proc.kill()
        out, _ = proc.communicate(timeout=10)
    text = out.decode(errors="replace")
    assert proc.returncode == 0 and "Traceback" not in text, text[-3000:]
    assert f"Running the Discord bot against {redis_url}." in text
