"""Every refusal says why and what would be accepted (legal case next to the illegal one)."""

from __future__ import annotations

import pytest

from engine.capitals.actions import Action
from engine.capitals.builder import GAME, Table, cell
from engine.core.errors import IllegalAction


def refused(t: Table, action: Action, match: str) -> None:
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(t.state, t.state.current, action)


def test_building_refusals() -> None:
    t = Table().clear_rows().row(0, "Market").building(0)
    assert GAME.is_legal(t.state, 0, Action("build", tile="I-18", cell=cell("m12")))
    refused(t, Action("build", tile="I-02", cell=cell("m12")), "not in the Projects area")
    refused(t, Action("build", tile="I-18", cell=cell("m13")), "not free next to your city")
    refused(t, Action("build", tile="I-18", cell=(1, 2, 3)), "not a cell")
    refused(t, Action("activate", cell=cell("m13")), "does not belong to this phase.*build")


def test_activation_refusals() -> None:
    t = Table().city(0, "Restaurant", "m12").positions(0, 1, 2, 3).station(0, 1, cubes=2).execution(0)
    refused(t, Action("activate", cell=cell("m12")), "costs 3 energy cubes; you have 2")
    refused(t, Action("activate", cell=cell("o13")), "no tile with an activation")
    refused(t, Action("done"), "`pass cube` or `pass money`")
    t.tracks(0, CUL=0)
    refused(t, Action("activate", cell=cell("m13")), "would pass its start")
    t.station(0, 1, cubes=3)
    t.play("activate restaurant")
    assert t.state.current == 1


def test_prosperity_refusals() -> None:
    t = (Table(players=3, prosperity=True).positions(0, 1, 2).hand(0, "Three Pennants", "Almshouses")
         .tracks(0, POP=1).tracks(1, POP=5).prosperity(0))
    refused(t, Action("prosper", tile="P-01", cell=cell("m12")), "requirement is not met: you need the highest "
            "Population")
    refused(t, Action("prosper", tile="P-05", cell=cell("m12")), "not in your hand")
    refused(t, Action("lake", tile="P-01", cell=cell("q20")), "free cell next to a building tile")
    t.play("lake three-pennants o13")


def test_relocation_and_position_refusals() -> None:
    t = Table(players=3).positions(0, 1, 2).political(0)
    refused(t, Action("position", pos=5), "Free positions: P1, P2, P3, P4")
    refused(t, Action("build", tile="I-18", cell=cell("m12")), "position p<number>")
