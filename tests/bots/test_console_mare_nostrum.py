"""Issue 16: one complete Mare Nostrum game through the command layer on real Redis with a
real worker — `agora play` starts the embedded server and worker itself; three automatic
players trade, build and fight until one of them wins."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_complete_three_player_game_through_the_embedded_server(tmp_path: Path) -> None:
    env = dict(os.environ, AGORA_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "bots.cli", "play", "mare-nostrum", "--human", "none", "--players", "3",
         "--seed", "3", "--images", str(tmp_path / "img")],
        text=True, capture_output=True, env=env, cwd=tmp_path, timeout=900,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "The offers are revealed" in out and "builds" in out
    assert "Game over" in out and "wins" in out
    assert "Traceback" not in out and "Traceback" not in done.stderr
    assert any((tmp_path / "img").rglob("*.png"))
