"""The round structure (spec §9): phase order, Political skipped in round 1, prosperity steps
after the Management phase of marked rounds, Evaluations after rounds 4, 8 and 12 (D-23)."""

from __future__ import annotations

from engine.capitals.builder import GAME
from engine.capitals.data import BOARD
from engine.core.rng import Rng


def phases_by_round(players: int, **options: bool) -> dict[int, list[str]]:
    s = GAME.new_game(21, players, options)
    rng = Rng.from_seed(players)
    seen: dict[int, list[str]] = {}
    while GAME.outcome(s) is None:
        order = seen.setdefault(s.round, [])
        if not order or order[-1] != s.phase:
            order.append(s.phase)
        seat = next(iter(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
    return seen


def test_phase_order_and_prosperity_rounds() -> None:
    seen = phases_by_round(3, prosperity=True)
    assert seen[1][:2] == ["building", "execution"]
    for r in range(2, 13):
        main = [x for x in seen[r] if x != "prosperity"]
        assert main[:3] == ["political", "building", "execution"], (r, seen[r])
    for r in range(1, 13):
        if r in BOARD.prosperity_rounds:
            assert seen[r + 1][0] == "prosperity", r  # built after the round's Management phase
        elif r < 12:
            assert "prosperity" not in seen[r + 1], r


def test_no_prosperity_step_without_the_module() -> None:
    seen = phases_by_round(4)
    assert not any("prosperity" in v for v in seen.values())


def test_evaluations_clear_tile_cubes_only_after_rounds_4_8_12() -> None:
    s = GAME.new_game(5, 3)
    rng = Rng.from_seed(5)
    cleared_after: list[int] = []
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        before = sum(t.cubes for p in s.players for t in p.city.values())
        r = s.round
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
        after = sum(t.cubes for p in s.players for t in p.city.values())
        if before and not after and s.round != r:
            cleared_after.append(r)
    assert set(cleared_after) <= {4, 8} and cleared_after  # round 12's clearing ends the game
    assert all(t.cubes == 0 for p in s.players for t in p.city.values())
