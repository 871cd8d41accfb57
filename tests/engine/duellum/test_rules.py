"""The additional rule tests of spec §19 (AD-RT-01 .. AD-RT-20) and further rule scenarios."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.duellum.actions import Deploy, Move, RondelMove
from engine.duellum.data import CITIZEN, GENERAL, NAVIGATOR, SCHOLAR
from engine.duellum.personalities import sea_points
from engine.duellum.state import PHASE_OVER

from .builders import GAME, Board, space_index

BROWN, BEIGE = 0, 1


def test_AD_RT_01_setup() -> None:
    for seed in range(6):
        for map_id in ("rome-carthage", "greece-persia"):
            s = GAME.new_game(seed, 2, {"map": map_id})
            second = 1 - s.start_player
            assert s.active == s.start_player
            for seat, p in enumerate(s.players):
                assert p.res == [3, 3, 3, 1 if seat == second else 0]
                assert p.walls == 1 and p.box == [1, 1] and p.supply == [11, 11]
                assert sum(1 for o in s.owner if o == seat) == 3
                assert sorted(s.cres[r] for r in range(s.map.size) if s.owner[r] == seat) == [0, 1, 2]
                assert p.stone == -1 and not p.hand and not p.techs
            assert len(s.row) == 3 and len(s.draw) == 22 and not s.discard
            assert all(n == 0 for pu in s.units for u in pu for n in u)
            assert s.bank_tokens == [10, 10, 8] and s.bank_walls == 10 and s.bank_temples == 12
            assert s.bank_coins == 19 and s.bank_pers == [6, 5, 4, 2, 4]
    starts = {GAME.new_game(seed, 2, {}).start_player for seed in range(20)}
    assert starts == {0, 1}


def test_AD_RT_02_supply_limits() -> None:
    b = Board(active=BROWN).resources(BROWN, gold=5)
    b.box(BROWN, 1, 1)
    p = b.state.players[BROWN]
    p.supply[0] = 0
    b.state.players[BROWN].box[0] += 11  # keep the legion total at 12
    b.action("SCIENTIA")
    with pytest.raises(IllegalAction, match="personal supply has only 0 legion"):
        b.play(BROWN, "recruit legion")
    b = Board(active=BROWN).units(BROWN, "numantia", legions=1).resources(BROWN, marble=3, iron=3, gold=3, coins=3)
    b.state.bank_tokens[2] = 0
    b.founding_step()
    with pytest.raises(IllegalAction, match="no gold city token"):
        b.play(BROWN, "found numantia gold")
    b.play(BROWN, "found numantia iron")
    b = Board(active=BROWN).resources(BROWN, marble=12, coins=5)
    b.state.bank_temples = 0
    b.action("TEMPLUM")
    with pytest.raises(IllegalAction, match="All 12 temples are on the map"):
        b.play(BROWN, "temple carthago")


def test_AD_RT_03_coins_as_wildcards() -> None:
    b = Board(active=BROWN).resources(BROWN, iron=1, coins=1).action("MILITIA")
    b.play(BROWN, "deploy legion zama")
    assert b.res(BROWN)[1:] == (0, 3, 0)
    b = Board(active=BROWN).units(BROWN, "tacape", legions=1).resources(BROWN, marble=1, iron=1, gold=5, coins=0)
    b.founding_step()
    with pytest.raises(IllegalAction, match="surcharge must be coins"):
        b.play(BROWN, "found tacape iron")  # Zama (iron) is adjacent: 1 coin surcharge


def _two_temples(first: str, second: str) -> tuple[int, int, int, int]:
    b = Board(active=BEIGE).city("ancona", BEIGE, "gold").resources(BEIGE, marble=12, iron=0, gold=0, coins=1)
    b.action("TEMPLUM")
    b.play(BEIGE, f"temple {first}")
    after_first = b.res(BEIGE)
    b.play(BEIGE, f"temple {second}")
    assert after_first == (6, 0, 0, 1)
    return b.res(BEIGE)


def test_AD_RT_04_temple_sequence() -> None:
    # Aquileia and Cremona are adjacent own cities with no other temples near.
    assert _two_temples("roma", "ancona") == (0, 0, 0, 0)
    assert _two_temples("ancona", "roma") == (0, 0, 0, 0)


def test_AD_RT_05_walls() -> None:
    b = Board(active=BEIGE).walls_in_supply(BEIGE, 2).resources(BEIGE, marble=4)
    b.action("TEMPLUM")
    b.play(BEIGE, "wall roma")  # no temple needed
    with pytest.raises(IllegalAction, match="already has a wall"):
        b.play(BEIGE, "wall roma")
    b.play(BEIGE, "wall neapolis")
    with pytest.raises(IllegalAction, match="no wall in your personal supply"):
        b.play(BEIGE, "wall brundisium")


def test_AD_RT_06_militia_snapshot() -> None:
    b = Board(active=BEIGE).box(BROWN, 1, 0).units(BEIGE, "zama", legions=1)
    b.start(BROWN).resources(BROWN, iron=6).action("MILITIA")
    b.play(BROWN, "deploy legion zama")
    assert b.state.players[BROWN].box[0] == 1
    assert b.state.deployable[0] == 0
    with pytest.raises(IllegalAction, match="start of the turn"):
        b.play(BROWN, "deploy legion carthago")


def test_AD_RT_07_temple_city_limit_counts_dead_units() -> None:
    b = Board(active=BEIGE).box(BROWN, 4, 0).units(BEIGE, "carthago", legions=2)
    b.city("carthago", BROWN, "marble", temple=True)
    b.start(BROWN).resources(BROWN, iron=8).action("MILITIA")
    b.play(BROWN, "deploy 3 legions carthago")
    assert b.n(BROWN, "carthago") == (1, 0) and b.n(BEIGE, "carthago") == (0, 0)
    with pytest.raises(IllegalAction, match="at most 3 new unit"):
        b.do(BROWN, Deploy(0, 1, b.r("carthago")))


def test_AD_RT_08_movement_by_border_colour() -> None:
    b = Board(active=BROWN)
    b.units(BROWN, "roma", legions=1, galleys=1).units(BROWN, "neapolis", legions=1)
    b.action("DUELLUM")
    texts = b.legal_texts(BROWN)
    assert "move legion roma-corsica" not in texts  # BLUE: galleys only
    assert "move galley roma-ancona" not in texts  # RED: legions only
    assert "move legion roma-genua" in texts and "move galley roma-genua" in texts  # REDBLUE
    assert not any(t.startswith("move legion") and t.split("-")[-1].startswith("mare") for t in texts)
    with pytest.raises(IllegalAction, match="Legions can never be in Corsica"):
        b.do(BROWN, Move(0, 1, (b.r("roma"), b.r("corsica"))))
    with pytest.raises(IllegalAction, match="No route"):
        b.do(BROWN, Move(1, 1, (b.r("roma"), b.r("ancona"))))


def test_AD_RT_09_strata_path_battle() -> None:
    b = Board(active=BROWN).techs(BROWN, "STRATA")
    b.units(BROWN, "genua", legions=1).units(BEIGE, "roma", legions=1)
    b.action("DUELLUM")
    b.play(BROWN, "move legion genua-roma-neapolis")
    assert b.n(BROWN, "neapolis") == (0, 0) and b.n(BEIGE, "roma") == (0, 0)
    b = Board(active=BROWN).techs(BROWN, "STRATA")
    b.units(BROWN, "genua", legions=2).units(BEIGE, "roma", legions=1)
    b.action("DUELLUM")
    b.play(BROWN, "move 2 legions genua-roma-neapolis")
    assert b.n(BROWN, "neapolis") == (1, 0) and b.n(BEIGE, "roma") == (0, 0)
    assert b.state.moved[0] == {b.r("neapolis"): 1}


def test_AD_RT_10_conquest_counts_unmoved_units_of_both_types() -> None:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold").units(BEIGE, "tarraco", legions=1)
    b.units(BROWN, "tarraco", galleys=1).units(BROWN, "saguntum", legions=1)
    b.action("DUELLUM")
    b.play(BROWN, "move legion saguntum-tarraco")
    b.play(BROWN, "done")
    b.play(BROWN, "conquer tarraco")
    assert b.owner("tarraco") == BROWN and b.n(BROWN, "tarraco") == (0, 0)


def test_AD_RT_11_attacker_chooses_losses() -> None:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold")
    b.units(BROWN, "tarraco", legions=2, galleys=2).conquest_step()
    b.play(BROWN, "conquer tarraco")
    assert b.state.phase == "losses"
    assert b.legal_texts(BROWN) == ["lose 1 legion", "lose 1 galley"]
    b.play(BROWN, "lose 1 galley")
    assert b.n(BROWN, "tarraco") == (2, 1) and b.owner("tarraco") == BROWN


def test_AD_RT_12_conquest_results_and_general_supply() -> None:
    b = Board(active=BROWN).city("tarraco", BEIGE, "iron", temple=True, wall=True)
    b.units(BROWN, "tarraco", legions=4).personalities(BEIGE, general=4)
    b.conquest_step()
    walls = b.state.players[BEIGE].walls
    b.play(BROWN, "conquer tarraco")
    s = b.state
    assert s.cres[b.r("tarraco")] == 1 and not s.temple[b.r("tarraco")] and not s.wall[b.r("tarraco")]
    assert s.players[BEIGE].walls == walls + 1
    b.play(BROWN, "end")
    assert b.state.players[BROWN].pers[GENERAL] == 0  # no General left in the supply


def test_AD_RT_13_scholar_only_for_the_first() -> None:
    b = Board(active=BROWN).resources(BROWN, gold=7).action("SCIENTIA")
    b.play(BROWN, "buy moneta")
    assert b.res(BROWN)[2] == 0
    b.play(BROWN, "end")
    assert b.state.players[BROWN].pers[SCHOLAR] == 1
    b.state.players[BEIGE].owed = 0
    b.start(BEIGE).resources(BEIGE, gold=3, coins=0).action("SCIENTIA")
    b.play(BEIGE, "buy moneta")
    assert b.res(BEIGE)[2] == 0
    b.play(BEIGE, "end")
    assert b.state.players[BEIGE].pers[SCHOLAR] == 0


def test_AD_RT_14_navigators() -> None:
    b = Board(active=BEIGE)
    for r in ("corsica", "mare_tyrrhenum", "mare_africum", "carales"):
        b.units(BEIGE, r, galleys=1)
    b.units(BEIGE, "roma", galleys=3)
    assert sea_points(b.state, BEIGE) == 7
    b.founding_step().play(BEIGE, "done")
    assert b.state.players[BEIGE].pers[NAVIGATOR] == 1
    b.state.players[BROWN].owed = 0
    b.start(BEIGE)
    for r in ("mare_ionium", "mare_adriaticum", "mare_sardoum", "mare_ligusticum"):
        b.units(BEIGE, r, galleys=1)
    assert sea_points(b.state, BEIGE) == 15
    b.founding_step().play(BEIGE, "done")
    assert b.state.players[BEIGE].pers[NAVIGATOR] == 2


def test_AD_RT_15_citizens() -> None:
    b = Board(active=BEIGE)
    for r in ("roma", "neapolis", "brundisium"):
        b.city(r, BEIGE, "gold", temple=True)
    b.founding_step().play(BEIGE, "done")
    assert b.state.players[BEIGE].pers[CITIZEN] == 1
    b.state.players[BROWN].owed = 0
    b.start(BEIGE).city("roma", BEIGE, "gold").city("roma", BEIGE, "gold", temple=True)
    b.founding_step().play(BEIGE, "done")
    assert b.state.players[BEIGE].pers[CITIZEN] == 1
    b.state.players[BROWN].owed = 0
    b.start(BEIGE)
    for r in ("ancona", "croton", "syracusae"):
        b.city(r, BEIGE, "iron", temple=True)
    b.founding_step().play(BEIGE, "done")
    assert b.state.players[BEIGE].pers[CITIZEN] == 2


def test_AD_RT_16_cards_for_the_defender() -> None:
    b = Board(active=BROWN).no_city("zama").no_city("carthago")  # stay below 5 cities (no King)
    for r in ("tarraco", "saguntum", "numantia"):
        b.city(r, BEIGE, "marble").units(BROWN, r, legions=1)
    b.state.scholars = 0
    b.conquest_step()
    for r in ("tarraco", "saguntum", "numantia"):
        b.play(BROWN, f"conquer {r}")
    b.state.scholars = 2  # two first technologies this turn
    b.play(BROWN, "done")
    assert b.state.players[BEIGE].owed == 3  # 1 for the cities, 2 for the personalities
    for _ in range(3):
        drawn = len(b.state.draw)
        b.play(BEIGE, f"take {b.state.row[-1].lower()}")
        assert len(b.state.row) == 3 and len(b.state.draw) == drawn - 1


def test_AD_RT_17_deck_exhaustion_reshuffles_the_discards() -> None:
    b = Board(active=BROWN)
    s = b.state
    s.discard, s.draw = s.draw, []
    s.players[BEIGE].owed = 1
    b.start(BEIGE)
    assert b.game.to_move(b.state) == frozenset({BEIGE})
    discards = len(b.state.discard)
    step = b.play(BEIGE, f"take {b.state.row[0].lower()}")
    assert not step.undoable
    assert not b.state.discard and len(b.state.draw) == discards - 1 and len(b.state.row) == 3
    assert any("shuffled" in e.text for e in step.events)


def test_AD_RT_18_victory_voids_owed_picks() -> None:
    b = Board(active=BROWN).personalities(BROWN, king=1, scholar=3, navigator=2, citizen=1)
    assert b.state.players[BROWN].vp == 7
    b.conquest_step()
    b.state.scholars = 2
    b.play(BROWN, "end")
    s = b.state
    assert s.phase == PHASE_OVER and s.winner == BROWN and s.players[BROWN].vp == 9
    assert s.players[BEIGE].owed == 0
    out = b.game.outcome(s)
    assert out is not None and out.winners == (BROWN,) and out.scores == {BROWN: 9, BEIGE: 0}
    assert out.reason == "The Carthaginians reached 9 personalities."
    assert b.game.to_move(s) == frozenset() and b.game.legal_actions(s, BEIGE) == []


def test_AD_RT_19_founding_needs_own_unit_now() -> None:
    b = Board(active=BROWN).units(BEIGE, "numantia", legions=1).units(BROWN, "carales", galleys=1)
    b.resources(BROWN, marble=5, iron=5, gold=5, coins=5).founding_step()
    with pytest.raises(IllegalAction, match="need one of your units in Numantia"):
        b.play(BROWN, "found numantia gold")
    b.units(BROWN, "tarraco", galleys=1).units(BEIGE, "tarraco", legions=1)
    b.play(BROWN, "found tarraco gold")  # an enemy unit there does not prevent it
    b.play(BROWN, "found carales marble")  # an island city founded with a galley
    assert b.owner("carales") == BROWN and b.owner("tarraco") == BROWN


def test_AD_RT_20_enemy_units_do_not_stop_production_or_deployment() -> None:
    b = Board(active=BROWN).units(BEIGE, "carthago", legions=2).stone(BROWN, "FERRUM")
    marble = b.res(BROWN)[0]
    b.play(BROWN, "rondel marmor pay iron iron")
    assert b.res(BROWN)[0] == marble + 1
    b = Board(active=BROWN).units(BEIGE, "carthago", galleys=1).action("MILITIA")
    b.play(BROWN, "deploy legion carthago")
    assert b.n(BROWN, "carthago") == (1, 0) and b.n(BEIGE, "carthago") == (0, 1)


# ------------------------------------------------------------ rondel extras
def test_duellum_to_duellum_is_a_normal_move_by_default() -> None:
    b = Board(active=BROWN).stone(BROWN, "DUELLUM", 0).resources(BROWN, gold=1)
    assert "rondel duellum-b pay gold" in b.legal_texts(BROWN)
    b = Board(active=BROWN, duellum_to_duellum_allowed=False).stone(BROWN, "DUELLUM", 0)
    assert not [t for t in b.legal_texts(BROWN) if t.startswith("rondel duellum-b")]
    with pytest.raises(IllegalAction, match="from one DUELLUM space to the other"):
        b.do(BROWN, RondelMove(space_index("DUELLUM", 1), (0, 0, 1, 0)))


def test_rondel_payment_before_production() -> None:
    b = Board(active=BROWN).stone(BROWN, "DUELLUM", 1).resources(BROWN, marble=0, iron=0, gold=0, coins=0)
    texts = b.legal_texts(BROWN)
    assert [t for t in texts if t.startswith("rondel")] == ["rondel ferrum", "rondel templum", "rondel aurum"]
    with pytest.raises(IllegalAction, match="6 steps and costs 3"):
        b.play(BROWN, "rondel marmor")


def test_rondel_wrong_payment_reasons() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM").resources(BROWN, marble=1, iron=0, gold=0, coins=0)
    with pytest.raises(IllegalAction, match="MARMOR is 5 steps and costs 2"):
        b.play(BROWN, "rondel marmor pay marble")
    with pytest.raises(IllegalAction, match="is free"):
        b.play(BROWN, "rondel aurum pay marble")
    with pytest.raises(IllegalAction, match="cannot pay"):
        b.play(BROWN, "rondel militia pay gold")


# ----------------------------------------------------------- turn structure
def test_owed_picks_may_wait_or_be_taken_during_the_opponents_turn() -> None:
    b = Board(active=BROWN).hand(BROWN, "MERCHANT_CARAVAN")
    b.state.players[BEIGE].owed = 1
    b.start(BROWN)
    assert b.game.to_move(b.state) == frozenset({BROWN, BEIGE})
    assert b.game.legal_actions(b.state, BEIGE)
    b.play(BROWN, "rondel aurum")
    b.play(BEIGE, f"take {b.state.row[0].lower()}")
    assert b.game.to_move(b.state) == frozenset({BROWN})


def test_owed_picks_first_in_own_turn() -> None:
    b = Board(active=BROWN)
    b.state.players[BEIGE].owed = 1
    b.start(BEIGE)
    assert b.game.to_move(b.state) == frozenset({BEIGE})
    with pytest.raises(IllegalAction, match="owed event card"):
        b.do(BEIGE, RondelMove(space_index("TEMPLUM")))
    assert all(t.startswith("take ") for t in b.legal_texts(BEIGE))


def test_owed_picks_forced_when_the_draw_pile_is_short() -> None:
    b = Board(active=BROWN).hand(BROWN, "MERCHANT_CARAVAN")
    s = b.state
    s.discard.extend(s.draw[1:])
    del s.draw[1:]
    s.players[BEIGE].owed = 2
    b.start(BROWN)
    assert b.game.to_move(b.state) == frozenset({BEIGE})
    b.play(BEIGE, f"take {b.state.row[0].lower()}")
    b.play(BEIGE, f"take {b.state.row[0].lower()}")
    assert b.game.to_move(b.state) == frozenset({BROWN})


def test_empty_row_voids_owed_picks() -> None:
    b = Board(active=BROWN)
    s = b.state
    s.players[BEIGE].hand.extend(s.row + s.draw + s.discard)
    s.row, s.draw, s.discard = [], [], []
    b.personalities(BROWN, scholar=0)
    b.conquest_step()
    s = b.state
    s.scholars = 1
    step = b.play(BROWN, "end")
    assert b.state.players[BEIGE].owed == 0
    assert any("row is empty" in e.text for e in step.events)


def test_end_turn_skips_remaining_steps_and_done_moves_on() -> None:
    b = Board(active=BROWN).units(BROWN, "numantia", legions=1).action("DUELLUM")
    b.play(BROWN, "done")  # movement -> conquests: none possible -> founding (a site with a unit)
    assert b.state.phase == "founding"
    b.play(BROWN, "end")
    assert b.state.active == BEIGE and b.state.turn == 6


def test_production_turn_is_one_message() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM")
    b.play(BROWN, "rondel aurum")
    assert b.state.active == BEIGE and b.state.phase == "rondel"


def test_not_your_turn_and_game_over() -> None:
    from engine.core.errors import GameOver, NotYourTurn

    b = Board(active=BROWN)
    with pytest.raises(NotYourTurn):
        b.play(BEIGE, "rondel aurum")
    b.state.phase = PHASE_OVER
    b.state.winner = BROWN
    with pytest.raises(GameOver):
        b.play(BROWN, "rondel aurum")


def test_general_for_each_destroyed_temple() -> None:
    b = Board(active=BROWN).no_city("zama")
    for r in ("tarraco", "saguntum"):
        b.city(r, BEIGE, "gold", temple=True).units(BROWN, r, legions=3)
    b.conquest_step()
    b.play(BROWN, "conquer tarraco")
    b.play(BROWN, "conquer saguntum")
    b.play(BROWN, "done")
    assert b.state.players[BROWN].pers[GENERAL] == 2 and b.state.players[BEIGE].owed == 3


def test_navigator_counts_coastal_flag() -> None:
    b = Board(active=BEIGE, navigator_counts_coastal=True).units(BEIGE, "neapolis", galleys=1)
    b.units(BEIGE, "mare_ionium", galleys=1).units(BEIGE, "carales", galleys=1)
    assert sea_points(b.state, BEIGE) == 1 + 2 + 1  # coastal city region, cityless sea, island sea
    b = Board(active=BEIGE).units(BEIGE, "neapolis", galleys=1)
    assert sea_points(b.state, BEIGE) == 0
