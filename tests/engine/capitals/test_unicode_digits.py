"""Cell names with non-ASCII digits are no cells: ``parse_cell_name("m¹³")`` raised
``ValueError`` from ``int("¹³")`` (found by the bad-input fuzzer)."""

from __future__ import annotations

from engine.capitals.grid import parse_cell_name


def test_cell_names_take_ascii_digits_only() -> None:
    assert parse_cell_name("m¹³") is None and parse_cell_name("m٣") is None and parse_cell_name("m²") is None
    assert parse_cell_name("m13") is not None
