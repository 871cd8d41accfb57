"""Who typed what where, and the command vocabulary every adapter shows.

Why apart from the handlers: adapters (Telegram's menu, Discord's command tree, the console's
help) list the commands and aliases without importing the handlers and their dependencies.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from workers.pipeline import MoveResult

BUTTON_TTL = 14 * 86400
MAX_BUTTONS = 24
GID = re.compile(r"^g[0-9a-z]{1,12}$")

MoveSubmitter = Callable[[str, str, str, str], MoveResult]
"""(gid, user key, text, idempotency key) -> result; the client sends it through Celery."""



@dataclass(frozen=True, slots=True)
class Context:
    """Who typed what, where.

    Attributes:
        platform: ``telegram``, ``discord`` or ``console``.
        chat: the chat/channel id the command came from.
        user: the platform's user id (no prefix).
        name: display name.
        private: the command came from a private chat with the bot.
        idem: the platform's update/interaction id (idempotency key for moves).
        buttons: the platform shows buttons (the terminal does not, so replies must not
            tell its player to press one).
        account: the user key this account is linked to (``link``), or empty: seats, games
            and reminders then belong to that key, so one person on two platforms is one player.
    """

    platform: str
    chat: str
    user: str
    name: str
    private: bool = False
    idem: str = ""
    buttons: bool = True
    account: str = ""

    @property
    def user_key(self) -> str:
        return self.account or f"{self.platform}:{self.user}"

    @property
    def own_key(self) -> str:
        """This platform's own user key (its private chat is stored there, even when linked)."""
        return f"{self.platform}:{self.user}"


COMMANDS: dict[str, str] = {
    "help": "`help [game]` — how to play; with a game, its rules summary and notation",
    "games": "`games` — the games you can start",
    "mygames": "`mygames` — your games, and where it is your turn",
    "new": "`new <game> [option=value ...] [hours=48]` — open a table in this chat",
    "join": "`join` — take a seat at the table in this chat",
    "leave": "`leave` — leave the table before the game begins",
    "begin": "`begin [bots=N] [order=bots-first] [seed=N]` — start the game (automatic players fill N seats)",
    "move": "`move <move>` — make a move, e.g. `move rondel templum`",
    "moves": "`moves [all]` — your legal moves, grouped, with buttons (`all`: list every one)",
    "board": "`board` — the current board image",
    "status": "`status` — whose turn it is, what is awaited, the scores",
    "hand": "`hand` — your private information (sent privately)",
    "log": "`log [n]` — the last n things that happened",
    "undo": "`undo` — take back your last move (only before anyone else moved)",
    "resign": "`resign` — leave a running game",
    "settings": "`settings [tz=+2] [quiet=22-8]` — your time zone and quiet hours for reminders",
    "link": "`link [code]` — make your accounts on two platforms one player (a code from the other one)",
}
ALIASES = {"start": "begin", "m": "move", "play": "move", "h": "help", "?": "help", "my": "mygames"}

