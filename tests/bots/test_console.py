"""The console adapter and CLI end to end: a real embedded server and worker started by
``agora play`` itself, moves piped on stdin, images written to a folder."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _agora(args: list[str], tmp: Path, stdin: str = "", timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, AGORA_DATA_DIR=str(tmp / "data"), AGORA_PLUGINS="tests.support.toy", PYTHONPATH=str(ROOT))
    env.pop("REDIS_URL", None)  # the quick-start path: the embedded server
    return subprocess.run(
        [sys.executable, "-m", "bots.cli", *args],
        input=stdin,
        text=True,
        capture_output=True,
        env=env,
        cwd=tmp,
        timeout=timeout,
    )


def test_play_toy_game_through_embedded_server(tmp_path: Path) -> None:
    moves = "moves\nadd 3\nstatus\nfly away\nadd 3\nadd 3\nadd 3\nadd 3\nadd 3\nadd 3\nadd 3\n"
    done = _agora(["play", "toy", "--seed", "4", "--images", str(tmp_path / "img")], tmp_path, moves)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "The game begins" in out
    assert "Your moves" in out
    assert "I don't know the word `fly`" in out
    assert "Game over" in out
    assert "Traceback" not in out


@pytest.mark.parametrize("human", ["none"])
def test_watch_two_automatic_players(tmp_path: Path, human: str) -> None:
    done = _agora(["play", "toy", "--human", human, "--seed", "9"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Game over" in done.stdout


def test_replay_and_games(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text("# a toy game\n1: add 3\n2: add 3\n1: roll\n")
    done = _agora(["replay", "toy", "--seed", "1", "--moves", str(record), "--json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert '"total":' in done.stdout
    bad = tmp_path / "bad.txt"
    bad.write_text("1: add 3\n1: add 3\n")
    failed = _agora(["replay", "toy", "--seed", "1", "--moves", str(bad)], tmp_path)
    assert failed.returncode == 1 and "line 2" in failed.stderr and "not your turn" in failed.stderr.lower()
    listed = _agora(["games"], tmp_path)
    assert listed.returncode == 0 and "toy" in listed.stdout


def test_unknown_game_is_a_clear_error(tmp_path: Path) -> None:
    done = _agora(["play", "chess"], tmp_path)
    assert done.returncode == 2
    assert "There is no game called `chess`" in done.stderr
    assert "Traceback" not in done.stderr


def test_replay_a_complete_duellum_game_matches_the_engine(tmp_path: Path) -> None:
    from engine import find_game
    from engine.core.testing import random_playout

    game = find_game("duellum")
    played = random_playout(
        game,
        21,
        2,
        {"map": "greece-persia"},
        auto_share=0.9,
        check_notation=0,
        check_dump_every=0,
        check_replay=False,
        check_mutation=False,
    )
    record = tmp_path / "duellum.txt"
    record.write_text("".join(f"{seat}: {text}\n" for seat, text in played.log))  # 0-based seats
    done = _agora(
        ["replay", "duellum", "--seed", "21", "--map", "greece-persia", "--moves", str(record), "--json"], tmp_path
    )
    assert done.returncode == 0, done.stderr[-2000:]
    import json

    result = json.loads(done.stdout)
    expected = game.outcome(played.state)
    assert expected is not None
    assert result["outcome"]["reason"] == expected.reason
    assert result["outcome"]["winners"] == list(expected.winners)
    assert result["view"] == json.loads(json.dumps(game.view(played.state, None)))
