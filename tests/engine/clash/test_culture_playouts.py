"""Influence, wonders and trading inside random complete games: the playouts reach them, the
invariants hold (caps, no negative stocks), replays are byte-identical, and the action contract
holds while their choices are open."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.clash.builder import GAME, Position
from engine.core.rng import Rng
from engine.core.testing import check_action_contract, random_playout
from tests.engine.clash.test_playouts import conserving, invariants


def test_random_games_reach_influence_and_trading() -> None:
    verbs: Counter[str] = Counter()
    for players, seed in ((2, 31), (3, 32), (4, 33)):
        result = random_playout(GAME, seed, players, invariants=conserving(), check_notation=1, check_dump_every=13)
        assert result.over
        verbs.update(text.split(" ")[0] for _, text in result.log)
    for verb in ("influence", "trade", "give", "offer"):
        assert verbs[verb] > 0, verb
    assert verbs["accept"] + verbs["decline"] > 0


def test_a_wonderful_end_game_plays_out() -> None:
    result = random_playout(GAME, 41, 3, {"wonderful_end": True}, invariants=invariants, check_dump_every=17)
    assert result.over


def test_automatic_games_build_wonders() -> None:
    built = 0
    # With the card decks in play (events, card costs, objectives paid in resources) fewer
    # automatic games reach a wonder: eight games are played instead of three.
    for seed in range(8):
        s = GAME.new_game(200 + seed, 3, {"wonderful_end": True})
        steps = 0
        while GAME.outcome(s) is None:
            seat = next(iter(GAME.to_move(s)))
            s = GAME.apply(s, seat, GAME.auto_action(s, seat, steps)).state
            steps += 1
        built += sum(1 for c in s.cities if c.wonder)
    assert built >= 1


def _open_choices() -> list[Position]:
    from tests.engine.clash.test_influence import dice

    out = []
    pos = Position(2).clear_units().reveal_all()
    pos.city(0, "d2", pieces=("temple", "academy"), name="Athens")
    pos.city(0, "c2")
    pos.city(0, "e2")
    pos.city(1, "c4", pieces=("temple", "port"), port="d3", name="Thebes")
    pos.advances(0, "arts", "storage").tokens(0, culture_level=5, culture=4).give(0, food=3, wood=2)
    pos.tokens(1, culture_level=3, happiness_level=2).turn(0)
    out.append(pos)
    boost = Position(2)
    boost.state = pos.state.clone()
    dice(boost.state, 2)
    boost.play(0, "influence athens thebes temple")
    assert boost.state.pending["kind"] == "boost"
    out.append(boost)
    offer = Position(2)
    offer.state = pos.state.clone()
    offer.play(0, "trade blue")
    offer.play(0, "give 1 wood")
    out.append(offer)
    answer = Position(2)
    answer.state = offer.state.clone()
    answer.play(0, "get 1 food")
    answer.play(0, "offer")
    out.append(answer)
    from tests.engine.clash.test_wonders import _pos as wonder_pos

    pyramids = wonder_pos("pyramids")
    pyramids.city(1, "c4", pieces=("temple",), name="Tyre")
    pyramids.play(0, "wonder athens pyramids")
    assert pyramids.state.pending["kind"] == "pyramids"
    out.append(pyramids)
    lighthouse = wonder_pos("lighthouse").advances(0, "fishing")
    lighthouse.play(0, "wonder athens lighthouse")
    assert lighthouse.state.pending["kind"] == "lighthouse"
    out.append(lighthouse)
    return out


@pytest.mark.parametrize("index", range(6))
def test_action_contract_while_choices_are_open(index: int) -> None:
    pos = _open_choices()[index]
    seat = next(iter(GAME.to_move(pos.state)))
    assert check_action_contract(GAME, pos.state, seat, Rng.from_seed(index), samples=6) > 0
