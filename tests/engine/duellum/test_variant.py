"""The optional special-units variant (§16, D-28, D-34, D-35)."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.duellum.actions import SPECIAL, Deploy
from engine.duellum.personalities import sea_points
from engine.duellum.state import SPECIAL_BOX, SPECIAL_NONE

from .builders import GAME, Board

BROWN, BEIGE = 0, 1


def test_setup_puts_special_units_in_the_boxes() -> None:
    s = GAME.new_game(4, 2, {"special_units": True})
    assert [p.special for p in s.players] == [SPECIAL_BOX, SPECIAL_BOX]
    assert [p.special for p in GAME.new_game(4, 2).players] == [SPECIAL_NONE, SPECIAL_NONE]
    v = GAME.view(s, 0)
    assert v["players"][0]["special_unit"] == {"name": "General-unit", "word": "general", "location": "box"}
    assert v["players"][1]["special_unit"]["name"] == "Admiral"


def test_deploying_the_special_unit() -> None:
    b = Board(active=BEIGE, special_units=True).city("carthago", BROWN, "marble", temple=True)
    b.box(BROWN, 3, 1).start(BROWN).resources(BROWN, iron=3, coins=0).action("MILITIA")
    with pytest.raises(IllegalAction, match="only be deployed into a city with a temple"):
        b.play(BROWN, "deploy general zama")
    b.play(BROWN, "deploy general carthago")
    assert b.state.players[BROWN].special == b.r("carthago") and b.res(BROWN)[1] == 0
    b.resources(BROWN, iron=4)
    b.play(BROWN, "deploy 2 legions carthago")  # the special unit counts toward the limit of 3
    with pytest.raises(IllegalAction, match="at most 3 new unit"):
        b.do(BROWN, Deploy(1, 1, b.r("carthago")))


def test_admiral_never_into_a_land_city_and_snapshot_rule() -> None:
    b = Board(active=BEIGE, special_units=True).city("cremona", BEIGE, "iron", temple=True)
    b.resources(BEIGE, iron=6).action("MILITIA")
    with pytest.raises(IllegalAction, match="cannot take galleys"):
        b.do(BEIGE, Deploy(SPECIAL, 1, b.r("cremona")))
    b = Board(active=BEIGE, special_units=True).city("roma", BEIGE, "gold", temple=True)
    b.special(BEIGE, "corsica").start(BEIGE).special(BEIGE, None).resources(BEIGE, iron=6).action("MILITIA")
    with pytest.raises(IllegalAction, match="not in your recruitment box at the start"):
        b.play(BEIGE, "deploy admiral roma")


def test_special_unit_moves_without_fighting() -> None:
    b = Board(active=BEIGE, special_units=True).techs(BEIGE, "NAVIGATIO").special(BEIGE, "roma")
    b.units(BROWN, "corsica", galleys=2).action("DUELLUM")
    b.play(BEIGE, "move admiral roma-carales")  # through or into enemy galleys: no battle
    assert b.state.players[BEIGE].special == b.r("carales") and b.n(BROWN, "corsica") == (0, 2)
    with pytest.raises(IllegalAction, match="already moved"):
        b.play(BEIGE, "move admiral carales-corsica")


def test_regular_units_fight_a_special_unit_only_when_alone() -> None:
    b = Board(active=BROWN, special_units=True).special(BEIGE, "corsica").units(BEIGE, "corsica", galleys=1)
    b.units(BROWN, "roma", galleys=3).action("DUELLUM")
    boxes = b.state.players[BEIGE].box[1]
    b.play(BROWN, "move 3 galleys roma-corsica")
    assert b.n(BROWN, "corsica") == (0, 1) and b.state.players[BEIGE].special == SPECIAL_BOX
    assert b.state.players[BEIGE].box[1] == boxes + 1


def test_militia_does_not_fight_a_lone_special_unit() -> None:
    b = Board(active=BEIGE, special_units=True).special(BEIGE, "carthago").start(BROWN).action("MILITIA")
    b.play(BROWN, "deploy galley carthago")
    assert b.n(BROWN, "carthago") == (0, 1) and b.state.players[BEIGE].special == b.r("carthago")


def test_admiral_counts_for_sea_points_and_founding() -> None:
    b = Board(active=BEIGE, special_units=True).special(BEIGE, "carales")
    b.units(BEIGE, "corsica", galleys=1)
    assert sea_points(b.state, BEIGE) == 3
    b.resources(BEIGE, marble=1, iron=1, gold=1).founding_step()
    b.play(BEIGE, "found carales iron")
    assert b.owner("carales") == BEIGE


def test_variant_random_games_keep_invariants() -> None:
    from engine.core.testing import random_playout

    from .invariants import Invariants

    for seed in (1, 2):
        r = random_playout(
            GAME,
            seed,
            2,
            {"special_units": True, "map": "B" if seed % 2 else "A"},
            invariants=Invariants(),
            check_notation=2,
            check_dump_every=5,
            auto_share=0.8,
        )
        assert r.over


def test_levy_for_the_special_unit() -> None:
    b = Board(active=BEIGE, special_units=True).city("carthago", BROWN, "marble", temple=True)
    b.box(BROWN, 0, 0).start(BROWN).hand(BROWN, "LEVY").resources(BROWN, iron=0, coins=0).action("MILITIA")
    b.play(BROWN, "play levy")
    b.play(BROWN, "deploy general carthago")
    assert b.state.players[BROWN].special == b.r("carthago")
