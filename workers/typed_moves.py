"""Reading a move typed after a command word (``move …``, ``play …``): which text is the move,
and a refusal of text that names more than one move.

Why in the worker: it loads and parses the game for every move anyway. The adapter did this
reading before submitting, which cost it a load of the game and a parse (listing every legal
move) per typed move, about a quarter of its CPU per move (issue 12); the adapter is one
process per platform, the workers scale out.
"""

from __future__ import annotations

from typing import Any

from engine import AnyGame, IllegalAction, InvalidNotation
from engine.core.notation import tokens


class MoreThanOneMove(IllegalAction):
    """The text reads as a move and goes on: refused whole, never half-applied.

    ``code`` as :class:`engine.ExtraWords` (``…/private`` when the move it begins with is a
    private one: the reply must not show it in public)."""

    code = "action/extra_words"

    def __init__(self, text: str, canonical: str, private: bool) -> None:
        super().__init__(
            f"`{text}` is more than one move: it begins with `{canonical}` and goes on. "
            f"Type one move exactly, e.g. `{canonical}`; nothing was changed."
        )
        if private:
            self.code = "action/extra_words/private"


def read_typed(game: AnyGame, state: Any, seat: int, text: str, typed: str) -> tuple[Any, str]:
    """The action ``text`` names for ``seat``, and the text that named it; raises the
    engine's refusal (:class:`engine.EngineError`) otherwise.

    ``typed``: the command word the player typed before ``text``. It may also be the game's
    own first word (Duellum's ``move legion roma-ancona``, 7 Wonders' ``play …``): a listed
    move typed as shown must not lose it. The literal text wins when it reads as a move; the
    command word is put back only when the rest alone is not notation. And a move is read
    whole or not at all: words beyond the matched move are refused, never dropped."""
    try:
        action = game.parse(state, seat, text)
    except InvalidNotation as first:
        if typed.lower() not in {str(v).lower() for v in game.verbs}:
            raise
        again = f"{typed} {text}"
        try:
            action = game.parse(state, seat, again)
        except InvalidNotation:
            raise first from None  # no notation either way: the refusal of what was typed
        return _whole(game, state, seat, action, again), again
    return _whole(game, state, seat, action, text), text


def _whole(game: AnyGame, state: Any, seat: int, action: Any, text: str) -> Any:
    """``action`` when ``text`` names no more than it (by words), else the refusal."""
    forms = [game.notation(state, seat, action), *game.notation_forms(state, seat, action)]
    if len(tokens(text)) > max(len(tokens(f)) for f in forms):
        raise MoreThanOneMove(text, forms[0], game.private_action(state, seat, action))
    return action
