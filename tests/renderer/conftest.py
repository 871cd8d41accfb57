"""Renderer test fixtures: every test starts with empty static-layer, palette and font caches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from renderer import base


@pytest.fixture(autouse=True)
def fresh_caches() -> Iterator[None]:
    """Isolate tests from each other's cached bases and font lookups (monkeypatched paths)."""
    base.STATIC_LAYERS.clear()
    base.PALETTES.clear()
    base.clear_font_cache()
    yield
    base.STATIC_LAYERS.clear()
    base.PALETTES.clear()
    base.clear_font_cache()
