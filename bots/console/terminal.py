"""The terminal itself: a prompt with line editing and history, and printing that never
tears the line being typed.

Why this matters: the table's news arrives on another thread while the player types. Printed
naively, a turn report lands in the middle of a half-typed move. Here news is printed above
the prompt, and the prompt and what was typed so far are drawn again below it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sys
import threading
from pathlib import Path
from typing import TextIO

_BOLD = re.compile(r"\*\*(.+?)\*\*")

try:  # line editing and history where the platform has it (not on Windows)
    import readline
except ImportError:  # pragma: no cover
    readline = None  # type: ignore[assignment]


def plain(text: str) -> str:
    """Chat markup for a terminal: no ``**bold**`` stars; code spans keep their backticks
    only where they mark something to type (they are kept: a player copies them)."""
    return _BOLD.sub(r"\1", text)


def _words(line: str) -> list[str]:
    """``line`` cut at the spaces outside code spans: a move in backticks stays whole, so
    it can be copied as one piece."""
    words: list[str] = []
    current: list[str] = []
    in_code = False
    for ch in line:
        if ch == "`":
            in_code = not in_code
        if ch == " " and not in_code:
            words.append("".join(current))
            current = []
        else:
            current.append(ch)
    words.append("".join(current))
    return words


def fit(text: str, width: int) -> str:
    """``text`` with each line longer than ``width`` broken at spaces, never inside a code
    span; a bulleted line's continuation is indented under its text.

    Why: a terminal breaks a long line wherever the width ends, in the middle of a word or
    of a move (``take perfume from cartha`` / ``ge``). A word or code span longer than the
    whole width keeps its own line (the terminal then breaks it, as before)."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        lead = line[: len(line) - len(body)]
        indent = lead + ("  " if body.startswith(("• ", "- ", "* ")) else "")
        current = lead
        for word in _words(body):
            if current == lead:
                current += word
            elif len(current) + 1 + len(word) <= width:
                current += " " + word
            else:
                out.append(current)
                current = indent + word
        out.append(current)
    return "\n".join(out)


class Terminal:
    """Where the console reads lines and prints news.

    Args:
        stdin, out: the streams (a test passes its own).
        history: file for the line history between sessions (interactive only).
    """

    def __init__(self, stdin: TextIO, out: TextIO, history: Path | None = None) -> None:
        self.stdin = stdin
        self.out = out
        self.interactive = stdin is sys.stdin and stdin.isatty() and readline is not None
        self.lock = threading.Lock()
        self.prompt = ""
        self.reading = False
        self.history = history
        if self.interactive and history is not None:
            with contextlib.suppress(OSError):
                readline.read_history_file(str(history))
            readline.set_history_length(500)

    def print(self, text: str) -> None:
        """Print a message above the prompt (and draw the prompt again when one is open)."""
        with self.lock:
            if self.reading and self.interactive:
                self.out.write("\r\x1b[K")
            shown = plain(text)
            if self.interactive:
                shown = fit(shown, shutil.get_terminal_size().columns - 1)
            self.out.write(shown + "\n")
            if self.reading and self.interactive:
                self.out.write(self.prompt + readline.get_line_buffer())
            self.out.flush()

    def read(self, prompt: str) -> str | None:
        """One line typed by the player, or None at the end of input (Ctrl-D, a closed pipe).

        A KeyboardInterrupt (Ctrl-C) passes through to the caller."""
        if not self.interactive:
            line = self.stdin.readline()
            return line if line else None
        with self.lock:
            self.prompt = prompt
            self.reading = True
        try:
            return input(prompt)
        except EOFError:
            self.out.write("\n")
            return None
        finally:
            with self.lock:
                self.reading = False

    def close(self) -> None:
        """Save the line history (interactive sessions only)."""
        if self.interactive and self.history is not None:
            try:
                self.history.parent.mkdir(parents=True, exist_ok=True)
                readline.write_history_file(str(self.history))
            except OSError:
                pass


def history_file(data_dir: Path) -> Path:
    """Where the console keeps its typed-line history (beside the local games' data)."""
    return Path(os.environ.get("AGORA_HISTORY", str(data_dir / "console-history")))
