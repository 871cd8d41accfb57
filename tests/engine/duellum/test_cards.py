"""Event cards: the data file's test cases AD-EC-01 .. AD-EC-14 and every stand-in card's effect."""

from __future__ import annotations

import pytest

from engine.core.errors import IllegalAction
from engine.duellum.actions import Pass, PlayCard
from engine.duellum.data import CARDS, GENERAL
from engine.duellum.state import PHASE_FORTRESS

from .builders import Board

BROWN, BEIGE = 0, 1


def _siege(attackers: int, defenders: int = 1, *cards: str, fortress: bool = True, **opts: object) -> Board:
    b = Board(active=BROWN, **opts).city("tarraco", BEIGE, "gold")
    if defenders:
        b.units(BEIGE, "tarraco", galleys=defenders)
    b.units(BROWN, "tarraco", legions=attackers)
    if fortress:
        b.hand(BEIGE, "FORTRESS")
    if cards:
        b.hand(BROWN, *cards)
    b.conquest_step()
    return b


def test_AD_EC_01_fortress_exact_defence_city_safe() -> None:
    b = _siege(2)
    step = b.play(BROWN, "conquer tarraco")
    assert b.state.phase == PHASE_FORTRESS and step.undoable is False
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BEIGE and b.n(BROWN, "tarraco") == (2, 0) and b.n(BEIGE, "tarraco") == (0, 1)
    b.play(BROWN, "done")
    assert b.state.players[BEIGE].owed == 0


def test_AD_EC_02_fortress_attacker_loses_new_defence() -> None:
    b = _siege(3)
    b.play(BROWN, "conquer tarraco")
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BROWN and b.n(BROWN, "tarraco") == (0, 0)


def test_AD_EC_03_veterans_and_fortress_cancel() -> None:
    b = _siege(2, 1, "VETERANS")
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco with veterans")
    b.play(BEIGE, "play fortress")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 2


def test_AD_EC_04_burglary() -> None:
    b = Board(active=BROWN).hand(BROWN, "BURGLARY").resources(BEIGE, coins=5)
    bank = b.state.bank_coins
    b.play(BROWN, "play burglary")
    assert b.res(BEIGE)[3] == 3 and b.state.bank_coins == bank + 2
    b = Board(active=BROWN).hand(BROWN, "BURGLARY").resources(BEIGE, coins=2)
    b.play(BROWN, "play burglary")
    assert b.res(BEIGE)[3] == 1


def test_AD_EC_05_academy() -> None:
    b = Board(active=BROWN).hand(BROWN, "ACADEMY").techs(BEIGE, "STRATA", "MONETA", "COMMERCIUM")
    b.resources(BROWN, gold=0).action("AURUM")
    with pytest.raises(IllegalAction, match="only during your SCIENTIA action"):
        b.play(BROWN, "play academy")


def test_AD_EC_05_academy_during_scientia() -> None:
    b = Board(active=BROWN).hand(BROWN, "ACADEMY").techs(BEIGE, "STRATA", "MONETA", "COMMERCIUM")
    b.resources(BROWN, gold=0).action("SCIENTIA")
    b.play(BROWN, "play academy")
    assert b.res(BROWN)[2] == 3


def test_AD_EC_06_oracle() -> None:
    b = Board(active=BROWN).hand(BROWN, "ORACLE").stone(BROWN, "FERRUM").resources(BROWN, marble=5)
    b.play(BROWN, "play oracle")
    b.play(BROWN, "rondel marmor pay marble")
    assert b.res(BROWN)[0] == 5 - 1 + 1
    b = Board(active="Carthaginians").hand("Carthaginians", "Oracle").stone("Carthaginians", "first")
    with pytest.raises(IllegalAction, match="not on your first turn"):
        b.play(BROWN, "play oracle")


def test_oracle_twice() -> None:
    b = Board(active=BROWN).hand(BROWN, "ORACLE", "ORACLE").stone(BROWN, "FERRUM").resources(BROWN, marble=5)
    b.play(BROWN, "play oracle")
    b.play(BROWN, "play oracle")
    assert "rondel marmor" in b.legal_texts(BROWN)  # 5 steps, 5 free


def test_AD_EC_07_mercenaries_not_deployable_this_turn() -> None:
    b = Board(active=BROWN).hand(BROWN, "MERCENARIES").box(BROWN, 0, 0).resources(BROWN, iron=6)
    b.start(BROWN).stone(BROWN, "FERRUM")
    b.play(BROWN, "play mercenaries")
    assert b.state.players[BROWN].box == [1, 0]
    b.play(BROWN, "rondel militia pay iron")
    assert b.state.active == BEIGE  # nothing deployable: the turn ended by itself
    assert b.state.players[BROWN].box == [1, 0]


def test_AD_EC_08_earthquake() -> None:
    b = Board(active=BROWN).hand(BROWN, "EARTHQUAKE").city("tarraco", BEIGE, "gold", wall=True)
    assert b.defence("tarraco") == 2
    walls = b.state.players[BEIGE].walls
    b.play(BROWN, "play earthquake tarraco")
    assert b.defence("tarraco") == 1 and b.state.players[BEIGE].walls == walls + 1


def test_AD_EC_09_deck_recycling_on_pick() -> None:
    b = Board(active=BROWN)
    s = b.state
    s.discard, s.draw = s.draw, []
    s.players[BROWN].owed = 1
    b.start(BROWN)
    step = b.play(BROWN, f"take {b.state.row[1].lower()}")
    assert any("shuffled into a new draw pile" in e.text for e in step.events)
    assert len(b.state.row) == 3 and not b.state.discard


def test_AD_EC_10_fortress_then_redeclaration_rejected() -> None:
    b = _siege(2)
    b.play(BROWN, "conquer tarraco")
    b.play(BEIGE, "play fortress")
    with pytest.raises(IllegalAction, match="saved by a Fortress"):
        b.play(BROWN, "conquer tarraco")


def test_AD_EC_11_veterans_legality() -> None:
    b = Board(active=BROWN).city("tarraco", BEIGE, "gold", temple=True, wall=True)
    b.units(BROWN, "tarraco", legions=3).hand(BROWN, "VETERANS").conquest_step()
    with pytest.raises(IllegalAction, match="defence 4"):
        b.play(BROWN, "conquer tarraco")
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco with veterans")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 3


def test_AD_EC_12_veterans_on_bare_city() -> None:
    b = _siege(1, 0, "VETERANS", fortress=True)
    box = b.state.players[BROWN].box[0]
    b.play(BROWN, "conquer tarraco with veterans")
    b.play(BEIGE, "pass")
    assert b.owner("tarraco") == BROWN and b.state.players[BROWN].box[0] == box + 1


def test_AD_EC_13_forced_march_twice_on_one_legion() -> None:
    b = Board(active=BROWN).techs(BROWN, "STRATA").hand(BROWN, "FORCED_MARCH", "FORCED_MARCH")
    b.units(BROWN, "numantia", legions=2).action("DUELLUM")
    b.play(BROWN, "play forced_march numantia")
    b.play(BROWN, "play forced_march numantia again")
    assert b.state.boosts == [(0, b.r("numantia"), 2)]
    texts = b.legal_texts(BROWN)
    # Numantia -> Tarraco -> Tolosa -> Lugdunum -> Alpes: 4 borders (no shorter legion route).
    assert "move legion numantia-alpes" in texts and "move 2 legions numantia-alpes" not in texts
    assert "move 2 legions numantia-tolosa" in texts  # 2 borders: both legions
    b.play(BROWN, "move legion numantia-alpes")
    assert b.n(BROWN, "alpes") == (1, 0)
    assert "move legion numantia-alpes" not in b.legal_texts(BROWN)  # the other keeps range 2
    assert "move legion numantia-tolosa" in b.legal_texts(BROWN)


def test_AD_EC_14_playability() -> None:
    b = Board(active=BROWN).hand(BROWN, "BURGLARY", "EARTHQUAKE", "ACADEMY", "PILLAGE").resources(BEIGE, coins=1)
    with pytest.raises(IllegalAction, match="at least 2 coins"):
        b.play(BROWN, "play burglary")
    with pytest.raises(IllegalAction, match="needs a town wall on the map"):
        b.do(BROWN, PlayCard("EARTHQUAKE", b.r("roma")))
    b.action("SCIENTIA")
    with pytest.raises(IllegalAction, match="at least one technology"):
        b.play(BROWN, "play academy")
    b.conquest_step()
    with pytest.raises(IllegalAction, match="only in your DUELLUM conquest step after a successful conquest"):
        b.play(BROWN, "play pillage")
    assert sorted(b.state.players[BROWN].hand) == ["ACADEMY", "BURGLARY", "EARTHQUAKE", "PILLAGE"]


# ---------------------------------------------------------- other cards
def test_rich_harvest() -> None:
    b = Board(active=BROWN).hand(BROWN, "RICH_HARVEST").stone(BROWN, "FERRUM")
    gold = b.res(BROWN)[2]
    b.play(BROWN, "rondel aurum")
    assert b.state.phase == "action"  # the card keeps the action open
    b.play(BROWN, "play rich_harvest")
    assert b.res(BROWN)[2] == gold + 1 + 2


def test_merchant_caravan_and_treasury() -> None:
    b = Board(active=BROWN).hand(BROWN, "MERCHANT_CARAVAN", "TREASURY")
    before = b.res(BROWN)
    b.play(BROWN, "play merchant caravan marble gold")
    b.play(BROWN, "play treasury")
    assert b.res(BROWN) == (before[0] + 1, before[1], before[2] + 1, before[3] + 2)


def test_treasury_with_a_short_bank() -> None:
    b = Board(active="Carthaginians").hand("Carthaginians", "Treasury").bank(1, rest_to="Romans")
    before = b.res(BROWN)
    assert "play treasury iron" in b.legal_texts(BROWN) and "play treasury" not in b.legal_texts(BROWN)
    b.play(BROWN, "play treasury iron")
    assert b.res(BROWN) == (before[0], before[1] + 1, before[2], before[3] + 1)


def test_shipwrights_and_mercenaries_need_supply() -> None:
    b = Board(active=BROWN).hand(BROWN, "SHIPWRIGHTS")
    b.play(BROWN, "play shipwrights")
    assert b.state.players[BROWN].box == [1, 2]
    b = Board(active=BROWN).hand(BROWN, "MERCENARIES")
    p = b.state.players[BROWN]
    p.box[0] += p.supply[0]
    p.supply[0] = 0
    with pytest.raises(IllegalAction, match="no legion"):
        b.play(BROWN, "play mercenaries")


def test_levy_makes_one_unit_free() -> None:
    b = Board(active=BROWN).hand(BROWN, "LEVY").resources(BROWN, iron=2, coins=0).action("MILITIA")
    b.play(BROWN, "play levy")
    b.play(BROWN, "deploy legion zama")
    b.play(BROWN, "deploy galley carthago")
    assert b.res(BROWN)[1] == 0


def test_master_builder_and_stonemasons() -> None:
    b = Board(active=BEIGE).hand(BEIGE, "MASTER_BUILDER", "STONEMASONS").resources(BEIGE, marble=3, coins=0)
    b.action("TEMPLUM")
    with pytest.raises(IllegalAction, match="costs 6 marble"):
        b.play(BEIGE, "temple roma")
    b.play(BEIGE, "play master builder")
    b.play(BEIGE, "temple roma")
    assert b.res(BEIGE)[0] == 0
    b.play(BEIGE, "play stonemasons")
    b.play(BEIGE, "wall roma")
    assert b.state.wall[b.r("roma")] and b.res(BEIGE)[0] == 0


def test_colonists() -> None:
    b = Board(active=BROWN).hand(BROWN, "COLONISTS").units(BROWN, "numantia", legions=1)
    b.resources(BROWN, marble=0, iron=1, gold=1, coins=0).founding_step()
    with pytest.raises(IllegalAction, match="costs"):
        b.play(BROWN, "found numantia gold")
    b.play(BROWN, "play colonists marble")
    b.play(BROWN, "found numantia gold")
    assert b.owner("numantia") == BROWN and b.res(BROWN) == (0, 0, 0, 0)


def test_library() -> None:
    b = Board(active=BROWN).hand(BROWN, "LIBRARY").resources(BROWN, gold=6, coins=0).action("SCIENTIA")
    b.play(BROWN, "play library")
    b.play(BROWN, "buy strata")
    assert b.res(BROWN)[2] == 0 and b.state.scholars == 1


def test_pillage() -> None:
    b = Board(active=BROWN).hand(BROWN, "PILLAGE").city("tarraco", BEIGE, "iron").units(BROWN, "tarraco", legions=2)
    b.conquest_step()
    b.play(BROWN, "conquer tarraco")
    iron = b.res(BROWN)[1]
    b.play(BROWN, "play pillage tarraco")
    assert b.res(BROWN)[1] == iron + 2


def test_fair_winds() -> None:
    b = Board(active=BROWN).hand(BROWN, "FAIR_WINDS").units(BROWN, "carthago", galleys=1).action("DUELLUM")
    assert "move galley carthago-mare_balearicum" not in b.legal_texts(BROWN)
    b.play(BROWN, "play fair winds carthago")
    b.play(BROWN, "move galley carthago-mare_balearicum")
    assert b.n(BROWN, "mare_balearicum") == (0, 1)


# ------------------------------------------------------- Fortress policies
def test_fortress_auto_first_conquest_policy() -> None:
    b = Board(active=BROWN, fortress_policy="AUTO_FIRST_CONQUEST").city("tarraco", BEIGE, "gold")
    b.city("saguntum", BEIGE, "gold").units(BROWN, "tarraco", legions=1).units(BROWN, "saguntum", legions=1)
    b.hand(BEIGE, "FORTRESS", "FORTRESS").conquest_step()
    b.play(BROWN, "conquer tarraco")
    assert b.owner("tarraco") == BEIGE and b.state.phase == "conquer"
    b.play(BROWN, "conquer saguntum")  # not the first conquest: no automatic Fortress
    assert b.owner("saguntum") == BROWN and b.state.players[BEIGE].hand == ["FORTRESS"]


def test_fortress_never_policy() -> None:
    b = _siege(2, fortress_policy="NEVER")
    b.play(BROWN, "conquer tarraco")
    assert b.owner("tarraco") == BROWN


def test_fortress_timeout_means_no_fortress() -> None:
    b = _siege(2)
    b.play(BROWN, "conquer tarraco")
    assert b.game.on_timeout(b.state, BEIGE) == Pass()
    assert b.game.status(b.state).startswith("Turn 5: the Romans decide whether to play a Fortress")


def test_card_data_covers_the_deck() -> None:
    assert sum(c.copies for c in CARDS.values()) == 25
    assert CARDS["FORTRESS"].timing == "REACTION_CONQUEST"


def test_pillage_general_unchanged() -> None:
    b = Board(active=BROWN).hand(BROWN, "PILLAGE").city("tarraco", BEIGE, "gold", temple=True)
    b.units(BROWN, "tarraco", legions=3).conquest_step()
    b.play(BROWN, "conquer tarraco")
    b.play(BROWN, "play pillage tarraco")
    b.play(BROWN, "end")
    assert b.state.players[BROWN].pers[GENERAL] == 1


def test_a_single_deployed_unit_is_told_with_its_article() -> None:
    b = Board(active=BROWN).hand(BROWN, "LEVY").resources(BROWN, iron=2, coins=0).action("MILITIA")
    b.play(BROWN, "play levy")
    texts = [e.text for e in b.play(BROWN, "deploy legion zama").events]
    assert any(" deploy a legion to Zama for " in t for t in texts), texts
    texts = [e.text for e in b.play(BROWN, "deploy galley carthago").events]
    assert any(" deploy a galley to Carthago for " in t for t in texts), texts
