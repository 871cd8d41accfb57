"""Antike Duellum (Mac Gerdts, 2012): the complete rules engine for two players.

See ``docs/duellum-view.md`` for the view contract and the rules specification for the rules;
``DuellumGame`` is the entry point the registry loads.
"""

from engine.duellum.game import DuellumGame

__all__ = ["DuellumGame"]
