"""The battle on the Clash of Cultures image: the strip with dice and result, the arrow and the
swords on the map, every battle kind, and odd views that must not crash."""

from __future__ import annotations

from typing import Any

from PIL import Image, ImageChops

from engine.clash import ClashGame
from engine.clash.builder import Position
from renderer.base import clip_watch
from renderer.clash import board_image
from renderer.clash_battle import _title, strip_height
from tests.engine.clash.combat_dice import Dice, dice

__all__ = ["dice"]
GAME = ClashGame()


def _battle_view(dice: Dice) -> dict[str, Any]:
    pos = Position(2).clear_units().reveal_all()
    pos.advances(0, "tactics").units(0, "e3", army=3)
    pos.city(1, "f2", pieces=["fortress"])
    pos.advances(1, "tactics")
    pos.units(1, "f2", army=2).turn(0)
    dice.set(1, 1, 2, 4, 3, 5, 6, 1, 1, 5, 2)
    pos.play(0, "attack e3 f2 army army army")
    pos.play(0, "continue")
    pos.play(0, "continue")
    return GAME.view(pos.state, None)


def test_battle_strip_and_marks(dice: Dice) -> None:
    view = _battle_view(dice)
    assert strip_height(view) > 0
    quiet = dict(view, battles=[])
    with clip_watch() as clipped:
        with_battle = board_image(view)
    assert clipped == []
    without = board_image(quiet)
    assert with_battle.size[1] == without.size[1] + strip_height(view) + 14
    assert _title(view["battles"][0], ["Red", "Blue"]).startswith("Red attacks Blue on F2: Red wins")
    # Only the map around E3/F2 (arrow, swords) and the strip differ; the map elsewhere is the same.
    box = ImageChops.difference(
        with_battle.convert("RGB").crop((0, 0, 1600, 900)), without.convert("RGB").crop((0, 0, 1600, 900))
    ).getbbox()
    assert box is not None and box[2] - box[0] < 400 and box[3] - box[1] < 400


def test_battle_titles_for_every_kind() -> None:
    colours = ["Red", "Blue"]
    base = {"attacker": 0, "defender": 1, "space": "c4", "rounds": []}
    assert _title(dict(base, kind="naval", result="defender"), colours) == "Red attacks Blue on C4 (ships): Blue holds"
    assert _title(dict(base, kind="land", result="retreat"), colours).endswith("Red retreats")
    assert _title(dict(base, kind="land", result=""), colours).endswith("waiting for Red")
    camp = dict(base, kind="land", result="attacker", defender=-1, captured=True)
    assert _title(camp, colours) == "Red attacks the Barbarians on C4: Red takes the Barbarian settlement"
    attack = dict(base, kind="barbarian_attack", attacker=-1, defender=1, city="Memphis", result="losses")
    assert _title(attack, colours) == "The Barbarians attack Memphis: the city takes losses"


def test_odd_battle_views_do_not_crash() -> None:
    view = GAME.view(Position(2).state, None)
    for battles in (
        [{}],
        [{"space": "zz", "origin": "d2", "rounds": [{"attacker": {"dice": [9] * 40}}]}],
        [{"space": "d2", "origin": "d2", "attacker": 7, "rounds": "x"}],
    ):
        image = board_image(dict(view, battles=battles))
        assert isinstance(image, Image.Image)


def test_arrow_lets_the_words_under_it_show(dice: Dice) -> None:
    """The attack arrow is see-through: on a plain white map every arrow pixel is a blend, never
    the attacker's solid colour (an opaque arrow hid a city's mood word in play-testing)."""
    from renderer.clash_battle import mark_battles
    from renderer.clash_map import owner_fill

    view = _battle_view(dice)
    image = Image.new("RGB", (1600, 1200), (255, 255, 255))
    mark_battles(image, view, 1600)
    red = owner_fill(0, ["Red", "Blue"])
    colours = {c for _, c in image.getcolors(maxcolors=1_000_000) or []}
    assert red not in colours
    assert any(c[0] > c[1] + 40 for c in colours)  # the reddish blend of the arrow is there
