"""Which moves may be offered in public: in Antike Duellum only card plays are private (a
public `play earthquake` button would show the hand); in 7 Wonders every pick is. The private
`hand` reply lists exactly the viewer's cards."""

from __future__ import annotations

from typing import Any

from engine import find_game


def _advance_until(game: Any, state: Any, cond: Any, limit: int = 3000) -> Any:
    for i in range(limit):
        if cond(state) or game.outcome(state) is not None:
            return state
        seat = sorted(game.to_move(state))[0]
        state = game.apply(state, seat, game.auto_action(state, seat, i)).state
    raise AssertionError("condition never met")


def test_duellum_card_plays_are_private_everything_else_public() -> None:
    game = find_game("duellum")
    seen_private = seen_public = 0
    for seed in range(6):
        state = game.new_game(seed, 2, {})
        for i in range(600):
            if game.outcome(state) is not None:
                break
            seat = sorted(game.to_move(state))[0]
            for action in game.legal_actions(state, seat):
                text = game.notation(state, seat, action)
                private = game.private_action(state, seat, action)
                uses_card = text.startswith("play ") or " with " in text
                assert private == uses_card, text
                seen_private += private
                seen_public += not private
            state = game.apply(state, seat, game.auto_action(state, seat, i)).state
    assert seen_private > 0 and seen_public > 0


def test_duellum_hand_summary_lists_own_cards_only() -> None:
    game = find_game("duellum")
    state = _advance_until(game, game.new_game(3, 2, {}), lambda s: game.view(s, 0)["players"][0]["hand"])
    mine = game.view(state, 0)["players"][0]["hand"]
    text = game.private_summary(state, 0)
    for card in mine:
        assert game.view(state, 0)["cards"][card]["name"] in text
    other = game.private_summary(state, 1)
    theirs = game.view(state, 1)["players"][1]["hand"] or []
    for card in set(mine) - set(theirs):
        assert game.view(state, 0)["cards"][card]["name"] not in other


def test_seven_wonders_every_pick_is_private_and_summary_shows_hand() -> None:
    game = find_game("seven-wonders")
    state = game.new_game(4, 3, {})
    for seat in range(3):
        assert all(game.private_action(state, seat, a) for a in game.legal_actions(state, seat))
        summary = game.private_summary(state, seat)
        for card in game.view(state, seat)["hand"]:
            assert card["name"] in summary
