"""The data files: maps, technology prices, event deck, constants — validated and marked."""

from __future__ import annotations

import ast
import copy
from pathlib import Path

import pytest

from engine.duellum import data
from engine.duellum.data import (
    CARDS,
    MAPS,
    RAW_EVENTS,
    RAW_MAPS,
    RAW_RULES,
    RAW_TECHS,
    RULES,
    TECHS,
    DataError,
    build_map,
    validate_cards,
    validate_map,
    validate_techs,
)


@pytest.mark.parametrize("map_id", sorted(MAPS))
def test_maps_validate(map_id: str) -> None:
    raw = RAW_MAPS[map_id]
    assert validate_map(raw) == []
    m = MAPS[map_id]
    assert m.size == 40 and sum(m.site) == 27
    assert raw["status"] == "stand-in" and "STAND-IN" in raw["_note"]
    for a, b, colour in m.borders:
        assert b in m.adj_any[a] and a in m.adj_any[b]
        assert (b in m.adj[0][a]) == (colour != "BLUE") == (a in m.adj[0][b])
        assert (b in m.adj[1][a]) == (colour != "RED") == (a in m.adj[1][b])
    for r in range(m.size):
        colours = {c for a, b, c in m.borders if r in (a, b)}
        kind = "LAND" if colours == {"RED"} else "SEA" if colours == {"BLUE"} else "MIXED"
        assert m.kinds[r] == kind
        assert m.accepts[0][r] == (kind != "SEA") and m.accepts[1][r] == (kind != "LAND")
    for seat in (0, 1):
        assert sorted(res for _, res in m.start[seat]) == [0, 1, 2]


def test_map_facts() -> None:
    a, b = MAPS["rome-carthage"], MAPS["greece-persia"]
    assert len(a.borders) == 95 and len(b.borders) == 88
    assert [sum(1 for *_, c in a.borders if c == k) for k in ("RED", "BLUE", "REDBLUE")] == [28, 48, 19]
    assert [sum(1 for *_, c in b.borders if c == k) for k in ("RED", "BLUE", "REDBLUE")] == [26, 52, 10]
    assert sum(a.sea_weight) == 21 and sum(b.sea_weight) == 28
    assert a.nations == ("Carthaginians", "Romans") and b.nations == ("Greeks", "Persians")
    assert a.kinds[a.index["zama"]] == "LAND" and a.kinds[a.index["carales"]] == "SEA"


def _broken(mutate: object) -> list[str]:
    raw = copy.deepcopy(dict(RAW_MAPS["rome-carthage"]))
    mutate(raw)  # type: ignore[operator]
    return validate_map(raw)


def test_map_validation_catches_errors() -> None:
    assert any("unknown region" in e for e in _broken(lambda r: r["borders"].append(["roma", "atlantis", "RED"])))
    assert any("self-loop" in e for e in _broken(lambda r: r["borders"].append(["roma", "roma", "RED"])))
    assert any("listed twice" in e for e in _broken(lambda r: r["borders"].append(["corsica", "roma", "BLUE"])))
    assert any("borders make it" in e for e in _broken(lambda r: r["borders"].append(["zama", "mare_africum", "BLUE"])))
    assert any("unknown colour" in e for e in _broken(lambda r: r["borders"].append(["zama", "roma", "GREEN"])))

    def drop_start(r: dict) -> None:  # type: ignore[type-arg]
        r["start_cities"]["BROWN"] = {"zama": "IRON", "carthago": "IRON", "carthago_nova": "GOLD"}

    assert any("exactly one MARBLE" in e for e in _broken(drop_start))

    def cut(r: dict) -> None:  # type: ignore[type-arg]
        r["borders"] = [b for b in r["borders"] if "numidia" not in b[:2]]

    assert any("numidia has no borders" in e for e in _broken(cut))
    with pytest.raises(DataError):
        bad = copy.deepcopy(dict(RAW_MAPS["rome-carthage"]))
        bad["borders"].append(["roma", "roma", "RED"])
        build_map(bad)


def test_techs_and_rules() -> None:
    assert validate_techs(RAW_TECHS) == []
    assert TECHS["COMMERCIUM"].first == 9 and TECHS["NAVIGATIO"].second == 3
    assert RAW_TECHS["status"] == "stand-in"
    assert validate_techs({"techs": [{"id": "STRATA", "first": 1, "second": 2}]})
    assert RULES.rondel == ("FERRUM", "TEMPLUM", "AURUM", "DUELLUM", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM")
    assert RULES.wall_symbols == (0, 1, 2, 3, 5, 7) and RULES.coin_supply == 20
    assert "STAND-IN" in RAW_RULES["_note"]


def test_event_deck() -> None:
    assert validate_cards(RAW_EVENTS) == []
    assert sum(c.copies for c in CARDS.values()) == 25 and len(data.full_deck()) == 25
    assert RAW_EVENTS["status"] == "stand-in"
    assert all(c.text and c.name for c in CARDS.values())
    bad = {"cards": [{"id": "X", "copies": 1, "timing": "SOMETIME", "effect": {"type": "teleport"}}]}
    errors = validate_cards(bad)
    assert any("unknown effect" in e for e in errors) and any("unknown timing" in e for e in errors)


FORBIDDEN = {"random", "time", "datetime", "uuid", "os", "io", "pathlib", "socket", "sys", "subprocess", "shutil"}


def test_engine_imports_only_pure_modules() -> None:
    root = Path(data.__file__).parent
    for path in sorted(root.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top not in FORBIDDEN, f"{path.name} imports {name}"
                assert top in {
                    "engine",
                    "__future__",
                    "collections",
                    "dataclasses",
                    "typing",
                    "itertools",
                    "functools",  # pure: caches of pure functions (rondel payments, trades)
                    "json",
                    "importlib",
                    "abc",
                }, f"{path.name} imports {name}"
