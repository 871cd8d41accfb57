"""The Capitals end to end through the console: ``agora play`` starts the embedded store and
a real worker, and three automatic players finish a whole game through the command layer."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bots.test_console import _agora


def test_watch_a_complete_capitals_game(tmp_path: Path) -> None:
    done = _agora(["play", "capitals", "--human", "none", "--seed", "9", "--players", "3"], tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "The Capitals" in out and "Game over" in out and "hosts the World Expo" in out
    assert "World Expo Evaluation of Era III" in out
    assert "Traceback" not in out and "(s)" not in out
    # every turn post: the central board, then one image per city (issue 17: legible on a phone)
    boards = re.findall(r"image: (g\w+-turn-(\d{3})-board\.png)\)\n  \(images: ([^)]*)\)", out)
    assert boards and len(boards) == out.count("-board.png")
    for _, turn, pages in boards:
        assert pages.split(", ") == [f"{boards[0][0].split('-turn-')[0]}-turn-{turn}-page{i}.png" for i in (1, 2, 3)]
    written = {p.name for p in (tmp_path / "data" / "images").rglob("*.png")}
    assert {name for _, _, pages in boards for name in pages.split(", ")} <= written
