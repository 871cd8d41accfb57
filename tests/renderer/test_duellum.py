"""Antike Duellum board and hand images from hand-built views (docs/duellum-view.md)."""

from __future__ import annotations

import copy
import io
from typing import Any

import pytest
from PIL import Image

import renderer
from renderer import base, duellum, duellum_map
from renderer.duellum_model import MAP_SCALE, owners, space_index, space_label
from tests.renderer.fixtures import CARDS, make_view, map_data, random_view


def decode(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def node_xy(side: str, region_id: str, view: dict[str, Any] | None = None) -> tuple[int, int]:
    region = next(r for r in map_data(side)["regions"] if r["id"] == region_id)
    top = duellum.layout(view if view is not None else make_view(side)).map_top
    return round(region["x"] * MAP_SCALE), round(region["y"] * MAP_SCALE) + top


def count_colour(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    return sum(1 for px in image.crop(box).get_flattened_data() if px == colour)


@pytest.mark.parametrize("side", ["A", "B"])
def test_board_is_a_png_of_the_expected_size(side: str) -> None:
    data = renderer.render("duellum", make_view(side))
    image = decode(data)
    assert image.format == "PNG" and image.mode == "P"  # a compact palette PNG
    assert image.size == (duellum.WIDTH, duellum.layout(make_view(side)).height)
    assert 2000 <= image.size[1] <= 4000
    assert len(data) < 2_000_000  # well under the chat apps' photo limits


@pytest.mark.parametrize("side", ["A", "B"])
def test_same_view_gives_identical_bytes(side: str) -> None:
    view = make_view(side, 1)
    first = renderer.render("duellum", view)
    assert renderer.render("duellum", copy.deepcopy(view)) == first
    base.STATIC_LAYERS.clear()  # a freshly built base draws the same pixels
    assert renderer.render("duellum", view) == first


def test_static_base_is_drawn_once_per_map(monkeypatch: pytest.MonkeyPatch) -> None:
    renderer.render("duellum", make_view("A", turn=3))  # the palette's reference positions draw both maps
    base.STATIC_LAYERS.clear()
    calls: list[str] = []
    real = duellum_map.draw_base

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append("base")
        return real(*args, **kwargs)

    monkeypatch.setattr(duellum, "draw_base", counting)
    renderer.render("duellum", make_view("A", turn=3))
    renderer.render("duellum", random_view("A", 7))
    renderer.render("duellum", make_view("A", 1, turn=4))
    assert calls == ["base"]
    info = base.STATIC_LAYERS.info()
    assert (info.builds, info.hits) == (1, 2)
    renderer.render("duellum", make_view("B"))
    assert calls == ["base", "base"]
    assert base.STATIC_LAYERS.info().builds == 2


def test_cached_base_is_not_modified_by_a_turn() -> None:
    view = make_view("A")
    renderer.render("duellum", view)
    cached = duellum.base_for(view).image.tobytes()
    renderer.render("duellum", random_view("A", 3))
    assert duellum.base_for(view).image.tobytes() == cached


def test_highlight_of_changed_regions_is_drawn() -> None:
    # Colours are checked on the drawn canvas: the PNG's palette may shift them slightly.
    plain = duellum.board_image(make_view("A", changed=[]))
    lit = duellum.board_image(make_view("A", changed=["roma"]))
    x, y = node_xy("A", "roma")
    ring = (x - 36, y - 36, x + 36, y + 36)
    assert count_colour(plain, ring, base.HIGHLIGHT) == 0
    assert count_colour(lit, ring, base.HIGHLIGHT) > 500
    # Only the highlighted region changed on the map: a far-away node looks the same.
    fx, fy = node_xy("A", "tingis")
    far = (fx - 40, fy - 40, fx + 40, fy + 40)
    assert plain.crop(far).tobytes() == lit.crop(far).tobytes()


def test_rondel_move_and_summary_change_the_image() -> None:
    a = renderer.render("duellum", make_view("A", rondel_move={"seat": 0, "from": "FERRUM", "to": "AURUM"}))
    b = renderer.render("duellum", make_view("A", rondel_move={"seat": 0, "from": "AURUM", "to": "MILITIA"}))
    c = renderer.render("duellum", make_view("A", rondel_move={"seat": 0, "from": None, "to": "MILITIA"}))
    d = renderer.render("duellum", make_view("A", summary=["Romans founded Ancona (gold)."]))
    assert len({a, b, c, d}) == 4


def test_cities_are_drawn_in_the_owner_colour() -> None:
    view = make_view("A")
    owner_fill = owners(view)[1].fill  # Romans, beige
    x, y = node_xy("A", "roma", view)
    token = (x - 17, y - 17, x + 17, y + 17)
    with_city = duellum.board_image(view)
    for region in view["regions"]:
        if region["id"] == "roma":
            region["city"] = None
    without = duellum.board_image(view)
    assert count_colour(with_city, token, owner_fill) > 300
    assert count_colour(without, token, owner_fill) == 0


def test_public_image_never_depends_on_the_hand() -> None:
    with_hand = make_view("A", 0)
    assert with_hand["players"][0]["hand"] == ["FORTRESS", "ORACLE"]
    public = renderer.render("duellum", with_hand)
    # Same game without any hand and with only the public card texts: identical bytes.
    stripped = copy.deepcopy(with_hand)
    for player in stripped["players"]:
        player["hand"] = None
    stripped["cards"] = {cid: stripped["cards"][cid] for cid in stripped["event_row"]}
    stripped["viewer"] = None
    assert renderer.render("duellum", stripped) == public
    # A hand-only card with a different name and text still changes nothing public.
    renamed = copy.deepcopy(with_hand)
    renamed["cards"]["ORACLE"] = {"name": "SECRET PLAN", "text": "Nobody else may read this."}
    assert renderer.render("duellum", renamed) == public
    # Every seat's view and the spectator's give the same public image.
    assert renderer.render("duellum", make_view("A", 1)) == public
    assert renderer.render("duellum", make_view("A", None)) == public


def test_public_card_texts_come_from_the_event_row() -> None:
    view = make_view("B")
    changed = copy.deepcopy(view)
    changed["cards"][view["event_row"][0]]["name"] = "Another Name"
    assert renderer.render("duellum", changed) != renderer.render("duellum", view)


def test_private_hand_image_for_a_seat_with_cards() -> None:
    data = renderer.render_private("duellum", make_view("A", 0))
    assert data is not None
    image = decode(data)
    assert image.format == "PNG" and image.size[0] == duellum.HAND_W
    one_card = renderer.render_private("duellum", make_view("A", 1))  # Romans hold 1 card
    assert one_card is not None
    assert decode(one_card).size[1] < image.size[1]
    other_text = make_view("A", 0)
    other_text["cards"]["FORTRESS"] = {"name": "Fortress", "text": "A different text."}
    assert renderer.render_private("duellum", other_text) != data


def test_private_image_is_none_for_spectators_and_empty_hands() -> None:
    assert renderer.render_private("duellum", make_view("A", None)) is None
    assert renderer.render_private("duellum", make_view("B", 1, hands={0: ["FORTRESS"], 1: []})) is None


def test_private_image_only_shows_the_viewers_own_hand() -> None:
    view = make_view("A", 0, hands={0: ["FORTRESS"], 1: ["EARTHQUAKE", "ORACLE"]})
    assert view["players"][1]["hand"] is None
    data = renderer.render_private("duellum", view)
    assert data is not None
    assert data == renderer.render_private("duellum", make_view("A", 0, hands={0: ["FORTRESS"], 1: ["TREASURY"]}))


@pytest.mark.parametrize("seed", range(6))
def test_random_positions_render(seed: int) -> None:
    side = "AB"[seed % 2]
    view = random_view(side, seed, viewer=seed % 3 if seed % 3 < 2 else None)
    assert decode(renderer.render("duellum", view)).size == (duellum.WIDTH, duellum.layout(view).height)


def test_game_over_and_sparse_views_render() -> None:
    view = make_view("B")
    view.update(over=True, winner=1, to_move=[], awaiting="")
    assert decode(renderer.render("duellum", view)).size[0] == duellum.WIDTH
    sparse = {"game": "duellum", "regions": map_data("A")["regions"], "players": [{}, {"nation": "Romans"}]}
    assert decode(renderer.render("duellum", sparse)).size[0] == duellum.WIDTH
    assert decode(renderer.render("duellum", {})).size[0] == duellum.WIDTH


def test_long_texts_grow_the_board_instead_of_being_cut() -> None:
    view = make_view("A", 0)
    short = duellum.layout(view).height
    view["awaiting"] = "Romans to decide " * 40
    view["last_turn"]["summary"] = ["A very long sentence about many legions moving. " * 5] * 12
    view["cards"]["TREASURY"]["text"] = "Take coins. " * 80
    view["players"][0]["hand"] = ["FORTRESS"] * 9
    view["cards"]["FORTRESS"]["text"] = "Defend. " * 60
    with base.clip_watch() as clipped:
        assert decode(renderer.render("duellum", view)).size == (duellum.WIDTH, duellum.layout(view).height)
        assert renderer.render_private("duellum", view) is not None
    assert clipped == []
    assert duellum.layout(view).height > short + 500


def test_owner_letters_are_unique_and_follow_the_nations() -> None:
    assert [o.letter for o in owners(make_view("A"))] == ["C", "R"]
    assert [o.letter for o in owners(make_view("B"))] == ["G", "P"]
    same = {"players": [{"nation": "Romans"}, {"nation": "Rhodians"}]}
    letters = [o.letter for o in owners(same)]
    assert len(set(letters)) == 2


def test_rondel_space_names_and_positions() -> None:
    spaces = ["FERRUM", "TEMPLUM", "AURUM", "DUELLUM_A", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM_B"]
    assert space_label("DUELLUM_B") == "DUELLUM" and space_label("SCIENTIA") == "SCIENTIA"
    assert space_index(spaces, "DUELLUM_B") == 7
    assert space_index(spaces, "MARMOR") == 5
    assert space_index(spaces, 11) == 3
    assert space_index(spaces, None) is None
    assert space_index(["DUELLUM", "AURUM", "DUELLUM"], "DUELLUM") == 0


def test_unknown_card_ids_fall_back_to_readable_names() -> None:
    view = make_view("A", 0)
    view["event_row"] = ["NEW_CARD", "TREASURY"]
    view["players"][0]["hand"] = ["MYSTERY_CARD"]
    assert renderer.render("duellum", view)
    assert renderer.render_private("duellum", view) is not None
    assert "NEW_CARD" not in CARDS


def test_rondel_index_keys_tell_the_two_duellum_spaces_apart() -> None:
    def with_stone(index: int | None) -> bytes:
        view = make_view("A")
        view["players"][1]["rondel"] = "DUELLUM"
        if index is not None:
            view["players"][1]["rondel_index"] = index
        return renderer.render("duellum", view)

    assert with_stone(3) != with_stone(7)
    assert with_stone(None) == with_stone(3)  # a bare name maps to its first occurrence


def test_variant_special_unit_is_marked() -> None:
    view = make_view("B")
    plain = renderer.render("duellum", view)
    region = next(r for r in view["regions"] if r["id"] == "sardeis")
    region["units"][0]["special"] = 1
    assert renderer.render("duellum", view) != plain
    region["units"][0].update(legion=0, galley=0)  # a special unit alone still shows
    alone = renderer.render("duellum", view)
    region["units"] = []
    assert renderer.render("duellum", view) != alone


def test_bank_contents_are_shown() -> None:
    view = make_view("A")
    before = renderer.render("duellum", view)
    view["bank"]["temples"] = 3
    assert renderer.render("duellum", view) != before
