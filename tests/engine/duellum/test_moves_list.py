"""The move list: cheapest form of each destination first, free ones first, payment variants
after every plain move; what plain moves cost; the status lines and the technology prices."""

from __future__ import annotations

from engine.duellum.actions import RondelMove
from engine.duellum.data import RULES

from .builders import GAME, Board

CARTHAGINIANS, ROMANS = 0, 1


def test_rondel_lists_free_destinations_first_one_form_each() -> None:
    b = Board(active=CARTHAGINIANS).stone(CARTHAGINIANS, "FERRUM")
    b.resources(CARTHAGINIANS, marble=3, iron=3, gold=3, coins=5)
    s = b.state
    acts = [a for a in GAME.legal_actions(s, CARTHAGINIANS) if isinstance(a, RondelMove)]
    plain = [a for a in acts if not GAME.action_variant(s, CARTHAGINIANS, a)]
    # One plain form per destination (7: all but staying), in order of cost, free ones first.
    assert [RULES.rondel[a.space] for a in plain] == [
        "TEMPLUM", "AURUM", "DUELLUM", "MILITIA", "MARMOR", "SCIENTIA", "DUELLUM", "FERRUM",
    ][: len(plain)]
    assert len(plain) == 8 and [sum(a.pay) for a in plain] == [0, 0, 0, 1, 2, 3, 4, 5]
    texts = [GAME.notation(s, CARTHAGINIANS, a) for a in GAME.legal_actions(s, CARTHAGINIANS)]
    assert texts[:4] == ["rondel templum", "rondel aurum", "rondel duellum-a", "rondel militia pay marble"]
    # Every other payment is a variant, listed after all plain moves; `moves all` stays complete.
    assert len(acts) > 40 and all(GAME.action_variant(s, CARTHAGINIANS, a) for a in acts[8:])


def test_first_placement_lists_all_eight_spaces_free() -> None:
    b = Board(active=CARTHAGINIANS).stone(CARTHAGINIANS, "first")
    acts = GAME.legal_actions(b.state, CARTHAGINIANS)
    rondel = [a for a in acts if isinstance(a, RondelMove)]
    assert len(rondel) == 8 and not any(a.pay != (0, 0, 0, 0) for a in rondel)


def test_plain_moves_say_their_cost_and_free_ones_say_nothing() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=0, iron=1, gold=1, coins=9).action("SCIENTIA")
    s = b.state
    costs = {GAME.notation(s, ROMANS, a): GAME.action_cost(s, ROMANS, a) for a in GAME.legal_actions(s, ROMANS)}
    assert costs["buy Navigatio"] == "1 gold and 5 coins"
    assert costs["recruit legion"] == "1 gold" and costs["done"] == ""
    assert costs["buy Navigatio pay 6 coins"] == ""  # the notation says it


def test_status_lines_show_every_nations_resources_and_tech_prices() -> None:
    b = Board(active=ROMANS).resources(ROMANS, marble=2, iron=1, gold=0, coins=1).techs(CARTHAGINIANS, "Navigatio")
    lines = GAME.status_lines(b.state, ROMANS)
    assert any(line.startswith("Romans: 2 marble, 1 iron, 0 gold and 1 coin;") for line in lines)
    assert any(line.startswith("Carthaginians:") and "Navigatio" in line for line in lines)
    assert "Technologies for you now: Strata 8 gold, Navigatio 3 gold," in lines[-1]
    table = GAME.status_lines(b.state, None)
    assert any("Technologies for the Carthaginians now: Strata 8 gold, Moneta 7 gold" in line for line in table)


def test_help_lists_technology_prices() -> None:
    text = GAME.help_text()
    assert "Navigatio: 6 gold first, 3 gold after." in text and "Commercium: 9 gold first" in text


def test_view_lists_technologies_with_their_prices_now() -> None:
    b = Board(active=ROMANS).techs(CARTHAGINIANS, "Navigatio")
    techs = {t["name"]: t for t in GAME.view(b.state, None)["technologies"]}
    assert techs["Navigatio"]["price_now"] == [6, 3] and techs["Navigatio"]["owners"] == [CARTHAGINIANS]
    assert techs["Strata"]["price_now"] == [8, 8] and techs["Strata"]["first"] == 8 and techs["Strata"]["second"] == 4
