"""Inline keyboards from the command layer's buttons.

Why tokens as callback data: Telegram returns at most 64 bytes of callback data, and move
notations can be longer; the command layer already stores each button's payload in Redis
under a short token, so the keyboard carries only that token and a press is re-validated
server-side (a stale or foreign button can never act).
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from workers.client import Button

CALLBACK_LIMIT = 64
MAX_BUTTONS = 100  # Telegram's limit for one keyboard
ROW_CHARS = 30  # labels packed side by side while a row stays readable on a phone
ROW_BUTTONS = 3


def callback_data(token: str) -> str:
    """The token itself, checked against Telegram's 64-byte limit."""
    if not token or len(token.encode()) > CALLBACK_LIMIT:
        raise ValueError(f"callback data must be 1–{CALLBACK_LIMIT} bytes, got {len(token.encode())}")
    return token


def markup(rows: list[list[Button]]) -> InlineKeyboardMarkup | None:
    """An inline keyboard for ``rows`` (None for no buttons).

    The command layer puts one button per row; short labels are packed side by side so a
    list of twenty moves does not fill the whole screen.
    """
    if not rows:
        return None
    if all(len(r) == 1 for r in rows):
        rows = _pack([r[0] for r in rows])
    out: list[list[InlineKeyboardButton]] = []
    count = 0
    for row in rows:
        keys = []
        for b in row:
            if count >= MAX_BUTTONS:
                break
            keys.append(InlineKeyboardButton(b.label[:64], callback_data=callback_data(b.token)))
            count += 1
        if keys:
            out.append(keys)
    return InlineKeyboardMarkup(out) if out else None


def link(label: str, url: str) -> InlineKeyboardMarkup:
    """One URL button (the deep link into the private chat)."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(label, url=url)]])


def _pack(buttons: list[Button]) -> list[list[Button]]:
    rows: list[list[Button]] = []
    row: list[Button] = []
    for b in buttons:
        width = sum(len(x.label) + 2 for x in row) + len(b.label)
        if row and (len(row) >= ROW_BUTTONS or width > ROW_CHARS):
            rows.append(row)
            row = []
        row.append(b)
    if row:
        rows.append(row)
    return rows
