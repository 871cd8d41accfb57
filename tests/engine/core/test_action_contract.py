"""The action contract, for every registered game: an action is legal exactly when
``legal_actions`` lists it; anything else, however malformed (wrong tuple lengths, negative
and out-of-range numbers, foreign ids, objects of other types), makes ``apply`` raise
``IllegalAction`` and changes nothing.

Why by property over random positions: parsers, buttons and autocomplete all build actions,
and a hole in one rule module's checks (a tuple index never checked, a field read past its
end) only shows in the positions where that module's actions are legal.
"""

from __future__ import annotations

import pytest

from engine.core.api import AnyGame
from engine.core.rng import Rng
from engine.core.testing import check_action_contract, mutations
from tests.support.games import games_in_checkout

GAMES = games_in_checkout()


def _positions(game: AnyGame, seed: int, steps: int, every: int) -> list[tuple[object, int]]:
    """Random positions of one game: (state, awaited seat) every ``every`` steps."""
    rng = Rng.from_seed(seed)
    players = game.info.min_players if seed % 2 else min(game.info.max_players, game.info.min_players + 1)
    state = game.new_game(seed, players, {})
    out: list[tuple[object, int]] = []
    for step in range(steps):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_move(state)))
        if step % every == 0:
            out.append((state, seat))
        actions = game.legal_actions(state, seat)
        a = rng.choice(actions) if rng.below(2) else game.auto_action(state, seat, rng.below(1 << 30))
        state = game.apply(state, seat, a).state
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_only_listed_actions_are_legal_and_the_rest_raise_illegal_action(game_id: str, seed: int) -> None:
    game = GAMES[game_id]
    rng = Rng.from_seed(seed * 7919)
    probed = 0
    for state, seat in _positions(game, seed, steps=240, every=6):
        probed += check_action_contract(game, state, seat, rng)
    assert probed > 100


def test_mutations_cover_lengths_signs_and_foreign_values() -> None:
    from tests.support.toy import Add

    found = mutations(Add(2), [Add(2), Add(5)])
    assert Add(-1) in found and Add(5) in found and Add(10**9) in found
