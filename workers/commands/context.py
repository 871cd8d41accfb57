"""Who typed what where, and the command vocabulary every adapter shows.

Why apart from the handlers: adapters (Telegram's menu, Discord's command tree, the console's
help) list the commands and aliases without importing the handlers and their dependencies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from workers.buttons import BUTTON_TTL  # noqa: F401 - named here for the adapters
from workers.pipeline import MoveResult

MAX_BUTTONS = 24
GID = re.compile(r"^g[0-9a-z]{1,12}$")

class MoveSubmitter(Protocol):
    """Sends a move and returns its answer; the client sends it through Celery."""

    def __call__(self, gid: str, user: str, text: str, idem: str, typed: str = "") -> MoveResult:
        """``typed``: the command word typed before ``text`` (``move``, ``play``), read by the
        worker (:func:`workers.typed_moves.read_typed`); empty for a button's notation."""
        ...


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
        admin: the user administers the chat (a Telegram group's creator or administrator, a
            Discord member who may manage the channel): like the game's creator, they may
            change the timer and hand seats to substitutes.
        in_place: the adapter shows the next step of a turn in place of pressed buttons
            (a ``moves/next`` part); then the outbox's prompt for that step is not sent.
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
    in_place: bool = False
    admin: bool = False
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
    "move": "`move <move>` — make a move, e.g. `move rondel templum` (type a move exactly as `moves` lists it)",
    "moves": "`moves [all]` — your legal moves, grouped, with buttons (`all`: list every one)",
    "board": "`board` — the current board image",
    "status": "`status` — whose turn it is, what is awaited, the scores",
    "hand": "`hand` — your private information (sent privately)",
    "log": "`log [n]` — the last n things that happened",
    "undo": "`undo` — take back your last move (only before anyone else moved)",
    "resign": "`resign` — leave a running game",
    "settings": "`settings [tz=Europe/Athens] [quiet=23:00-08:00] [remind=half,1h]` — your time zone, quiet "
    "hours and reminder times",
    "timer": "`timer [off|relaxed|standard|fast|blitz|90m] [bank=2h] [vacation=7d] [misses=2]` — the table's "
    "clock (creator)",
    "myturns": "`myturns` — every game waiting for you, longest first",
    "away": "`away 3d` — stop your clock while you are away (from your vacation budget)",
    "back": "`back` — end your vacation, or take your seat back from the automatic player",
    "pause": "`pause` / `resume` — stop or restart every clock (a majority of the table decides)",
    "resume": "`resume` — restart the clocks after a pause (a majority decides)",
    "mute": "`mute [turn|game|off]` — silence your reminders for this turn or this game",
    "substitute": "`substitute <seat> @player` — hand a seat to another player (creator)",
    "link": "`link [code]` — make your accounts on two platforms one player (a code from the other one)",
}
# ``start`` is deliberately not an alias of ``begin``: Telegram users type ``/start`` by reflex
# (it is the private chat's Start button), and a game must not begin with half its players.
ALIASES = {
    "m": "move",
    "play": "move",
    "h": "help",
    "?": "help",
    "my": "mygames",
    "sub": "substitute",
    "vacation": "away",
}

