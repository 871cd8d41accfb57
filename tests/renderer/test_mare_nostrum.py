"""Mare Nostrum images: the public board is the same for every viewer's view, hands appear only
in private images, and every phase of a real game draws without error."""

from __future__ import annotations

import copy
import io
import re

from PIL import Image

import renderer
from engine.core.rng import Rng
from engine.mare_nostrum.data import GOODS
from engine.mare_nostrum.positions import GAME
from renderer import base, mare_nostrum


def _states(seed: int, players: int, limit: int = 400, every: int = 37) -> list[object]:
    s = GAME.new_game(seed, players, {})
    rng = Rng.from_seed(seed)
    out = []
    for i in range(limit):
        if GAME.outcome(s) is not None:
            break
        seat = rng.choice(sorted(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
        if i % every == 0 or s.phase == "offer":
            out.append(s)
    return out[:14]


def test_public_board_is_the_same_for_every_viewer() -> None:
    for s in _states(3, 5):
        images = {renderer.render("mare-nostrum", GAME.view(s, seat)) for seat in [None, 0, 1, 2, 3, 4]}
        assert len(images) == 1
        image = Image.open(io.BytesIO(images.pop()))
        assert image.format == "PNG" and image.width == 1000


def test_private_hand_image_only_for_a_seat() -> None:
    s = _states(4, 3)[-1]
    assert renderer.render_private("mare-nostrum", GAME.view(s, None)) is None
    data = renderer.render_private("mare-nostrum", GAME.view(s, 0))
    assert data is not None and Image.open(io.BytesIO(data)).format == "PNG"
    assert renderer.render_private("mare-nostrum", GAME.view(s, 0)) != renderer.render_private(
        "mare-nostrum", GAME.view(s, 1))


def test_empty_view_draws() -> None:
    assert Image.open(io.BytesIO(renderer.render("mare-nostrum", {}))).format == "PNG"


def _goods_views() -> list[dict[str, object]]:
    """Public views of two seeded games (every province's goods appear: Babylonia's grain and
    perfume, Africa's perfume and fruit) and one where a two-goods province holds the units of
    two sides (two rows of chips: too tall for the goods in full)."""
    views = [GAME.view(s, None) for seed, players in ((7, 5), (7, 3)) for s in _states(seed, players, 1500, 97)]
    crowded = copy.deepcopy(views[-1])
    crowded["provinces"]["babylonia"].update(
        caravans=["grain", "perfume"],
        units=[{"civ": "babylon", "kind": "legion"}, {"civ": "babylon", "kind": "fortress"},
               {"civ": "egypt", "kind": "legion", "place": "x"}, {"civ": "egypt", "kind": "trireme"}])
    return [*views, crowded]


def test_province_goods_are_named_in_full_or_by_a_code_the_legend_explains() -> None:
    """Issue: boxes showed "grai perf" (names cut, nowhere explained). Each box must show its
    goods in full, or by codes the legend spells out ("Goods codes: gra = grain; …"); read from
    the words the board draws. The crowded two-goods box is the one that needs codes."""
    coded_boards = 0
    for view in _goods_views():
        with base.text_watch() as drawn:
            mare_nostrum.board_image(view)
        words = [text.split() for text in drawn]
        legend = " ".join(drawn).partition("Goods codes:")[2]
        codes = dict(re.findall(r"(\w+) = (\w+)", legend))
        coded_boards += bool(codes)
        runs = [[w for ws in words[i:j] for w in ws] for i in range(len(words)) for j in range(i + 1, i + 4)]
        for pid, p in view["provinces"].items():
            goods = list(p.get("caravans") or [])
            if goods:
                shown = [[codes.get(w, w) for w in run] for run in runs]
                assert goods in shown, f"{pid}: goods {goods} not shown whole or explained; drawn {drawn}"
    assert coded_boards == 1
    assert len({mare_nostrum.goods_code(g) for g in GOODS}) == len(GOODS)  # one code per good


def _ink(text: str, fnt: object, x: float, y: float, anchor: str) -> tuple[float, float, float, float]:
    left, top, right, bottom = fnt.getbbox(text, anchor=anchor)  # type: ignore[attr-defined]
    return x + left, y + top, x + right, y + bottom


def test_province_box_contents_fit_their_box_and_keep_clear_of_each_other() -> None:
    """Name, buildings, every goods line and every chip row lie inside the box, overlap nothing
    else in it, and stop above the WAR badge of the box below (the box's ROOM)."""
    text = base.font(mare_nostrum.TEXT_SIZE)
    for view in _goods_views():
        for pid, art in mare_nostrum.province_arts(view).items():
            w, h = mare_nostrum.BOX_W, art.height
            top, buildings_w = mare_nostrum.BUILDINGS_TOP, 23 * art.cities + 29 * (art.temple + art.market)
            parts = [("name", _ink(art.label, art.name_font, w / 2, 5, "ma")),
                     ("buildings", (7.0, top, 7.0 + buildings_w, top + mare_nostrum.BUILDINGS_H))]
            parts += [(line, _ink(line, text, w / 2, mare_nostrum.goods_line_y(i), "ma"))
                      for i, line in enumerate(art.caravans)]
            y = mare_nostrum.chips_top(len(art.caravans))
            for row in art.chip_rows:
                parts.append(("chips", (4.0, y, 4.0 + sum(c[3] + 3 for c in row) - 3, y + mare_nostrum.CHIP_H)))
                y += mare_nostrum.CHIP_H + 3
            for name, (x0, y0, x1, y1) in parts:
                assert x0 >= 2 and x1 <= w - 2 and y0 >= 2 and y1 <= h - 2, f"{pid}: {name} leaves its box"
            for i, (a, ba) in enumerate(parts):
                for b, bb in parts[i + 1:]:
                    apart = ba[2] <= bb[0] or bb[2] <= ba[0] or ba[3] <= bb[1] or bb[3] <= ba[1]
                    assert apart, f"{pid}: {a} overlaps {b}"
            if len(art.chip_rows) < 2:
                assert max(p[1][3] for p in parts) <= mare_nostrum.ROOM, f"{pid}: reaches the box below"
