"""One complete Clash of Cultures game through ``agora play`` with its real embedded server and
worker: two automatic players from the first action to the final score."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_complete_clash_game_through_the_pipeline(tmp_path: Path) -> None:
    env = dict(os.environ, AGORA_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    env.pop("REDIS_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "bots.cli", "play", "clash", "--human", "none", "--seed", "3", "--players", "2"],
        text=True,
        capture_output=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "Clash of Cultures" in out and "Game over" in out and "round 6 was the last" in out
    assert "Traceback" not in out + done.stderr
    images = list((tmp_path / "data" / "images").rglob("*.png"))
    assert len(images) > 20
