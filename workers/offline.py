"""What an adapter can do without a server: list the games, replay a record, start local
services.

Why a module of its own: the CLI's ``games`` and ``replay`` and the console's set-up run
before (or without) any Redis or worker; these helpers import the engine only when called,
so the adapters reach them through :mod:`workers.client` without a connection.
"""

from __future__ import annotations

from typing import Any

from engine import EngineError


def list_games() -> list[dict[str, Any]]:
    """Every available game: id, name, player counts, summary, options."""
    from engine import list_games as _list
    from workers.commands.helpers import players_text

    return [
        {
            "id": g.id,
            "name": g.info.name,
            "min_players": g.info.min_players,
            "max_players": g.info.max_players,
            "players": players_text(g.info),
            "summary": g.info.summary,
            "options": dict(g.info.options_help),
            "aliases": list(g.aliases),
        }
        for g in _list()
    ]


def replay_record(game: str, seed: int, players: int, options: dict[str, Any], lines: list[str]) -> dict[str, Any]:
    """Replay a record (``seat: notation`` lines) and return the final spectator view and
    outcome. Errors name the line that failed.

    Seats are numbered from 1 as players say them ("player 1"); a record that uses seat 0
    anywhere is read as the engine's 0-based seats (``agora`` logs and the engine both use
    those), so either convention replays.
    """
    from engine import find_game

    g = find_game(game)
    state = g.new_game(seed, players, options)
    parsed: list[tuple[int, int, str, str]] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        seat_text, sep, text = line.partition(":")
        if not sep or not seat_text.strip().isascii() or not seat_text.strip().isdigit():
            raise ValueError(f"line {number}: expected `seat: move`, e.g. `1: rondel templum`; got {line!r}")
        parsed.append((number, int(seat_text), text, line))
    base = 0 if any(seat == 0 for _, seat, _, _ in parsed) else 1
    for number, seat_no, text, line in parsed:
        seat = seat_no - base
        try:
            state = g.apply(state, seat, g.parse(state, seat, text.strip())).state
        except EngineError as exc:
            raise ValueError(f"line {number} ({line!r}): {exc.user_message}") from exc
    outcome = g.outcome(state)
    return {
        "game": g.id,
        "view": g.view(state, None),
        "status": g.status(state, None),
        "outcome": outcome.to_json() if outcome else None,
    }


def game_players(game: str) -> tuple[int, int]:
    """(min, max) players of a game, by name or alias."""
    from engine import find_game

    info = find_game(game).info
    return info.min_players, info.max_players


def local_services(data_dir: Any, **kwargs: Any) -> Any:
    """Start the embedded server (if REDIS_URL is unset) and a worker; see workers.local."""
    from workers.local import local_services as _local

    return _local(data_dir, **kwargs)
