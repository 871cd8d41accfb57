"""The rulebook examples of spec §18 (AD-EX-01 .. AD-EX-18), with their exact numbers."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction, InvalidNotation
from engine.duellum import rondel
from engine.duellum.actions import Conquer, RondelMove
from engine.duellum.data import GENERAL, KING, NAVIGATOR, SCHOLAR
from engine.duellum.duellum import routes
from engine.duellum.personalities import sea_points, walls_between

from .builders import Board, space_index

BROWN, BEIGE = 0, 1


# --------------------------------------------------------------- AD-EX-01
def test_AD_EX_01_rondel_costs() -> None:
    b = Board(active=BROWN).stone(BROWN, "FERRUM").resources(BROWN, marble=5, iron=0, gold=0, coins=0)
    s = b.state
    costs = {
        name: rondel.cost(s, BROWN, i)
        for i, name in enumerate(
            ("FERRUM", "TEMPLUM", "AURUM", "DUELLUM-a", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM-b")
        )
    }
    assert costs == {
        "TEMPLUM": 0,
        "AURUM": 0,
        "DUELLUM-a": 0,
        "MILITIA": 1,
        "MARMOR": 2,
        "SCIENTIA": 3,
        "DUELLUM-b": 4,
        "FERRUM": 5,
    }
    texts = b.legal_texts(BROWN)
    assert "rondel templum" in texts and "rondel aurum" in texts and "rondel duellum-a" in texts
    assert "rondel militia pay marble" in texts
    assert "rondel marmor pay 2 marble" in texts
    assert "rondel ferrum pay 5 marble" in texts
    # s = 0 (staying) does not exist: FERRUM again is the full circle for 5.
    assert "rondel ferrum" not in texts
    with pytest.raises(IllegalAction, match="costs 1"):
        b.game.apply(s, BROWN, RondelMove(space_index("MILITIA")))
    # Paying the extra steps: 2 marble for MARMOR (then Carthago produces 1 marble).
    b.play(BROWN, "rondel marmor pay marble marble")
    assert b.res(BROWN)[0] == 5 - 2 + 1


def test_AD_EX_01_first_turn_any_space_free() -> None:
    b = Board(active="Carthaginians").stone("Carthaginians", "first")
    assert all(rondel.cost(b.state, BROWN, i) == 0 for i in range(8))
    assert len([t for t in b.legal_texts(BROWN) if t.startswith("rondel")]) == 8


# --------------------------------------------------------------- AD-EX-02
def _end_turn(b: Board, seat: int) -> None:
    b.founding_step()
    b.play(seat, "done")


def test_AD_EX_02_kings_never_lost_thresholds_once() -> None:
    b = Board(active=BROWN)
    extra = ["numantia", "saguntum", "baecula", "tolosa", "lugdunum", "massilia", "genua"]
    for r in extra:
        b.city(r, BROWN, "iron")
    b.personalities(BROWN, king=2)
    assert sum(1 for o in b.state.owner if o == BROWN) == 10
    b.no_city("genua")  # loses 1 city: 9
    _end_turn(b, BROWN)
    assert b.state.players[BROWN].pers[KING] == 2
    b.start(BROWN).city("genua", BROWN, "iron")  # back to 10
    _end_turn(b, BROWN)
    assert b.state.players[BROWN].pers[KING] == 2
    for r in ("tarraco", "cremona", "aquileia", "tingis", "siga"):
        b.city(r, BROWN, "marble")
    b.start(BROWN)
    assert sum(1 for o in b.state.owner if o == BROWN) == 15
    _end_turn(b, BROWN)
    assert b.state.players[BROWN].pers[KING] == 3
    assert b.state.players[BEIGE].owed == 1


# --------------------------------------------------------------- AD-EX-03
def _founding_board() -> Board:
    b = Board(active=BROWN)
    b.city("tarraco", BEIGE, "gold")
    b.units(BROWN, "baecula", legions=1).units(BROWN, "saguntum", legions=1)
    b.resources(BROWN, marble=2, iron=1, gold=2, coins=2)
    b.founding_step()
    return b


def test_AD_EX_03_founding_baecula_and_saguntum() -> None:
    b = _founding_board()
    tokens = b.state.bank_tokens[:]
    with pytest.raises(IllegalAction, match="need one of your units in Numantia"):
        b.play(BROWN, "found numantia gold")
    b.play(BROWN, "found baecula gold")
    assert b.res(BROWN) == (1, 0, 1, 1)  # 1M 1I 1G + 1 coin surcharge (Carthago Nova)
    b.play(BROWN, "found saguntum iron")
    assert b.res(BROWN) == (0, 0, 0, 0)  # total paid G2 M2 I1 C2
    assert b.state.bank_tokens == [tokens[0], tokens[1] - 1, tokens[2] - 1]
    assert b.owner("baecula") == BROWN and b.owner("saguntum") == BROWN


def test_AD_EX_03_saguntum_as_gold_costs_three_coins() -> None:
    b = _founding_board()
    b.play(BROWN, "found baecula gold")
    from engine.duellum.founding import surcharge

    assert surcharge(b.state, b.r("saguntum"), 2) == 3
    assert surcharge(b.state, b.r("saguntum"), 1) == 0
    with pytest.raises(IllegalAction, match="costs 1 marble, 1 iron, 1 gold and 3 coins"):
        b.play(BROWN, "found saguntum gold")


# --------------------------------------------------------------- AD-EX-04
def test_AD_EX_04_walls_from_vp_track() -> None:
    b = Board(active=BROWN)
    assert [p.walls for p in b.state.players] == [1, 1]  # the symbol at 0
    assert walls_between(1, 3) == 2
    assert walls_between(3, 4) == 0
    assert walls_between(4, 5) == 1
    assert walls_between(5, 7) == 1
    assert walls_between(7, 9) == 0
    # Integrated: VP 1 -> 3 in one turn (two first technologies) gives 2 walls.
    b.personalities(BROWN, king=1)
    b.state.scholars = 2
    _end_turn_keep_counters(b, BROWN)
    assert b.state.players[BROWN].vp == 3
    assert b.state.players[BROWN].walls == 1 + 2


def _end_turn_keep_counters(b: Board, seat: int) -> None:
    scholars, temples = b.state.scholars, b.state.temples_destroyed
    b.founding_step()
    b.state.scholars, b.state.temples_destroyed = scholars, temples
    b.play(seat, "done")


# --------------------------------------------------------------- AD-EX-05
def _production_board() -> Board:
    b = Board(active=BEIGE)
    b.city("ancona", BEIGE, "gold", temple=True).city("croton", BEIGE, "marble")
    b.stone(BEIGE, "FERRUM")
    return b


def test_AD_EX_05_production() -> None:
    b = _production_board()
    before = b.res(BEIGE)
    b.play(BEIGE, "rondel aurum")
    assert b.res(BEIGE)[2] - before[2] == 4 and b.res(BEIGE)[3] - before[3] == 1
    b = _production_board().stone(BEIGE, "AURUM")
    before = b.res(BEIGE)
    b.play(BEIGE, "rondel marmor")
    assert b.res(BEIGE)[0] - before[0] == 2 and b.res(BEIGE)[3] - before[3] == 1
    b = _production_board().stone(BEIGE, "MARMOR")
    before = b.res(BEIGE)
    b.play(BEIGE, "rondel ferrum")
    assert b.res(BEIGE)[1] - before[1] == 1 and b.res(BEIGE)[3] - before[3] == 1


def test_AD_EX_05_moneta_and_empty_bank() -> None:
    b = _production_board().techs(BEIGE, "MONETA")
    before = b.res(BEIGE)
    b.play(BEIGE, "rondel aurum")
    assert b.res(BEIGE)[2] - before[2] == 5 and b.res(BEIGE)[3] - before[3] == 1
    b = _production_board().bank(0, rest_to=BROWN)
    before = b.res(BEIGE)
    b.play(BEIGE, "rondel aurum")
    assert b.res(BEIGE)[3] == before[3]
    assert b.legal_texts(BEIGE) == ["take marble", "take iron", "take gold"]
    b.play(BEIGE, "take iron")
    assert b.res(BEIGE)[1] == before[1] + 1 and b.res(BEIGE)[2] == before[2] + 4


# --------------------------------------------------------------- AD-EX-06
def test_AD_EX_06_temple_and_walls() -> None:
    b = Board(active=BEIGE)
    b.city("croton", BEIGE, "marble", temple=True).city("ancona", BEIGE, "gold", temple=True)
    b.city("syracusae", BROWN, "gold", temple=True)
    b.resources(BEIGE, marble=8, iron=0, gold=0, coins=3).walls_in_supply(BEIGE, 2)
    b.action("TEMPLUM")
    temples = b.state.bank_temples
    b.play(BEIGE, "temple neapolis")
    assert b.res(BEIGE) == (2, 0, 0, 0)  # 6 marble + 3 coins
    b.play(BEIGE, "wall croton")
    b.play(BEIGE, "wall neapolis")
    assert b.res(BEIGE) == (0, 0, 0, 0)  # totals 8 marble, 3 coins
    assert b.state.players[BEIGE].walls == 0
    assert b.state.bank_temples == temples - 1


def test_AD_EX_06_quick_intro_one_temple_two_walls_is_8_marble() -> None:
    b = Board(active=BEIGE).resources(BEIGE, marble=8, iron=0, gold=0, coins=0).walls_in_supply(BEIGE, 2)
    b.action("TEMPLUM")
    b.play(BEIGE, "temple neapolis")
    b.play(BEIGE, "wall neapolis")
    b.play(BEIGE, "wall roma")
    assert b.res(BEIGE) == (0, 0, 0, 0)


# --------------------------------------------------------------- AD-EX-07
def _militia_board() -> Board:
    b = Board(active=BEIGE)
    b.box(BROWN, 2, 1)
    b.city("caesarea", BROWN, "gold", temple=True)
    b.units(BEIGE, "caesarea", galleys=1)
    b.resources(BROWN, iron=4, coins=0)
    b.start(BROWN).action("MILITIA")
    return b


def test_AD_EX_07_militia_with_immediate_battle() -> None:
    b = _militia_board()
    beige_box = b.state.players[BEIGE].box[:]
    with pytest.raises(IllegalAction, match="a land region: it cannot take galleys"):
        b.play(BROWN, "deploy galley zama")
    with pytest.raises(IllegalAction, match="at most 1 new unit"):
        b.play(BROWN, "deploy 2 legions carthago")
    b.play(BROWN, "deploy legion carthago")
    step = b.play(BROWN, "deploy galley caesarea")
    assert "battle" in step.events[0].text
    assert b.res(BROWN)[1] == 0
    assert b.n(BROWN, "carthago") == (1, 0)
    assert b.n(BROWN, "caesarea") == (0, 0) and b.n(BEIGE, "caesarea") == (0, 0)
    assert b.state.players[BROWN].box == [1, 1]
    assert b.state.players[BEIGE].box == [beige_box[0], beige_box[1] + 1]
    b.resources(BROWN, iron=4)
    with pytest.raises(IllegalAction, match="start of the turn"):
        b.play(BROWN, "deploy galley carthago_nova")


def test_AD_EX_07_literal_greek_placement_no_battle() -> None:
    b = _militia_board()
    b.play(BROWN, "deploy galley carthago")
    b.play(BROWN, "deploy legion caesarea")
    assert b.n(BROWN, "caesarea") == (1, 0) and b.n(BEIGE, "caesarea") == (0, 1)


def test_AD_EX_07_caesarea_takes_up_to_three() -> None:
    b = _militia_board()
    b.play(BROWN, "deploy 2 legions caesarea")
    assert b.n(BROWN, "caesarea") == (2, 0)


# --------------------------------------------------------------- AD-EX-08
def test_AD_EX_08_scientia() -> None:
    b = Board(active=BROWN).techs(BEIGE, "NAVIGATIO").resources(BROWN, marble=0, iron=0, gold=17, coins=0)
    b.action("SCIENTIA")
    deployable = b.state.deployable[:]
    b.play(BROWN, "buy navigatio")
    assert b.res(BROWN)[2] == 14
    b.play(BROWN, "buy commercium")
    assert b.res(BROWN)[2] == 5
    b.play(BROWN, "recruit 3 legions")
    b.play(BROWN, "recruit galley")
    assert b.res(BROWN)[2] == 0
    assert b.state.deployable == deployable  # recruited units are not deployable this turn
    b.resources(BROWN, gold=3)
    with pytest.raises(IllegalAction, match="turn it was acquired"):
        b.play(BROWN, "trade gold gold gold for iron iron")
    b.play(BROWN, "end")
    p = b.state.players[BROWN]
    assert p.pers[SCHOLAR] == 1
    assert b.state.players[BEIGE].owed == 1


# --------------------------------------------------------------- AD-EX-09
def test_AD_EX_09_commercium_trade() -> None:
    b = Board(active=BROWN).techs(BROWN, "COMMERCIUM", turn=1).resources(BROWN, marble=2, iron=0, gold=4, coins=0)
    b.play(BROWN, "trade gold gold gold for iron iron")
    b.play(BROWN, "trade marble marble gold for iron iron")
    assert b.res(BROWN) == (0, 4, 0, 0)
    b.resources(BROWN, gold=3)
    with pytest.raises((IllegalAction, InvalidNotation)):
        b.play(BROWN, "trade gold gold gold for coin coin")
    b2 = Board(active=BROWN).resources(BROWN, gold=4, marble=2)
    b2.techs(BROWN, "COMMERCIUM", turn=b2.state.turn)
    with pytest.raises(IllegalAction, match="turn it was acquired"):
        b2.play(BROWN, "trade gold gold gold for iron iron")


# --------------------------------------------------------------- AD-EX-10
def _dests(b: Board, t: int, rng: int) -> set[str]:
    return {b.state.map.ids[p[-1]] for p in routes(b.state, BROWN, t, b.r("roma"), rng) if p[-1] != b.r("roma")}


def test_AD_EX_10_reachable_sets_side_a() -> None:
    b = Board(active=BROWN)
    assert _dests(b, 0, 1) == {"ancona", "genua", "neapolis"}
    assert _dests(b, 0, 2) == {
        "alpes",
        "ancona",
        "aquileia",
        "brundisium",
        "cremona",
        "croton",
        "genua",
        "massilia",
        "neapolis",
        "syracusae",
    }
    assert _dests(b, 1, 1) == {"corsica", "genua", "mare_tyrrhenum", "neapolis"}
    assert _dests(b, 1, 2) == {
        "agrigentum",
        "carales",
        "corsica",
        "genua",
        "mare_africum",
        "mare_ligusticum",
        "mare_tyrrhenum",
        "massilia",
        "neapolis",
        "syracusae",
    }


def test_AD_EX_10_movement_and_battle_at_sea() -> None:
    b = Board(active=BROWN).techs(BROWN, "STRATA")
    b.units(BROWN, "roma", legions=1, galleys=1).units(BEIGE, "corsica", galleys=1)
    b.action("DUELLUM")
    texts = b.legal_texts(BROWN)
    legion_dests = {t.split("-")[-1] for t in texts if t.startswith("move legion roma-")}
    assert legion_dests == {
        "alpes",
        "ancona",
        "aquileia",
        "brundisium",
        "cremona",
        "croton",
        "genua",
        "massilia",
        "neapolis",
        "syracusae",
    }
    galley_dests = {t.split("-")[-1] for t in texts if t.startswith("move galley roma-")}
    assert galley_dests == {"corsica", "genua", "mare_tyrrhenum", "neapolis"}
    boxes = [b.state.players[s].box[1] for s in (0, 1)]
    b.play(BROWN, "move galley roma-corsica")
    assert b.n(BROWN, "corsica") == (0, 0) and b.n(BEIGE, "corsica") == (0, 0)
    assert [b.state.players[s].box[1] for s in (0, 1)] == [boxes[0] + 1, boxes[1] + 1]
    with pytest.raises(IllegalAction, match=r"already moved|unmoved galley"):
        b.play(BROWN, "move galley roma-corsica")


# --------------------------------------------------------------- AD-EX-11
def _tarraco(galleys: int) -> Board:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold")
    b.units(BEIGE, "tarraco", galleys=galleys).units(BROWN, "tarraco", legions=2)
    b.conquest_step()
    return b


def test_AD_EX_11_conquest_of_tarraco() -> None:
    b = _tarraco(1)
    assert b.defence("tarraco") == 2
    boxes = [b.state.players[s].box[:] for s in (0, 1)]
    b.play(BROWN, "conquer tarraco")
    assert b.state.players[BROWN].box == [boxes[0][0] + 2, boxes[0][1]]
    assert b.state.players[BEIGE].box == [boxes[1][0], boxes[1][1] + 1]
    assert b.owner("tarraco") == BROWN and b.state.cres[b.r("tarraco")] == 2
    row = b.state.row[:]
    b.play(BROWN, "done")  # ends the conquests; founding has nothing to do, so the turn ends
    assert b.state.players[BEIGE].owed == 1
    assert b.state.active == BEIGE and b.game.to_move(b.state) == frozenset({BEIGE})
    assert b.legal_texts(BEIGE) == [f"take {c.lower()}" for c in dict.fromkeys(row)]
    b.play(BEIGE, f"take {row[0].lower()}")
    assert len(b.state.row) == 3 and row[0] in b.state.players[BEIGE].hand


def test_AD_EX_11_two_galleys_defend() -> None:
    b = _tarraco(2)
    with pytest.raises(IllegalAction, match="defence 3"):
        b.play(BROWN, "conquer tarraco")
    assert b.owner("tarraco") == BEIGE


# ----------------------------------------------------------- AD-EX-12/13
def _greeks(res_publica: bool = False) -> Board:
    b = Board("greece-persia", active=BROWN)
    b.techs(BROWN, "NAVIGATIO")
    if res_publica:
        b.techs(BEIGE, "RES_PUBLICA")
    b.city("ainos", BEIGE, "iron", temple=True, wall=True).city("abydos", BEIGE, "marble")
    b.units(BEIGE, "lemnos", galleys=1)
    b.units(BROWN, "abdera", legions=2).units(BROWN, "lesbos", galleys=1)
    b.units(BROWN, "aigaion", galleys=2).units(BROWN, "pergamon", legions=2)
    for r in ("delphi", "larisa", "olympia"):
        b.city(r, BROWN, "gold")
    b.personalities(BROWN, king=1, scholar=1)
    b.action("DUELLUM")
    return b


def test_AD_EX_12_greeks_take_ainos_and_abydos() -> None:
    b = _greeks()
    s = b.state
    greek_box = s.players[BROWN].box[:]
    persian_box = s.players[BEIGE].box[:]
    walls = s.players[BEIGE].walls
    temples = s.bank_temples
    galley_routes = [t for t in b.legal_texts(BROWN) if t.startswith("move galley aigaion-") and t.endswith("ainos")]
    assert galley_routes == ["move galley aigaion-lemnos-ainos"]
    b.play(BROWN, "move 2 legions abdera-ainos")
    b.play(BROWN, "move galley lesbos-ainos")
    b.play(BROWN, "move 2 galleys aigaion-lemnos-ainos")
    assert b.n(BEIGE, "lemnos") == (0, 0) and b.n(BROWN, "ainos") == (2, 2)
    b.play(BROWN, "move 2 legions pergamon-abydos")
    b.play(BROWN, "done")
    assert b.defence("ainos") == 4 and b.defence("abydos") == 1
    b.play(BROWN, "conquer ainos")
    b.play(BROWN, "conquer abydos")
    s = b.state
    assert b.owner("ainos") == BROWN and b.owner("abydos") == BROWN
    assert b.n(BROWN, "ainos") == (0, 0) and b.n(BROWN, "abydos") == (1, 0)
    assert s.bank_temples == temples + 1 and not s.temple[b.r("ainos")]
    assert s.players[BEIGE].walls == walls + 1 and not s.wall[b.r("ainos")]
    assert s.players[BROWN].box == [greek_box[0] + 3, greek_box[1] + 3]
    assert s.players[BEIGE].box == [persian_box[0], persian_box[1] + 1]
    walls_before = b.state.players[BROWN].walls
    step = b.play(BROWN, "done")  # ends the conquests; nothing to found, so the turn ends
    texts = [e.text for e in step.events]
    assert "The Persians take 1 event card from the row (lost a city)." in texts  # two cities, one card
    assert "The Persians take 1 event card from the row (the Greeks gained personalities)." in texts
    p = b.state.players[BROWN]
    assert p.pers[GENERAL] == 1 and p.pers[KING] == 1 and p.vp == 3
    assert p.walls == walls_before + 1
    assert b.state.players[BEIGE].owed == 2
    assert sum(1 for o in b.state.owner if o == BROWN) == 8
    for _ in range(2):  # the row is refilled after each pick
        b.play(BEIGE, f"take {b.state.row[0].lower()}")
        assert len(b.state.row) == 3
    assert len(b.state.players[BEIGE].hand) == 2


def test_AD_EX_13_res_publica_saves_ainos() -> None:
    b = _greeks(res_publica=True)
    b.play(BROWN, "move 2 legions abdera-ainos")
    b.play(BROWN, "move galley lesbos-ainos")
    b.play(BROWN, "move 2 galleys aigaion-lemnos-ainos")
    b.play(BROWN, "move 2 legions pergamon-abydos")
    b.play(BROWN, "done")
    assert b.defence("ainos") == 5
    with pytest.raises(IllegalAction, match="defence 5"):
        b.play(BROWN, "conquer ainos")
    assert b.defence("abydos") == 2
    b.play(BROWN, "conquer abydos")
    assert b.n(BROWN, "abydos") == (0, 0) and b.owner("abydos") == BROWN
    b.play(BROWN, "done")
    assert b.state.players[BROWN].pers[GENERAL] == 0
    assert b.state.players[BEIGE].owed == 1  # the city loss only


# --------------------------------------------------------------- AD-EX-14
def _fortress_board(attackers: int) -> Board:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold")
    b.units(BEIGE, "tarraco", galleys=1).units(BROWN, "tarraco", legions=attackers)
    b.hand(BEIGE, "FORTRESS")
    b.conquest_step()
    return b


def test_AD_EX_14_fortress_case_a_city_safe() -> None:
    b = _fortress_board(2)
    b.play(BROWN, "conquer tarraco")
    assert b.game.to_move(b.state) == frozenset({BEIGE})
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BEIGE
    assert b.n(BROWN, "tarraco") == (2, 0) and b.n(BEIGE, "tarraco") == (0, 1)
    b.play(BROWN, "done")
    assert b.state.players[BEIGE].owed == 0


def test_AD_EX_14_fortress_case_b_conquest_costs_three() -> None:
    b = _fortress_board(3)
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco")
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BROWN
    assert b.state.players[BROWN].box[0] == box + 3 and b.n(BROWN, "tarraco") == (0, 0)


# --------------------------------------------------------------- AD-EX-15
def test_AD_EX_15_saved_city_stays_safe_this_turn() -> None:
    b = _fortress_board(2)
    b.play(BROWN, "conquer tarraco")
    b.play(BEIGE, "play fortress")
    assert "FORTRESS" in b.state.discard
    with pytest.raises(IllegalAction):
        b.play(BROWN, "conquer tarraco")
    assert "saved by a Fortress" in b.game.illegal_reason(b.state, BROWN, Conquer(b.r("tarraco")))
    b.play(BROWN, "done")
    assert b.state.players[BEIGE].owed == 0
    # Next DUELLUM turn of brown: declared again, conquered with 2 losses.
    b.start(BROWN).conquest_step()
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 2


# --------------------------------------------------------------- AD-EX-16
def _veterans(temple: bool, units: int, fortress: bool) -> Board:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold", temple=temple, wall=temple)
    b.units(BROWN, "tarraco", legions=units).hand(BROWN, "VETERANS")
    if fortress:
        b.hand(BEIGE, "FORTRESS")
    b.conquest_step()
    return b


def test_AD_EX_16_case_a_floor_at_one() -> None:
    b = _veterans(False, 1, False)
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco with veterans")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 1


def test_AD_EX_16_case_b_veterans_and_fortress_sum_first() -> None:
    b = _veterans(False, 1, True)
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco with veterans")
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 1


def test_AD_EX_16_case_c_veterans_enable_conquest() -> None:
    b = _veterans(True, 3, False)
    with pytest.raises(IllegalAction, match="defence 4"):
        b.play(BROWN, "conquer tarraco")
    temples, walls = b.state.bank_temples, b.state.players[BEIGE].walls
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco veterans")
    s = b.state
    assert b.owner("tarraco") == BROWN and s.players[BROWN].box[0] == box + 3
    assert s.bank_temples == temples + 1 and s.players[BEIGE].walls == walls + 1
    b.play(BROWN, "end")
    assert b.state.players[BROWN].pers[GENERAL] == 1


# --------------------------------------------------------------- AD-EX-17
def _navigator_board(island: str) -> Board:
    b = Board(active=BEIGE)
    for r in ("corsica", "mare_tyrrhenum", "mare_africum", island):
        b.units(BEIGE, r, galleys=1)
    b.units(BEIGE, "roma", galleys=2)
    b.personalities(BEIGE, king=2, scholar=2)
    return b


def test_AD_EX_17_navigator_side_a() -> None:
    b = _navigator_board("carales")
    assert sea_points(b.state, BEIGE) == 7
    walls = b.state.players[BEIGE].walls
    _end_turn(b, BEIGE)
    p = b.state.players[BEIGE]
    assert p.pers[NAVIGATOR] == 1 and p.vp == 5 and p.walls == walls + 1
    assert b.state.players[BROWN].owed == 1
    # Losing the Corsica galley (5 points) and regaining 7: no second Navigator.
    b.state.players[BROWN].owed = 0
    b.start(BEIGE).units(BEIGE, "corsica", galleys=0)
    assert sea_points(b.state, BEIGE) == 5
    _end_turn(b, BEIGE)
    b.start(BEIGE).units(BEIGE, "corsica", galleys=1)
    _end_turn(b, BEIGE)
    assert b.state.players[BEIGE].pers[NAVIGATOR] == 1


def test_AD_EX_17_coastal_galley_does_not_count() -> None:
    b = _navigator_board("neapolis")
    assert sea_points(b.state, BEIGE) == 6
    walls = b.state.players[BEIGE].walls
    _end_turn(b, BEIGE)
    assert b.state.players[BEIGE].pers[NAVIGATOR] == 0 and b.state.players[BEIGE].walls == walls
    assert b.state.players[BROWN].owed == 0


# --------------------------------------------------------------- AD-EX-18
def _variant(legions: int, admiral: bool) -> Board:
    b = Board(active=BROWN, special_units=True).city("tarraco", BEIGE, "gold", temple=True)
    b.units(BEIGE, "tarraco", legions=1).units(BROWN, "tarraco", legions=legions)
    b.special(BROWN, "tarraco")
    if admiral:
        b.special(BEIGE, "tarraco")
    b.conquest_step()
    return b


def test_AD_EX_18_special_units_in_conquest() -> None:
    b = _variant(2, False)
    assert b.defence("tarraco") == 3
    with pytest.raises(IllegalAction, match="defence 3"):
        b.play(BROWN, "conquer tarraco")
    b = _variant(3, False)
    box = b.state.players[BROWN].box[0]
    beige_box = b.state.players[BEIGE].box[0]
    temples = b.state.bank_temples
    b.play(BROWN, "conquer tarraco")
    s = b.state
    assert b.owner("tarraco") == BROWN
    assert s.players[BROWN].box[0] == box + 3 and s.players[BEIGE].box[0] == beige_box + 1
    assert s.bank_temples == temples + 1
    assert s.players[BROWN].special == b.r("tarraco")
    b.play(BROWN, "end")
    assert b.state.players[BROWN].pers[GENERAL] == 1


def test_AD_EX_18_admiral_defends_and_lone_special_cannot_conquer() -> None:
    b = _variant(3, True)
    assert b.defence("tarraco") == 4
    with pytest.raises(IllegalAction, match="defence 4"):
        b.play(BROWN, "conquer tarraco")
    b = Board(active=BROWN, special_units=True).city("tarraco", BEIGE, "gold").special(BROWN, "tarraco")
    b.conquest_step()
    assert b.defence("tarraco") == 1
    assert not [t for t in b.legal_texts(BROWN) if t.startswith("conquer")]


def test_AD_EX_12_route_must_name_the_battle_region() -> None:
    b = _greeks()
    with pytest.raises(IllegalAction, match="Aigaion Pelagos-Lemnos-Ainos"):
        b.play(BROWN, "move 2 galleys aigaion-ainos")
