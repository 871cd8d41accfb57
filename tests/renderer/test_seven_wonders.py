"""7 Wonders table and hand images, drawn from real engine views of seeded automatic games.

Why real games: the views then have every shape the engine produces (2 players with the Free
City, base game and Cities, sides A/B/random, teams, mid-turn with some choices in, game
over), and the privacy tests can compare views that differ only in hidden information.
Set ``AGORA_RENDER_SAMPLES`` to a directory to also save sample images there for a look.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderer
from engine import find_game
from renderer import seven_wonders, seven_wonders_hand
from renderer.seven_wonders_model import Token, card_tokens, cities, short_name

GAME = find_game("seven-wonders")
PRIVATE_KEYS = ("hand", "my_picks", "tucked", "teammate_hand", "free_city_hand", "prompt", "viewer")


def advance(state: Any, seed: int, stop: Any, partial: int = 0) -> Any:
    """Play automatic moves for every seat to move until ``stop(spectator view)`` or the end;
    then let the first ``partial`` seats to move choose (a turn with some choices in)."""
    step = 0
    while GAME.outcome(state) is None and not stop(GAME.view(state, None)):
        for seat in sorted(GAME.to_move(state)):
            if seat in GAME.to_move(state):
                state = GAME.apply(state, seat, GAME.auto_action(state, seat, seed * 1000 + step)).state
                step += 1
    for seat in sorted(GAME.to_move(state))[:partial]:
        state = GAME.apply(state, seat, GAME.auto_action(state, seat, seed * 1000 + step)).state
        step += 1
    return state


def _start(v: Mapping[str, Any]) -> bool:
    return True


def _mid2(v: Mapping[str, Any]) -> bool:
    return bool(v["age"] == 2 and v["turn"] == 3 and v["step"] == "pick")


def _never(v: Mapping[str, Any]) -> bool:
    return False


MOMENTS = {"start": (_start, 0), "mid2": (_mid2, 2), "over": (_never, 0)}

# (players, options, seed, moment)
SCENARIOS: list[tuple[int, dict[str, Any], int, str]] = [
    (2, {"side": "A"}, 1, "start"),
    (2, {"side": "B"}, 2, "mid2"),
    (2, {"side": "A"}, 3, "over"),
    (3, {"cities": False, "side": "B"}, 4, "mid2"),
    (5, {"side": "random"}, 5, "over"),
    (6, {"teams": True}, 6, "mid2"),
    (7, {"cities": False}, 7, "mid2"),
    (8, {"side": "B"}, 8, "start"),
    (8, {"side": "B"}, 9, "mid2"),
    (8, {"side": "A", "teams": True}, 10, "over"),
]
IDS = [f"{p}p-{'-'.join(f'{k}={v}' for k, v in o.items())}-{m}" for p, o, _, m in SCENARIOS]


@cache
def scenario_state(index: int) -> Any:
    players, options, seed, moment = SCENARIOS[index]
    stop, partial = MOMENTS[moment]
    state = advance(GAME.new_game(seed, players, options), seed, stop, partial)
    if moment == "over":
        assert GAME.outcome(state) is not None
    return state


def png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image


class Guarded(Mapping[str, Any]):
    """A view that fails the test if the public renderer touches a private key or lists keys."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self._view = view

    def __getitem__(self, key: str) -> Any:
        assert key not in PRIVATE_KEYS, f"the public table read view[{key!r}]"
        return self._view[key]

    def __contains__(self, key: object) -> bool:
        assert key not in PRIVATE_KEYS, f"the public table asked for {key!r}"
        return key in self._view

    def __iter__(self) -> Iterator[str]:
        raise AssertionError("the public table must not iterate over the view's keys")

    def __len__(self) -> int:
        return len(self._view)


# ----------------------------------------------------------------------------- public table


@pytest.mark.parametrize("index", range(len(SCENARIOS)), ids=IDS)
def test_public_table_is_a_deterministic_png_of_the_right_size(index: int) -> None:
    view = GAME.view(scenario_state(index), None)
    data = renderer.render("seven-wonders", view)
    image = png(data)
    assert image.width == seven_wonders.WIDTH == 1200
    n_cities = len(view["cities"])
    assert 700 <= image.height <= 4000, image.height  # the table grows with what it must show
    assert image.height >= 300 + 150 * ((n_cities + 1) // 2)
    assert len(data) <= 150 * 1024, f"{len(data) // 1024} KiB"
    assert renderer.render("seven-wonders", view) == data


@pytest.mark.parametrize("index", range(len(SCENARIOS)), ids=IDS)
def test_public_table_is_the_same_for_every_viewer(index: int) -> None:
    state = scenario_state(index)
    public = seven_wonders.render(GAME.view(state, None))
    seats = range(GAME.players(state)) if index in (1, 5, 8) else (0, GAME.players(state) - 1)
    for seat in seats:
        view = GAME.view(state, seat)
        assert view["viewer"] == seat
        assert seven_wonders.render(view) == public, f"seat {seat}'s view changed the public table"


@pytest.mark.parametrize("index", [1, 5, 8], ids=[IDS[i] for i in (1, 5, 8)])
def test_public_table_never_reads_private_fields(index: int) -> None:
    state = scenario_state(index)
    seat_view = GAME.view(state, 0)
    assert seat_view["hand"], "the scenario should give seat 0 a hand"
    data = seven_wonders.render(Guarded(seat_view))
    assert data == seven_wonders.render(GAME.view(state, None))


def test_what_a_seat_chose_is_not_drawn_only_that_it_chose() -> None:
    state = advance(GAME.new_game(11, 5, {}), 11, _mid2)
    picks = [a for a in GAME.legal_actions(state, 0) if a.kind in ("play", "sell")]
    cards = {a.card for a in picks}
    assert len(cards) >= 2
    first = next(a for a in picks)
    second = next(a for a in picks if a.card != first.card)
    before = seven_wonders.render(GAME.view(state, None))
    after_first = GAME.apply(state, 0, first).state
    after_second = GAME.apply(state, 0, second).state
    image_first = seven_wonders.render(GAME.view(after_first, None))
    assert image_first == seven_wonders.render(GAME.view(after_second, None))
    assert image_first != before  # the tick of seat 0 appears
    assert cities(GAME.view(after_first, None))[0].status == "chosen"
    assert cities(GAME.view(state, None))[0].status == "choosing"


def test_last_turn_is_drawn_and_highlighted() -> None:
    view = GAME.view(scenario_state(8), None)
    assert view["last_turn"]
    built = [r for r in view["last_turn"] if r["action"] == "play"]
    assert built
    record = cities(view)[built[0]["city"]]
    assert built[0]["card"] in record.new_cards
    assert any(text.startswith("built ") for text in record.last)
    without = dict(view, last_turn=[])
    assert seven_wonders.render(without) != seven_wonders.render(view)


def test_free_city_panel_in_a_two_player_game() -> None:
    view = GAME.view(scenario_state(1), None)
    city_list = cities(view)
    assert len(city_list) == 3
    free = [c for c in city_list if c.free_city]
    assert len(free) == 1 and free[0].seat is None
    assert free[0].played_by in {c.name for c in city_list if not c.free_city}


def test_public_table_survives_sparse_views() -> None:
    for view in ({}, {"cities": [{}], "players": 1}, {"cities": [{"structures": {"blue": ["no_such_card"]}}]}):
        assert png(seven_wonders.render(view)).width == seven_wonders.WIDTH


def test_card_symbols_come_from_the_card_data() -> None:
    assert card_tokens("sawmill") == (Token("res", "wood"), Token("res", "wood"))
    assert card_tokens("baths") == (Token("vp", n=3),)
    assert card_tokens("stables") == (Token("shield", n=2),)
    assert card_tokens("workshop") == (Token("sci", "gear"),)
    assert Token("or") in card_tokens("caravansery")
    assert short_name("builders_guild", {}) == "Builders"
    assert short_name("no_such_card", {"no_such_card": {"name": "Mystery"}}) == "Mystery"


def test_dispatch_uses_the_seven_wonders_renderer() -> None:
    entry = renderer.GAMES["seven-wonders"]
    assert entry.public is seven_wonders.render and entry.private is seven_wonders.render_private


# ----------------------------------------------------------------------------- private hand


def test_private_hand_is_none_for_spectators_and_empty_hands() -> None:
    assert seven_wonders.render_private(GAME.view(scenario_state(8), None)) is None
    over = scenario_state(9)
    assert GAME.view(over, 0)["hand"] == []
    assert renderer.render_private("seven-wonders", GAME.view(over, 0)) is None


@pytest.mark.parametrize("index", [0, 1, 5, 7, 8], ids=[IDS[i] for i in (0, 1, 5, 7, 8)])
def test_private_hand_image_for_a_seat(index: int) -> None:
    view = GAME.view(scenario_state(index), 0)
    data = renderer.render_private("seven-wonders", view)
    assert data is not None
    image = png(data)
    assert image.width == seven_wonders_hand.HAND_W
    assert 300 <= image.height <= 2600
    assert renderer.render_private("seven-wonders", view) == data


def test_hand_image_changes_when_affordability_changes() -> None:
    state = GAME.clone(scenario_state(8))
    seat = 0
    poor, rich = GAME.clone(state), GAME.clone(state)
    poor.cities[seat].coins = 0
    rich.cities[seat].coins = 30
    poor_view, rich_view = GAME.view(poor, seat), GAME.view(rich, seat)
    flags = [(h["play"]["affordable"], h["wonder"]["legal"]) for h in poor_view["hand"]]
    assert flags != [(h["play"]["affordable"], h["wonder"]["legal"]) for h in rich_view["hand"]]
    assert seven_wonders.render_private(poor_view) != seven_wonders.render_private(rich_view)
    # Only the verdict flips: the same view with one card made affordable draws differently.
    flipped = dict(poor_view, hand=[dict(h) for h in poor_view["hand"]])
    card = flipped["hand"][0]
    card["play"] = dict(card["play"], affordable=not card["play"]["affordable"], duplicate=False)
    assert seven_wonders.render_private(flipped) != seven_wonders.render_private(poor_view)


def test_two_player_holder_also_sees_the_free_city_prices() -> None:
    state = scenario_state(1)
    holder = GAME.view(state, None)["free_city_holder"]
    view = GAME.view(state, holder)
    assert view["free_city_hand"]
    with_fc = seven_wonders.render_private(view)
    without_fc = seven_wonders.render_private(dict(view, free_city_hand=None))
    assert with_fc is not None and without_fc is not None
    assert png(with_fc).height > png(without_fc).height


def test_samples_render_and_are_saved(tmp_path: Path) -> None:
    """Renders the sample images (8 players, game over, 2 players, a hand) and writes them to
    ``AGORA_RENDER_SAMPLES`` when set (for looking at them), else to a temporary folder."""
    out = Path(os.environ.get("AGORA_RENDER_SAMPLES") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    state = scenario_state(8)
    (out / "7w-public-8p.png").write_bytes(seven_wonders.render(GAME.view(state, None)))
    hand = seven_wonders.render_private(GAME.view(state, 0))
    assert hand is not None
    (out / "7w-hand.png").write_bytes(hand)
    (out / "7w-public-8p-over.png").write_bytes(seven_wonders.render(GAME.view(scenario_state(9), None)))
    (out / "7w-public-2p.png").write_bytes(seven_wonders.render(GAME.view(scenario_state(1), None)))
    for name in ("7w-public-8p.png", "7w-hand.png", "7w-public-8p-over.png", "7w-public-2p.png"):
        assert png((out / name).read_bytes()).width >= 1000
