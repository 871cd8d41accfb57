"""The "agreed draw" table option (spec V3, AD-31): off by default; when on, a seat proposes on
its own decision, every other seat votes at once, one refusal resumes play exactly where it
stopped, unanimous acceptance ends the game tied; timeouts and the automatic player decline."""

from __future__ import annotations

import json

import pytest

from engine.core.errors import IllegalAction, InvalidOptions
from engine.core.rng import Rng
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.draw import ACCEPT, DECLINE, PROPOSE
from engine.mare_nostrum.positions import GAME
from engine.mare_nostrum.state import State


def _advance(s: State, steps: int, seed: int = 3) -> State:
    rng = Rng.from_seed(seed)
    for _ in range(steps):
        seat = rng.choice(sorted(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
    return s


def _game(steps: int = 40, players: int = 4) -> State:
    return _advance(GAME.new_game(3, players, {"agreed_draw": True}), steps)


def test_the_option_is_off_by_default_and_never_listed() -> None:
    s = GAME.new_game(3, 4, {})
    for _ in range(6):
        s = _advance(s, 25)
        for seat in range(4):
            assert PROPOSE not in GAME.legal_actions(s, seat)
    assert "agreed_draw" in GAME.info.options_help
    with pytest.raises(InvalidOptions):
        GAME.new_game(1, 4, {"agreed_drawz": True})


def test_a_proposal_is_voted_by_everyone_else_at_once_and_a_refusal_resumes_play() -> None:
    s = _game()
    (seat,) = sorted(GAME.to_move(s))
    before = [a for a in GAME.legal_actions(s, seat) if a != PROPOSE]
    assert PROPOSE in GAME.legal_actions(s, seat)
    assert GAME.parse(s, seat, "propose draw") == PROPOSE
    voting = GAME.apply(s, seat, PROPOSE).state
    others = set(range(4)) - {seat}
    assert set(GAME.to_move(voting)) == others
    assert GAME.legal_actions(voting, seat) == []
    for o in others:
        assert GAME.legal_actions(voting, o) == [ACCEPT, DECLINE]
    first, *_ = sorted(others)
    voting = GAME.apply(voting, first, ACCEPT).state
    assert set(GAME.to_move(voting)) == others - {first}
    assert "proposes a draw" in GAME.status(voting)
    assert GAME.view(voting, None)["draw_vote"]["by"] == voting.seats[seat]
    resumed = GAME.apply(voting, sorted(others)[1], DECLINE).state
    assert set(GAME.to_move(resumed)) == {seat}
    # Play resumes where it stopped; a second proposal waits for the next round.
    assert GAME.legal_actions(resumed, seat) == before
    with pytest.raises(IllegalAction):
        GAME.apply(resumed, seat, PROPOSE)


def test_unanimous_acceptance_ends_the_game_with_every_seat_tied() -> None:
    s = _game(60, players=3)
    (seat,) = sorted(GAME.to_move(s))
    s = GAME.apply(s, seat, PROPOSE).state
    for o in sorted(GAME.to_move(s)):
        step = GAME.apply(s, o, ACCEPT)
        s = step.state
    out = GAME.outcome(s)
    assert out is not None and out.ranking == ((0, 1, 2),) and out.winners == (0, 1, 2) and "draw" in out.reason
    assert GAME.to_move(s) == frozenset()
    assert "ends in a draw" in step.events[-1].text
    assert GAME.view(s, None)["drawn"] is True


def test_a_draw_can_be_proposed_during_secret_offers_without_revealing_them() -> None:
    s = GAME.new_game(5, 4, {"agreed_draw": True})
    rng = Rng.from_seed(5)
    while s.phase != "offer" or len(GAME.to_move(s)) < 2:
        seat = rng.choice(sorted(GAME.to_move(s)))
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.next64() & 0xFFFF)).state
    offering = sorted(GAME.to_move(s))
    s2 = GAME.apply(s, offering[0], PROPOSE).state
    assert set(GAME.to_move(s2)) == set(range(4)) - {offering[0]}
    assert s2.trade is not None and not s2.trade.revealed
    s3 = GAME.apply(s2, sorted(GAME.to_move(s2))[0], DECLINE).state
    assert sorted(GAME.to_move(s3)) == offering


def test_timeouts_and_the_automatic_player_decline_and_never_propose() -> None:
    s = _game()
    (seat,) = sorted(GAME.to_move(s))
    assert GAME.auto_action(s, seat, 1) != PROPOSE and GAME.on_timeout(s, seat) != PROPOSE
    voting = GAME.apply(s, seat, PROPOSE).state
    for o in GAME.to_move(voting):
        assert GAME.auto_action(voting, o, 1) == DECLINE and GAME.on_timeout(voting, o) == DECLINE


def test_a_vote_survives_dump_and_load_and_replays_identically() -> None:
    s = _game()
    (seat,) = sorted(GAME.to_move(s))
    voting = GAME.apply(s, seat, PROPOSE).state
    again = GAME.load(json.loads(json.dumps(GAME.dump(voting))))
    assert GAME.dumps(again) == GAME.dumps(voting)
    assert GAME.to_move(again) == GAME.to_move(voting)
    assert GAME.notation(voting, seat, PROPOSE) == "propose draw"
    assert GAME.notation(voting, 0, Action("draw", ("accept",))) == "accept draw"
