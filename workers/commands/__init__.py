"""The shared command layer: what a player can type, the same on every platform.

Why one layer: Telegram, Discord and the console differ only in how they show a reply; the
grammar, the checks and every message live here once. No command raises to its caller:
every failure becomes a friendly reply that says what was wrong and what would be accepted.

Modules by topic: ``context`` (who, where, the vocabulary), ``base`` (dispatch and shared
helpers), ``table`` (new, join, leave, begin, undo, resign), ``play`` (move, moves, buttons),
``info`` (help, games, mygames, board, status, hand, log, settings), ``posts`` (turn posts,
prompts, reminders), ``timers`` (timer, away, back, pause, resume, mute, substitute, myturns;
first in the order, it adds the clock to ``new``, ``settings``, ``status`` and reminders) and
``helpers`` (pure parsing and text helpers).
"""

from __future__ import annotations

from workers.commands.accounts import AccountCommands
from workers.commands.context import ALIASES, BUTTON_TTL, COMMANDS, MAX_BUTTONS, Context, MoveSubmitter
from workers.commands.info import InfoCommands
from workers.commands.play import PlayCommands
from workers.commands.posts import PostParts
from workers.commands.table import TableCommands
from workers.commands.timers import TimerCommands

__all__ = ["ALIASES", "BUTTON_TTL", "COMMANDS", "MAX_BUTTONS", "Commands", "Context", "MoveSubmitter"]


class Commands(TimerCommands, TableCommands, PlayCommands, InfoCommands, PostParts, AccountCommands):
    """Every command; adapters call :meth:`handle`, :meth:`press`, :meth:`connect` and the
    outbox builders (:meth:`turn_part`, :meth:`prompt_part`, :meth:`reminder_part`)."""
