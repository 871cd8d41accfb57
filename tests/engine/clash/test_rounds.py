"""Rounds, turns, the status phase, trade routes, scoring and the end (rules 6, 16-19, 18.6)."""

from __future__ import annotations

import pytest

from engine.clash.builder import GAME, Position
from engine.clash.rounds import first_player_chooser
from engine.clash.scoring import outcome
from engine.core.errors import IllegalAction, NotYourTurn


def _end_turns(pos: Position, n: int) -> list[tuple[int, int, int]]:
    seen = []
    for _ in range(n):
        s = pos.state
        seen.append((s.round, s.turn, s.active))
        pos.play(s.active, "end")
    return seen


def test_cc_ex_01_turn_order_three_players() -> None:
    pos = Position(3).turn(0)
    seen = _end_turns(pos, 9)
    assert seen == [(1, t, p) for t in (1, 2, 3) for p in (0, 1, 2)]
    assert pos.state.phase == "status" or pos.state.round == 2


def test_only_the_active_player_moves() -> None:
    pos = Position(2).turn(0)
    with pytest.raises(NotYourTurn):
        GAME.apply(pos.state, 1, GAME.legal_actions(pos.state, 0)[0])
    pos.give(0, food=8, gold=8)
    for _ in range(3):
        adv = next(m for m in pos.moves(0) if m.startswith("advance"))
        pos.play(0, adv)
    assert not [m for m in pos.moves(0) if m.startswith(("advance", "collect"))]
    with pytest.raises(IllegalAction, match="no action left"):
        pos.play(0, "advance storage")


def _to_status(pos: Position) -> None:
    while pos.state.phase == "turn" and not pos.state.pending:
        pos.play(pos.state.active, "end")


def test_status_phase_free_advance_in_seat_order() -> None:
    pos = Position(3).turn(1, turn=3)
    _to_status(pos)
    assert pos.state.pending == {"kind": "free", "seat": 1}
    pos.play(1, "advance storage")
    assert pos.state.pending == {"kind": "free", "seat": 2}
    pos.play(2, "advance fishing")
    pos.play(0, "advance tactics")
    assert pos.state.phase == "turn" and pos.state.round == 2
    assert [len(p.advances) for p in pos.state.pl] == [3, 3, 3]
    assert pos.state.card_log == [[1, "status-draw"], [2, "status-draw"], [0, "status-draw"]]


def test_cc_ex_34_steel_weapons_as_free_advance() -> None:
    pos = Position(2).advances(0, "tactics").give(0, ore=1, gold=0).turn(0, turn=3, first=0)
    pos.play(0, "end")
    pos.play(1, "end")
    assert pos.state.pending["seat"] == 0
    assert "advance steel-weapons" not in pos.moves(0)
    pos.give(0, gold=1)
    pos.play(0, "advance steel-weapons")
    assert pos.state.pl[0].res["ore"] == 0 and pos.state.pl[0].res["gold"] == 0


def test_d28_raze_in_status_phase_never_the_only_city() -> None:
    pos = Position(2).turn(0, turn=3, first=0)
    pos.city(0, "c2")
    pos.play(0, "end")
    pos.play(1, "end")
    _skip_free(pos)
    assert pos.state.pending == {"kind": "raze", "seat": 0}
    assert sorted(pos.moves(0)) == ["no raze", "raze athens", "raze sparta"]
    pos.play(0, "raze sparta")
    assert pos.state.pl[0].res["gold"] == 1 and len(pos.state.cities_of(0)) == 1
    assert pos.state.round == 2  # Blue has a single city: no choice to make


def _skip_free(pos: Position) -> None:
    while pos.state.pending and pos.state.pending["kind"] == "free":
        seat = pos.state.pending["seat"]
        pos.play(seat, pos.moves(seat)[0])


def test_cc_ex_37_first_player_determination() -> None:
    pos = Position(3)
    s = pos.state
    s.first = 0
    for seat, total in ((0, 6), (1, 8), (2, 8)):
        s.pl[seat].culture_level = total // 2
        s.pl[seat].happiness_level = total - total // 2
    assert first_player_chooser(s) == 1
    s.pl[0].culture_level = 4
    s.pl[0].happiness_level = 4
    assert first_player_chooser(s) == -1


def test_first_player_choice_in_status_phase() -> None:
    pos = Position(2).tokens(1, culture_level=1).turn(0, turn=3, first=0)
    pos.play(0, "end")
    pos.play(1, "end")
    _skip_free(pos)
    assert pos.state.pending == {"kind": "first", "seat": 1}
    pos.play(1, "first red")
    assert pos.state.first == 0 and pos.state.round == 2 and pos.state.active == 0


def test_game_ends_after_round_six_status_step_one() -> None:
    pos = Position(2).turn(0, round_=6, turn=3, first=0)
    pos.play(0, "end")
    pos.play(1, "end")
    assert pos.state.phase == "over" and GAME.outcome(pos.state) is not None
    assert len(pos.state.pl[0].advances) == 2  # no free advance after round 6
    with pytest.raises(Exception, match="over"):
        pos.play(0, "end")


def test_d26_game_ends_when_a_player_has_no_city_entering_the_status_phase() -> None:
    pos = Position(2).turn(0, turn=3, first=0)
    pos.clear_cities(1)
    pos.play(0, "end")
    pos.play(1, "end")  # a player without a city keeps playing his turns (D-26)
    assert pos.state.phase == "over"
    assert "no city" in pos.state.end_reason


def test_d41_four_round_game() -> None:
    pos = Position(2, four_rounds=True).turn(0, round_=1, turn=3, first=0)
    pos.play(0, "end")
    pos.play(1, "end")
    firsts = []
    while pos.state.pending:
        seat = pos.state.pending["seat"]
        firsts.append(seat)
        pos.play(seat, next(m for m in pos.moves(seat) if m.startswith("advance")))
    assert firsts == [0, 1, 0, 1]
    pos.turn(0, round_=4, turn=3, first=0)
    pos.play(0, "end")
    pos.play(1, "end")
    assert pos.state.phase == "over"


def test_d23_variable_end_roll() -> None:
    ended = []
    for seed in range(12):
        pos = Position(2, seed=seed, variable_end=True).turn(0, round_=7, turn=3, first=0)
        ended.append(pos.state.phase == "over")
    assert any(ended) and not all(ended)  # 1-5 ends, 6 goes on
    pos = Position(2, variable_end=True).turn(0, round_=5, turn=3, first=0)
    assert pos.state.phase == "turn"  # no roll before round 6, turn 2


def test_cc_ex_38_tie_break() -> None:
    pos = Position(2).clear_units().clear_cities().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"))  # 3 pieces + 2 advances = 4 points
    pos.city(1, "d7", pieces=("temple",))  # 2 pieces + 4 advances = 4 points
    pos.state.pl[1].advances = ["farming", "mining", "fishing", "writing"]
    pos.state.phase = "over"
    out = outcome(pos.state)
    assert out.details["Red"]["total"] == out.details["Blue"]["total"] == "4"
    assert out.ranking == ((0,), (1,))  # more points from city pieces
    # With the Pyramids Blue wins the tie regardless (D-20): Red gets 5 event points to stay level.
    pos.state.cities[1].wonder = "pyramids"
    pos.state.pl[0].event_halves = 10
    out = outcome(pos.state)
    assert out.details["Red"]["total"] == out.details["Blue"]["total"] == "9"
    assert out.ranking == ((1,), (0,))


def test_shared_victory_when_everything_is_equal() -> None:
    pos = Position(2).clear_units()
    pos.state.phase = "over"
    out = outcome(pos.state)
    assert out.ranking == ((0, 1),) and "share" in out.reason


def test_cc_ex_12_trade_routes() -> None:
    pos = Position(3).clear_units().clear_cities().reveal_all()
    pos.advances(0, "bartering", "trade_routes", "storage")
    pos.city(0, "e4")
    a = pos.city(1, "b7")
    b = pos.city(2, "g8")
    c = pos.city(1, "b4")
    del a, b, c
    from engine.clash.board import distances_from

    def near(space: str) -> list[str]:
        return [h for h, d in distances_from(pos.state, space, 2).items() if d <= 2]

    # One settler next to each foreign city, far from the others.
    for target in ("b7", "g8", "b4"):
        spot = next(
            h
            for h in near(target)
            if pos.state.terrain[h] != "sea"
            and not pos.state.city_at(h)
            and all(h not in near(o) for o in ("b7", "g8", "b4") if o != target)
        )
        pos.units(0, spot, settler=1)
    pos.give(0, food=0).turn(0)
    assert pos.state.pl[0].res["food"] == 3
    pos.state.city_at("b4").mood = "angry"  # type: ignore[union-attr]
    pos.give(0, food=0).turn(0)
    assert pos.state.pl[0].res["food"] == 2


def test_currency_lets_the_player_take_gold() -> None:
    pos = Position(2).clear_units().reveal_all().advances(0, "bartering", "trade_routes", "currency", "storage")
    pos.units(0, "d6", settler=1).give(0, food=0).turn(0)
    assert pos.state.pending["kind"] == "income"
    assert sorted(pos.moves(0)) == ["income food 0 gold 1", "income food 1 gold 0"]
    pos.play(0, "income food 0 gold 1")
    assert pos.state.pl[0].res["gold"] == 1


def test_d38_dogma_gives_a_free_theocracy_advance_for_a_new_temple() -> None:
    pos = Position(2).advances(0, "myths", "state_religion", "dogma").give(0, ore=1, wood=1)
    pos.city(0, "c2")
    pos.turn(0)
    pos.play(0, "grow athens temple mood")  # State Religion: no Food
    assert pos.state.pending == {"kind": "dogma", "seat": 0}
    pos.play(0, "advance conversion")
    assert "conversion" in pos.state.pl[0].advances and pos.state.actions_left == 2


def test_d23_seven_round_track_ends_after_round_seven_status_step_one() -> None:
    ended_early = True
    seed = 0
    while ended_early:
        pos = Position(2, seed=seed, variable_end=True).turn(0, round_=7, turn=3, first=1)
        ended_early = pos.state.phase == "over"  # Red is not first: no roll at his turn
        seed += 1
    pos.play(0, "end")
    assert pos.state.phase == "over" and "round 7 was the last" in pos.state.end_reason
    assert len(pos.state.pl[0].advances) == 2


def test_d01_four_ships_per_player() -> None:
    pos = Position(2).clear_units()
    pos.tile("R3", "T01", revealed=True, rotated=True)
    pos.city(0, "d3", pieces=("port", "temple", "academy"), port="e4", mood="happy", name="Corinth")
    for space in ("c2", "e2", "c3"):
        pos.city(0, space)
    pos.advances(0, "fishing").give(0, wood=8).turn(0)
    builds = [m for m in pos.moves(0) if m.startswith("build corinth") and "ship" in m]
    assert "build corinth ship ship ship ship" in builds
    pos.ship(0, "d4")
    assert "build corinth ship ship ship" in pos.moves(0)
    assert "build corinth ship ship ship ship" not in pos.moves(0)
