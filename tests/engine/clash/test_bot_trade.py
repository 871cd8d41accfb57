"""The automatic player's trade offers: written in its own turn for what a wanted build lacks, at
most one a turn, never repeated once declined, written when a player invites it, never in the
name of a player who missed the deadline; bot-only games trade and stay deterministic."""

from __future__ import annotations

from engine.clash.actions import Action
from engine.clash.builder import GAME, Position
from engine.clash.state import State


def _short_of_ore() -> Position:
    """Red could add a Temple to one of its two cities but lacks 1 ore; it has wood to spare,
    and Blue has ore."""
    pos = Position(2).clear_units().advances(0, "myths")
    pos.city(0, "e2")
    pos.give(0, food=1, wood=3, ore=0).give(1, food=0, ore=2, wood=0)
    return pos.turn(0)


def _bot(pos: Position, seat: int, seed: int = 0) -> Action:
    """The automatic player's choice, checked to be legal."""
    action = GAME.auto_action(pos.state, seat, seed)
    assert action in GAME.legal_actions(pos.state, seat)
    return action


def _write(pos: Position, seat: int) -> list[str]:
    """Let the automatic player write the offer it is composing; the texts of its steps."""
    texts = []
    for step in range(10):
        if pos.state.pending.get("kind") != "offer":
            return texts
        action = _bot(pos, seat, step)
        texts.append(GAME.notation(pos.state, seat, action))
        pos.state = GAME.apply(pos.state, seat, action).state
        pos.events = []
    raise AssertionError("the offer was never sent")


def test_bot_offers_a_surplus_for_what_its_wanted_build_lacks() -> None:
    pos = _short_of_ore()
    assert _bot(pos, 0, 5) == Action("trade", n=1)
    pos.play(0, "trade blue")
    steps = _write(pos, 0)
    assert steps == ["give 1 wood", "get 1 ore", "offer"]
    assert GAME.status(pos.state).endswith("Red offers Blue 1 wood for 1 ore: `accept` or `decline`.")
    assert _bot(pos, 1) == Action("accept")  # the other automatic player takes a fair exchange
    pos.state = GAME.apply(pos.state, 1, Action("accept")).state
    assert pos.state.pl[0].res["ore"] == 1
    grow = _bot(pos, 0)
    assert grow.kind == "grow" and grow.name == "temple"


def test_the_same_seed_or_any_seed_gives_the_same_offer() -> None:
    first = _short_of_ore()
    second = _short_of_ore()
    for seed in (0, 1, 99):
        assert _bot(first, 0, seed) == _bot(second, 0, seed) == Action("trade", n=1)


def test_one_offer_a_turn_and_a_declined_offer_is_not_repeated() -> None:
    pos = _short_of_ore()
    pos.play(0, "trade blue")
    _write(pos, 0)
    assert pos.play(1, "decline")[0].text == "Blue declines Red's offer."
    assert "trade blue" in pos.moves(0)  # offers are left, but the automatic player made its one
    for seed in range(5):
        assert _bot(pos, 0, seed).kind not in ("trade", "invite")
    pos.turn(1).turn(0)
    assert _bot(pos, 0) == Action("trade", n=1)  # a new turn: the offer may come again


def test_no_offer_without_a_need_or_a_supplier() -> None:
    pos = _short_of_ore().give(1, ore=0)
    assert _bot(pos, 0).kind != "trade"  # Blue has no ore
    pos = _short_of_ore().give(0, gold=1)
    assert _bot(pos, 0).kind != "trade"  # Gold pays for the missing ore


def test_invited_bot_writes_an_offer_then_a_better_one_then_withdraws() -> None:
    pos = _short_of_ore().turn(1)
    assert pos.play(1, "invite red")[0].text == "Blue invites Red to make a trade offer."
    assert _write(pos, 0) == ["give 1 wood", "get 1 ore", "offer"]
    pos.play(1, "decline")
    pos.play(1, "invite red")
    assert _write(pos, 0) == ["give 2 wood", "get 1 ore", "offer"]
    assert "Red offers Blue 2 wood for 1 ore" in GAME.status(pos.state)
    pos.play(1, "decline")
    pos.play(1, "invite red")
    assert _write(pos, 0) == ["cancel"]
    assert pos.state.pending == {}
    pos.turn(0).turn(1).play(1, "invite red")
    assert pos.play(0, "cancel")[0].text == "Red makes no trade offer."


def test_invited_bot_lacking_nothing_offers_from_its_largest_pile() -> None:
    pos = Position(2).clear_units()
    pos.give(0, food=2, wood=5, ore=0).give(1, ore=2).turn(1)
    pos.play(1, "invite red")
    assert _write(pos, 0) == ["give 1 wood", "get 1 ore", "offer"]


def test_timeout_never_trades_for_the_absent_player() -> None:
    pos = _short_of_ore()
    assert GAME.on_timeout(pos.state, 0).kind != "trade"
    pos.turn(1).play(1, "invite red")
    assert GAME.on_timeout(pos.state, 0) == Action("cancel")


def _bot_game(seed: int, players: int) -> tuple[State, list[str]]:
    """A game of automatic players only; the trade texts."""
    s = GAME.new_game(seed, players)
    steps = 0
    trades = []
    while GAME.outcome(s) is None:
        seat = next(iter(GAME.to_move(s)))
        action = GAME.auto_action(s, seat, steps)
        assert action in GAME.legal_actions(s, seat)
        step = GAME.apply(s, seat, action)
        trades += [e.text for e in step.events if " offers " in e.text or " accepts" in e.text]
        s = step.state
        steps += 1
    return s, trades


def test_bot_games_trade_and_stay_deterministic() -> None:
    a, trades = _bot_game(7, 3)
    assert any(" offers " in t for t in trades) and any(" accepts" in t for t in trades)
    b, again = _bot_game(7, 3)
    assert GAME.dumps(a) == GAME.dumps(b) and trades == again
    out = GAME.outcome(a)
    assert out is not None and out.ranking
