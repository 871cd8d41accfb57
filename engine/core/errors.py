"""Engine errors: every rejection carries a stable ``code`` and a chat-safe ``user_message``.

Why: adapters map codes to replies without parsing text, and the message is written for a
player (what was wrong, what would be accepted) and must never reveal hidden information, so
engines build it from public facts only.
"""

from __future__ import annotations

from collections.abc import Sequence


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""

    code: str = "engine/error"

    def __init__(self, user_message: str) -> None:
        super().__init__(user_message)
        self.user_message = user_message


class UnknownGame(EngineError):
    """``find_game`` got a name that is no game and no alias."""

    code = "game/unknown"


class InvalidOptions(EngineError):
    """``new_game`` got options or a player count the game does not accept."""

    code = "game/invalid_options"


class InvalidNotation(EngineError):
    """The text is not a move in this game's notation (a syntax problem)."""

    code = "action/invalid_notation"


class IllegalAction(EngineError):
    """The action is well formed but the rules forbid it now; the message says why."""

    code = "action/illegal"

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class ExtraWords(IllegalAction):
    """The text begins with a legal move and goes on: it is refused, never half-read.

    ``code`` is ``action/extra_words``, or ``action/extra_words/private`` when the move it
    begins with is a private one (naming it in public would show a hidden card)."""

    code = "action/extra_words"

    def __init__(self, text: str, canonical: str, private: bool = False) -> None:
        super().__init__(
            f"`{text}` has more words than the move `{canonical}`. "
            f"Type one move exactly, e.g. `{canonical}`; nothing was changed."
        )
        if private:
            self.code = "action/extra_words/private"
        self.canonical = canonical


class AmbiguousAction(EngineError):
    """The text matches several legal actions; ``candidates`` are their notations."""

    code = "action/ambiguous"

    def __init__(self, text: str, candidates: Sequence[str]) -> None:
        shown = list(candidates)[:8]
        more = len(candidates) - len(shown)
        listing = "; ".join(f"`{c}`" for c in shown) + (f" (and {more} more)" if more > 0 else "")
        super().__init__(f"`{text}` could mean several moves: {listing}. Please be more specific.")
        self.text = text
        self.candidates = tuple(candidates)


class NotYourTurn(EngineError):
    """The seat may not act now (another seat is awaited)."""

    code = "action/not_your_turn"


class GameOver(EngineError):
    """The game has ended; no more actions are accepted."""

    code = "action/game_over"


class InvalidSave(EngineError):
    """``load`` got data of another game, an unknown schema version, or a damaged record."""

    code = "state/invalid_save"
