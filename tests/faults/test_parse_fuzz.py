"""The five engines' notation parsers on mutated moves, at every step of a whole game: a parse
either reads a move or raises the engine's own error with a friendly message, never anything
else (a ``ValueError`` from ``int("²")`` was one such crash, found by fuzzing).

Why directly on the engines as well as through the command layer: no server is needed, so a
whole game's states (every phase) are covered in seconds.
"""

from __future__ import annotations

import random

import pytest

from engine import EngineError, find_game
from tests.faults.fuzzing import FORBIDDEN, GAMES, mutate
from workers.client import game_players

STEPS = 400  # moves per game at most (a whole game of most of the five)
PER_STEP = 6  # mutated texts tried per seat to move and step


def _parse_ok(game_id: str, game: object, state: object, seat: int, text: str) -> None:
    try:
        game.parse(state, seat, text)  # type: ignore[attr-defined]
    except EngineError as exc:
        bad = FORBIDDEN.search(exc.user_message)
        assert bad is None, f"{game_id} {text!r}: internal text {bad.group(0)!r} in {exc.user_message!r}"
    except Exception as exc:  # anything else is a crash the player would see as an apology
        raise AssertionError(f"{game_id} seat {seat}: parse({text!r}) raised {exc!r}") from exc


@pytest.mark.parametrize("game_id", GAMES)
def test_mutated_moves_parse_or_get_a_friendly_error(game_id: str) -> None:
    game = find_game(game_id)
    players = game_players(game_id)[0]
    state = game.new_game(11, players)
    rnd = random.Random(game_id)
    tried = 0
    for step in range(STEPS):
        movers = sorted(game.to_move(state))
        if not movers or game.outcome(state) is not None:
            break
        for seat in movers:
            texts = [game.notation(state, seat, a) for a in game.legal_actions(state, seat)[:200]]
            vocab = sorted({w for t in texts for w in t.split()} | {str(v) for v in game.verbs})
            for _ in range(PER_STEP):
                _parse_ok(game_id, game, state, seat, mutate(rnd.choice(texts), vocab, rnd))
                tried += 1
        seat = movers[step % len(movers)]
        state = game.apply(state, seat, game.auto_action(state, seat, step)).state
    assert tried > 100


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize("number", ["²", "٣", "½", "¹²", "⑦", "𝟠"])
def test_non_ascii_digits_in_every_position_of_an_opening_move(game_id: str, number: str) -> None:
    """Regression: Unicode digits pass ``str.isdigit`` but not ``int``; the Duellum parser
    (``2 iron`` amounts, ``lose 2 legions``), Clash's ``3 settler`` shorthand and Capitals'
    cell names (``m13``) crashed on them."""
    game = find_game(game_id)
    state = game.new_game(11, game_players(game_id)[0])
    for seat in sorted(game.to_move(state)):
        for text in [game.notation(state, seat, a) for a in game.legal_actions(state, seat)[:40]]:
            words = text.split()
            for i in range(len(words) + 1):
                _parse_ok(game_id, game, state, seat, " ".join([*words[:i], number, *words[i:]]))
                if i < len(words):
                    _parse_ok(game_id, game, state, seat, " ".join([*words[:i], words[i][0] + number, *words[i + 1 :]]))
    for text in (
        "lose ² legions",
        "rondel scientia pay ² marble",
        "build a² temple",
        "move ³ settler a1 b1",
        "build farm m¹³",
    ):
        for seat in sorted(game.to_move(state)):
            _parse_ok(game_id, game, state, seat, text)


def test_capitals_cell_names_with_non_ascii_digits_are_no_cells() -> None:
    """Regression: ``parse_cell_name("m¹³")`` raised ``ValueError`` (``int("¹³")``)."""
    from engine.capitals.grid import parse_cell_name

    assert parse_cell_name("m¹³") is None and parse_cell_name("m٣") is None
    assert parse_cell_name("m13") is not None
