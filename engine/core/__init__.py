"""Engine core: the game protocol, errors, events, RNG, notation matching and the registry."""

from engine.core.api import AnyGame, Game, GameInfo, Outcome, Seat, Step
from engine.core.errors import (
    AmbiguousAction,
    EngineError,
    ExtraWords,
    GameOver,
    IllegalAction,
    InvalidNotation,
    InvalidOptions,
    InvalidSave,
    NotYourTurn,
    UnknownGame,
)
from engine.core.events import Event, private, public
from engine.core.registry import find_game, list_games, register
from engine.core.rng import Rng

__all__ = [
    "AmbiguousAction",
    "AnyGame",
    "EngineError",
    "Event",
    "ExtraWords",
    "Game",
    "GameInfo",
    "GameOver",
    "IllegalAction",
    "InvalidNotation",
    "InvalidOptions",
    "InvalidSave",
    "NotYourTurn",
    "Outcome",
    "Rng",
    "Seat",
    "Step",
    "UnknownGame",
    "find_game",
    "list_games",
    "private",
    "public",
    "register",
]
