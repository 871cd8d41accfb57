"""Management phase: sliding rows, era changes, refill counting current-era tiles only, the
variant draw (spec §9.5, §15, D-18, D-26)."""

from __future__ import annotations

from engine.capitals.builder import Table
from engine.capitals.data import ERA_TILES, TILES
from engine.capitals.flow import slide_and_refill


def era_tiles(t: Table, era: int) -> list[str]:
    return [x for row in t.state.rows for x in row if TILES[x].era == era]


def test_TC_EX_22_projects_refill_at_an_era_change() -> None:
    t = Table(players=4)
    t.state.round = 4
    slide_and_refill(t.state)
    assert t.state.round == 5
    assert len(t.state.rows[0]) == 6 and all(TILES[x].era == 2 for x in t.state.rows[0])
    assert t.state.decks[1] == []
    t.clear_rows()
    t.state.rows[1] = [t.state.decks[2].pop()]
    t.state.rows[0] = [t.state.decks[2].pop()]
    t.state.round = 6
    slide_and_refill(t.state)
    assert len(t.state.rows[0]) == 4 and len(era_tiles(t, 2)) == 6


def test_slide_moves_rows_down_and_boxes_the_four_dollar_row() -> None:
    t = Table(players=3)
    first = list(t.state.rows[0])
    t.state.rows[2] = [t.state.decks[1].pop()]
    fallen = t.state.rows[2][0]
    slide_and_refill(t.state)
    assert t.state.rows[1] == first and fallen in t.state.box and t.state.rows[2] == []


def test_TC_R_04_previous_era_leftover_can_be_bought_and_does_not_count() -> None:
    t = Table(players=3).clear_rows().row(0, "Market")
    t.state.round = 4
    slide_and_refill(t.state)
    assert "I-18" in t.state.rows[1] and len(era_tiles(t, 2)) == 5
    eco = t.p(0).tracks["ECO"]
    t.building(0).play("build market m12")
    assert t.p(0).tracks["ECO"] == eco - 2


def test_TC_EX_43_variant_draw() -> None:
    t = Table(players=5, variant=True)
    for _ in range(3):
        before = len(t.state.rows[0])
        assert before == 7 or t.state.round > 1
        slide_and_refill(t.state)
        assert len(t.state.rows[0]) == 6


def test_two_player_refill_to_four_D_18() -> None:
    t = Table(players=2)
    t.state.rows[0].pop()
    slide_and_refill(t.state)
    assert len(era_tiles(t, 1)) == 4


def test_D_26_empty_projects_area_skips_the_build() -> None:
    t = Table(players=3).clear_rows().positions(0, 1, 2).building(0)
    from engine.capitals.flow import advance

    advance(t.state)
    assert t.state.phase == "execution"
    assert any("Projects area is empty" in line for line in t.state.history)


def test_era_stacks_are_drawn_in_their_eras() -> None:
    t = Table(players=4)
    for r in range(1, 12):
        t.state.round = r
        slide_and_refill(t.state)
        era = (r) // 4 + 1
        assert all(TILES[x].era == era for x in t.state.rows[0]), r
    assert set(ERA_TILES[1]).isdisjoint(t.state.decks[2])
