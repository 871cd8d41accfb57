"""The ``agora`` command line follows conventions: bare ``agora`` helps, ``--version`` works,
and every subcommand and option says what it does."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bots.cli import parser

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "bots.cli", *args], capture_output=True, text=True, env=env,
                          timeout=60)


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    for action in parser()._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("no subcommands")


def test_bare_agora_prints_the_help() -> None:
    done = _run()
    assert done.returncode == 0
    assert "usage: agora" in done.stdout and "play" in done.stdout and "serve" in done.stdout


def test_version() -> None:
    done = _run("--version")
    assert done.returncode == 0 and done.stdout.startswith("agora ")


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_every_subcommand_and_option_is_described(name: str) -> None:
    sub = _subcommands()[name]
    assert sub.description, f"`agora {name}` has no description"
    for action in sub._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help != argparse.SUPPRESS, f"`agora {name}` {action.dest} has no help"
    done = _run(name, "--help")
    assert done.returncode == 0, done.stderr
    for action in sub._actions:
        for flag in action.option_strings:
            assert flag in done.stdout


def test_serve_help_lists_the_environment() -> None:
    done = _run("serve", "--help")
    for var in ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "AGORA_DATA_DIR", "AGORA_LOG_LEVEL"):
        assert var in done.stdout


def test_every_top_level_subcommand_has_help() -> None:
    top = parser()
    for action in top._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {c.dest: c.help for c in action._choices_actions}
            assert set(helps) == set(action.choices)
            assert all(helps.values())


def test_games_lists_player_counts_as_a_player_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    from bots.cli import cmd_games

    assert cmd_games(argparse.Namespace()) == 0
    out = capsys.readouterr().out
    assert "Antike Duellum — 2 players." in out and "2–2 players" not in out
    assert "The Capitals — 2–5 players." in out and ".;" not in out
