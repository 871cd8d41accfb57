"""Palettes per kind of board (renderer.base.kind_palette): chosen once, shared by later boards.

Why these tests: a shared palette is only worth its saving if later boards keep their colours —
the colours the first board lacked (named in the kind), and the anti-aliased text edges.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageChops, ImageDraw, ImageStat

from renderer import base, duellum, seven_wonders
from tests.renderer.fixtures import make_view, random_view
from tests.renderer.test_seven_wonders import GAME, SCENARIOS, scenario_state

GREEN = (30, 110, 60)


def _decoded(data: bytes) -> Image.Image:
    back = Image.open(io.BytesIO(data))
    back.load()
    return back


def _error(rgb: Image.Image, data: bytes) -> tuple[float, int]:
    """Mean and largest difference per channel between ``rgb`` and the decoded PNG ``data``."""
    diff = ImageChops.difference(rgb, _decoded(data).convert("RGB"))
    return sum(ImageStat.Stat(diff).mean) / 3, max(int(high) for _, high in diff.getextrema())  # type: ignore[misc]


def _page(with_green: bool) -> Image.Image:
    image = base.new_canvas((300, 200))
    draw = ImageDraw.Draw(image)
    base.draw_text(draw, (10, 10), "Persians to move", base.font(18), base.INK)
    draw.rectangle((10, 60, 140, 120), fill=base.PANEL, outline=base.INK, width=2)
    if with_green:
        draw.rectangle((160, 60, 290, 120), fill=GREEN)
    return image


def test_boards_of_a_kind_are_mapped_to_the_palette_of_the_first() -> None:
    kind = base.PaletteKind("test-kind")
    first, later = _page(False), _page(True)
    base.encode_board(first, kind)
    data = base.encode_board(later, kind)
    assert base.PALETTES.info().builds == 1  # chosen once, for the first board
    palette = base.kind_palette(kind, later)
    back = _decoded(data)
    assert back.mode == "P" and back.size == later.size
    assert back.tobytes() == later.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()
    assert base.encode_board(later, kind) == data  # deterministic within a process


def test_a_colour_named_in_the_kind_survives_although_the_first_board_lacked_it() -> None:
    first, later = _page(False), _page(True)
    named, unnamed = base.PaletteKind("named", (GREEN,)), base.PaletteKind("unnamed")
    base.encode_board(first, named)
    base.encode_board(first, unnamed)
    for kind, close in ((named, True), (unnamed, False)):
        green = _decoded(base.encode_board(later, kind)).convert("RGB").getpixel((200, 90))
        assert isinstance(green, tuple)
        worst = max(abs(a - b) for a, b in zip(green, GREEN, strict=True))
        assert (worst <= 12) == close, (kind, green)


def test_later_duellum_boards_keep_their_colours_with_the_kinds_palette() -> None:
    duellum.render(make_view("A", None, turn=1))  # the first board of the kind: few pieces, no highlight
    for seed in range(4):
        view = random_view("A", seed=50 + seed, viewer=None)
        canvas = duellum.board_image(view)
        shared = _error(canvas, duellum.render(view))
        own = _error(canvas, base.encode_board(canvas))  # a palette chosen for this board alone
        assert shared[0] <= own[0] + 0.3 and shared[1] <= 48, (shared, own)
    assert base.PALETTES.info().builds == 1


def test_seven_wonders_tables_share_one_palette() -> None:
    seven_wonders.render(GAME.view(scenario_state(0), None))  # two players at the start: few colours yet
    for index in range(1, len(SCENARIOS)):  # up to eight players, to the end of the game
        canvas = seven_wonders.table_image(GAME.view(scenario_state(index), None))
        shared = _error(canvas, base.encode_board(canvas, seven_wonders.TABLE_PALETTE))
        own = _error(canvas, base.encode_board(canvas))
        assert shared[0] <= own[0] + 0.6 and shared[1] <= 48, (index, shared, own)
    assert base.PALETTES.info().builds == 1


_ALONE = """
import sys
from pathlib import Path
import renderer
from tests.renderer.fixtures import random_view
from tests.renderer.test_seven_wonders import GAME, scenario_state
out = Path(sys.argv[1])
(out / "board.png").write_bytes(renderer.render("duellum", random_view("B", seed=61, viewer=None)))
(out / "table.png").write_bytes(renderer.render("seven-wonders", GAME.view(scenario_state(3), None)))
"""


def test_a_board_is_the_same_bytes_whichever_boards_a_process_drew_before(tmp_path: Path) -> None:
    """The palette of a kind comes from fixed reference positions, not from the first board a
    process happens to draw: the render worker, a bot and a test drawing one view must produce
    one PNG (it once differed in a byte of the palette between processes)."""
    for seed in range(3):  # other boards first, here
        duellum.render(random_view("A", seed=80 + seed, viewer=None))
    seven_wonders.render(GAME.view(scenario_state(1), None))
    here = duellum.render(random_view("B", seed=61, viewer=None))
    table = seven_wonders.render(GAME.view(scenario_state(3), None))
    root = Path(__file__).resolve().parents[2]
    command = [sys.executable, "-c", _ALONE, str(tmp_path)]
    subprocess.run(command, cwd=root, capture_output=True, timeout=120, check=True)
    assert (tmp_path / "board.png").read_bytes() == here
    assert (tmp_path / "table.png").read_bytes() == table
