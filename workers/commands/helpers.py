"""Small pure helpers of the command layer: number and option parsing, help examples,
scores from a view, and the text of a seat's private information."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import Any

from redis.exceptions import RedisError

log = logging.getLogger("workers.commands")


def safe_png(render: Callable[..., bytes | None], *args: Any, **kwargs: Any) -> bytes | None:
    """An image, or None when drawing it failed: a missing picture must never cost the
    message (a turn, a hand) that carries it.

    A store error is not a drawing failure: it propagates, so the outbox retries the whole
    message later instead of sending the turn without its board."""
    try:
        return render(*args, **kwargs)
    except RedisError:
        raise
    except Exception:
        log.exception("rendering an image failed; sending the text alone")
        return None


def examples(game: Any, limit: int = 6) -> str:
    """Notation examples taken from the engine's real legal moves in an opening position
    (one per move group first), so help never shows a spelling the parser would refuse."""
    try:
        state = game.new_game(1, game.info.min_players, {})
        seat = min(game.to_move(state))
        texts = [game.notation(state, seat, a) for a in game.legal_actions(state, seat)]
    except Exception:
        log.exception("could not build help examples for %s", game.id)
        return ""
    firsts: dict[str, str] = {}
    for t in texts:
        firsts.setdefault(game.action_group(t), t)
    picked = list(firsts.values())[:limit]
    picked += [t for t in texts if t not in picked][: limit - len(picked)]
    if not picked:
        return ""
    # A notation that starts with the game's own verb `move` is shown as it is: the command
    # word and the verb are one word, and `move move …` would only puzzle.
    shown = [t if t.split(" ", 1)[0] == "move" else f"move {t}" for t in picked]
    return "\nExamples from an opening position: " + ", ".join(f"`{t}`" for t in shown) + "."


def players_text(info: Any) -> str:
    """``2 players`` or ``3–7 players``: never "2–2 players"."""
    low, high = int(info.min_players), int(info.max_players)
    return f"{low} players" if low == high else f"{low}–{high} players"


def is_number(text: str) -> bool:
    """ASCII digits only: ``"²".isdigit()`` is True but ``int("²")`` raises (found by the
    bad-input property test: ``log ²`` and ``begin bots=²`` answered "something went wrong")."""
    return text.isascii() and text.isdigit()


def option_value(value: str) -> Any:
    low = value.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d+", value):
        return int(value)
    return value


def options_help(game: Any) -> str:
    opts = game.info.options_help
    if not opts:
        return ""
    # Each description may end with its own full stop; the list is one sentence with one.
    return "\nOptions for `new`: " + "; ".join(f"`{k}`: {v.rstrip('. ')}" for k, v in opts.items()) + "."


def scores(view: dict[str, Any]) -> list[Any]:
    players = view.get("players")
    if not isinstance(players, list):
        return []
    out = []
    for p in players:
        if not isinstance(p, dict):
            return []
        for key in ("vp", "score", "points"):
            if key in p:
                out.append(p[key])
                break
        else:
            return []
    return out


def private_text(game: Any, state: Any, seat: int) -> str:
    """The game's own summary of a seat's private information, else a generic one."""
    text = str(game.private_summary(state, seat))
    if text:
        return text
    return hand_text(game.seat_names(state)[seat], game.view(state, seat))


def hand_text(seat_name: str, view: dict[str, Any]) -> str:
    """A short text of the viewer's private information, from its view.

    The hand is the viewer's entry ``players[viewer]["hand"]`` (Antike Duellum) or the
    view's own ``hand`` (7 Wonders, where ``players`` is a count).
    """
    players = view.get("players")
    viewer = view.get("viewer")
    me = players[viewer] if isinstance(players, list) and isinstance(viewer, int) and viewer < len(players) else {}
    hand = me.get("hand") if isinstance(me, dict) else None
    if not hand and isinstance(view.get("hand"), list):
        hand = view["hand"]
    if not hand:
        return f"{seat_name}: you hold no private cards."
    names = view.get("cards", {})
    items = []
    for card in hand:
        cid = card if isinstance(card, str) else card.get("id") or card.get("name")
        label = names.get(cid, {}).get("name", cid) if isinstance(names, dict) else cid
        items.append(str(label))
    return f"{seat_name}, your hand: " + ", ".join(items) + "."
