"""The console as a player meets it: a real pseudo-terminal (pexpect), a real embedded server
and worker started by ``agora play`` itself, and a check by PID that nothing outlives it."""

from __future__ import annotations

import json
import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pytest

ROOT = Path(__file__).resolve().parents[2]
PROMPT = re.compile(r"duellum (g\w+) · (your turn|waiting|game over) > ")
HINT = re.compile(r"Your turn: (?:\d+ moves; `moves` lists them, e.g\. )?`([^`]+)`")

pytestmark = pytest.mark.slow


def _spawn(args: list[str], data: Path, columns: int = 200) -> pexpect.spawn:
    env = dict(os.environ, AGORA_DATA_DIR=str(data), PYTHONPATH=str(ROOT), TERM="xterm", AGORA_HISTORY=str(data / "h"))
    env.pop("REDIS_URL", None)  # the quick-start path: the embedded server
    return pexpect.spawn(
        sys.executable,
        ["-m", "bots.cli", "play", *args],
        env=env,
        cwd=str(data.parent),
        encoding="utf-8",
        timeout=90,
        dimensions=(50, columns),
    )


def _pids(data: Path) -> dict[str, int]:
    path = data / "agora.pids"
    for _ in range(200):
        if path.exists():
            return dict(json.loads(path.read_text()))
        time.sleep(0.05)
    raise AssertionError("agora play did not record the PIDs it started")


def _all_gone(pids: dict[str, int], timeout: float = 15.0) -> list[str]:
    deadline = time.monotonic() + timeout
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [role for role in alive if _alive(pids[role])]
        time.sleep(0.1)
    return alive


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is gone for our purposes
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return False


def _prompt(child: pexpect.spawn) -> str:
    child.expect(PROMPT)
    return str(child.before)


Line = str | Callable[[str], str]


def _session(
    args: list[str], data: Path, prompt: re.Pattern[str], lines: list[Line], columns: int = 200
) -> tuple[str, list[str]]:
    """Play ``lines`` in a console started with ``args``, then quit: what was printed before
    the first prompt, and after each line up to the next prompt. A line may be a function of
    what was printed last (e.g. the move the "your turn" hint suggests). Every process the
    console started is checked gone (by PID) once it quit."""
    child = _spawn(args, data, columns)
    try:
        child.expect(prompt)
        opening = str(child.before)
        pids = _pids(data)
        outputs: list[str] = []
        for line in lines:
            child.sendline(line if isinstance(line, str) else line(outputs[-1] if outputs else opening))
            child.expect(prompt)
            outputs.append(str(child.before))
        child.sendline("quit")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0, str(child.before)
        assert _all_gone(pids) == []
    finally:
        child.close(force=True)
    return opening, outputs


def test_console_play_refuse_interrupt_and_resume(tmp_path: Path) -> None:
    data = tmp_path / "data"
    child = _spawn(["duellum", "--seed", "7"], data)
    try:
        seen = _prompt(child)
        pids = _pids(data)
        assert {"server", "worker 0", "beat"} <= set(pids)
        gid = PROMPT.search(str(child.after)).group(1)  # type: ignore[union-attr]
        assert "You play the " in seen

        # Play the suggested moves until my turn has ended and the opponent's whole turn is shown.
        transcript = ""
        for _ in range(8):
            hint = HINT.findall(seen)
            assert hint, seen[-800:]
            move = hint[-1]
            child.sendline(move)
            seen = _prompt(child)
            transcript += seen
            assert "is not a legal move" not in seen, seen
            if transcript.count("end their turn") >= 2:
                break
        assert re.search(r"(Romans|Carthaginians) (place their stone|move to)", transcript), transcript
        assert "—" * 20 in transcript and transcript.count("end their turn") >= 2, transcript

        # The same illegal move twice: refused twice, on screen.
        refusals = 0
        for _ in range(2):
            child.sendline("rondel nowhere")
            refusals += _prompt(child).count("`rondel nowhere`")
        assert refusals == 2

        child.sendintr()
        child.expect(pexpect.EOF)
        child.close()
        out = str(child.before)
        assert child.exitstatus == 130, out
        assert "Traceback" not in transcript + out
        assert f"--resume {gid}" in out
        assert _all_gone(pids) == []
    finally:
        child.close(force=True)

    resumed = _spawn(["--resume", gid], data)
    try:
        seen = _prompt(resumed)
        assert f"`{gid}`" in seen and "Continuing Antike Duellum" in seen, seen
        pids = _pids(data)
        resumed.sendline("status")
        status = _prompt(resumed)
        assert f"`{gid}` Antike Duellum" in status
        resumed.sendline("quit")
        resumed.expect(pexpect.EOF)
        resumed.close()
        assert resumed.exitstatus == 0
        assert f"scripts/play --resume {gid}" in str(resumed.before)
        assert _all_gone(pids) == []
    finally:
        resumed.close(force=True)


def test_watch_game_ends_by_itself_with_one_image_per_turn(tmp_path: Path) -> None:
    data = tmp_path / "data"
    child = _spawn(["duellum", "--human", "none", "--seed", "3"], data)
    try:
        child.expect(pexpect.EOF, timeout=240)
        child.close()
        out = str(child.before)
        assert child.exitstatus == 0, out[-2000:]
        assert re.search(r"Game over: .* Winner: ", out), out[-1000:]
        assert out.count("Board images are written to") == 1
        images = sorted((data / "images").rglob("*.png"))
        turns = re.findall(r"image: (g\w+-turn-(\d{3})-board\.png)", out)
        assert images and len(images) == len({name for name, _ in turns})
        assert all(re.fullmatch(r"g\w+-turn-\d{3}-board\.png", p.name) for p in images)
        assert "Traceback" not in out
    finally:
        child.close(force=True)


SW_PROMPT = re.compile(r"seven-wonders (g\w+) · (your turn|waiting|game over) > ")


def test_a_secret_choice_and_the_round_it_ends_are_printed_once(tmp_path: Path) -> None:
    """7 Wonders against two automatic players: the reply to a pick shows the choice, the hand
    left and the round's reveal; neither the private message the pick queued nor the turn post
    that follows prints those lines again (the post keeps what the reply did not show)."""
    def hinted(printed: str) -> str:
        hint = HINT.findall(printed)
        assert hint, printed[-800:]
        return str(hint[-1])

    args = ["seven-wonders", "--human", "1", "--players", "3", "--seed", "4"]
    _, (round_out,) = _session(args, tmp_path / "data", SW_PROMPT, [hinted])
    assert round_out.count("You chose: ") == 1, round_out
    assert round_out.count("Your hand: ") == 1, round_out
    reveals = re.findall(r"^\S.* builds .*$|^\S.* sells .*$|^\S.* builds a stage.*$", round_out, re.M)
    assert len(reveals) == len(set(reveals)) >= 3, round_out  # each city's reveal once
    assert "Next: " in round_out and "has chosen." in round_out and "Traceback" not in round_out


MN_PROMPT = re.compile(r"mare-nostrum (g\w+) · (your turn|waiting|game over) > ")


def test_a_narrow_terminal_breaks_lines_between_words_never_inside_a_move(tmp_path: Path) -> None:
    """An 80-column terminal: the turn reports and the move list come in lines that fit, broken
    at spaces, and every move in backticks stays on one line, typeable as shown."""
    args = ["mare-nostrum", "--human", "1", "--players", "3", "--seed", "11"]
    opening, (listed,) = _session(args, tmp_path / "data", MN_PROMPT, ["moves"], columns=80)
    lines = (opening + listed).replace("\r", "").split("\n")
    too_long = [line for line in lines if len(line) > 79 and " " in line.strip() and "/" not in line]
    assert too_long == [], too_long
    moves = [line for line in listed.replace("\r", "").split("\n") if "`" in line]
    assert moves and all(line.count("`") % 2 == 0 for line in moves), listed  # no move cut in two
    assert any(line.startswith("  `") for line in moves), listed  # a bullet's continuation, indented
