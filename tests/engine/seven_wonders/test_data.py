"""Data consistency: every card, guild, black card, board and setup row agrees with the rules."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from engine.seven_wonders.cities import HIDEOUT_COIN_LOSS
from engine.seven_wonders.data import (
    CARDS,
    EFFECT_TYPES,
    TABLES,
    WONDERS,
    build_tables,
    read_json,
    res_vec,
)

BASE_AGE_TOTALS = {3: 21, 4: 28, 5: 35, 6: 42, 7: 49}
AGE3_NON_GUILD = {3: 16, 4: 22, 5: 28, 6: 34, 7: 40}


def _copies(age: int, n: int) -> int:
    return sum(
        sum(1 for lab in c.copies if lab <= n)
        for c in CARDS.values()
        if c.age == age and c.expansion == "base" and c.color != "purple"
    )


def test_card_counts_by_kind() -> None:
    base = [c for c in CARDS.values() if c.expansion == "base" and c.color != "purple"]
    assert Counter(c.age for c in base) == {1: 27, 2: 23, 3: 18}
    assert sum(len(c.copies) for c in base) == 49 + 49 + 40
    guilds = [c for c in CARDS.values() if c.color == "purple"]
    assert len(guilds) == 13 and sum(1 for g in guilds if g.expansion == "cities") == 3
    black = [c for c in CARDS.values() if c.color == "black"]
    assert Counter(c.age for c in black) == {1: 9, 2: 9, 3: 9}
    assert all(not c.copies and not c.chain_from for c in black + guilds)


@pytest.mark.parametrize("n", [3, 4, 5, 6, 7])
def test_copies_per_player_count_match_data_tables(n: int) -> None:
    assert _copies(1, n) == BASE_AGE_TOTALS[n]
    assert _copies(2, n) == BASE_AGE_TOTALS[n]
    assert _copies(3, n) == AGE3_NON_GUILD[n]
    assert AGE3_NON_GUILD[n] + n + 2 == 7 * n


def test_names_in_two_ages_are_exactly_loom_glassworks_press() -> None:
    by_name = Counter(c.name for c in CARDS.values())
    assert sorted(nm for nm, k in by_name.items() if k > 1) == ["Glassworks", "Loom", "Press"]


def test_chains_point_to_earlier_ages() -> None:
    by_name = {c.name: c for c in CARDS.values()}
    for c in CARDS.values():
        for pre in c.chain_from:
            assert by_name[pre].age < c.age, (c.name, pre)
            assert by_name[pre].expansion == "base"
    assert by_name["Forum"].chain_from == ("East Trading Post", "West Trading Post")
    assert by_name["Temple"].chain_from == ("Altar",)


def test_every_effect_type_is_known_and_used() -> None:
    used = {e.type for c in CARDS.values() for e in c.effects}
    used |= {e.type for w in WONDERS.values() for st in w.sides["A"] + w.sides["B"] for e in st.effects}
    assert used == set(EFFECT_TYPES)


def test_wonder_boards() -> None:
    assert len(WONDERS) == 9
    stages = {w: (len(b.sides["A"]), len(b.sides["B"])) for w, b in WONDERS.items()}
    assert stages == {
        "alexandria": (3, 3),
        "babylon": (3, 3),
        "ephesos": (3, 3),
        "gizah": (3, 4),
        "halikarnassos": (3, 3),
        "olympia": (3, 3),
        "rhodos": (3, 2),
        "petra": (3, 2),
        "byzantium": (3, 2),
    }
    printed_vp = {w: (sum(s.vp for s in b.sides["A"]), sum(s.vp for s in b.sides["B"])) for w, b in WONDERS.items()}
    assert printed_vp["alexandria"] == (10, 7) and printed_vp["gizah"] == (15, 20)
    assert printed_vp["halikarnassos"] == (10, 3) and printed_vp["rhodos"] == (10, 7)
    assert WONDERS["petra"].sides["B"][1].cost.coins == 14 and WONDERS["petra"].sides["A"][1].cost.coins == 7


def test_setup_rows_give_exact_deck_sizes() -> None:
    for m in TABLES.modes:
        n = m.copies_for
        per_age = [_copies(1, n), _copies(2, n), _copies(3, n) + m.guilds]
        for age in range(3):
            total = per_age[age] + m.black_per_age
            if m.players == 2:
                assert total == 3 * m.hand == 2 * m.hand + m.free_city_pile
            else:
                assert total == m.players * m.hand


def test_disputed_data_is_marked_and_hideout_constant_reads_data() -> None:
    uncertain = sorted(c.id for c in CARDS.values() if c.status == "uncertain")
    assert uncertain == ["hideout", "sepulcher"]
    assert all(CARDS[c].note for c in uncertain)
    assert HIDEOUT_COIN_LOSS == 1
    assert CARDS["sepulcher"].cost.res == res_vec("SGL") and CARDS["sepulcher"].vp == 4
    assert CARDS["capitol"].cost.coins == 2 and CARDS["capitol"].cost.res == res_vec("SSCCGP")
    assert CARDS["brotherhood"].cost.res == res_vec("WWOL")


def test_swapping_data_needs_no_code_change() -> None:
    cards = copy.deepcopy(read_json("cards.json"))
    for raw in cards["cards"]:
        if raw["id"] == "hideout":
            raw["effects"] = [{"type": "vp", "n": 2}, {"type": "coin_loss", "n": 2}]
    tables = build_tables(cards, read_json("wonders.json"), read_json("setup.json"))
    assert [e.n for e in tables.cards["hideout"].effects if e.type == "coin_loss"] == [2]


def test_bad_data_is_rejected() -> None:
    cards = copy.deepcopy(read_json("cards.json"))
    cards["cards"][0]["effects"] = [{"type": "teleport"}]
    with pytest.raises(ValueError, match="unknown effect"):
        build_tables(cards, read_json("wonders.json"), read_json("setup.json"))
    cards = copy.deepcopy(read_json("cards.json"))
    cards["cards"][30]["chain_from"] = ["Nowhere"]
    with pytest.raises(ValueError, match="chain"):
        build_tables(cards, read_json("wonders.json"), read_json("setup.json"))
