"""Engine core: RNG determinism, lenient notation matching, errors, registry, the apply
template (never mutates, undoable flag) and the playout helper — using the toy game."""

from __future__ import annotations

import json

import pytest

from engine import (
    AmbiguousAction,
    GameOver,
    IllegalAction,
    InvalidNotation,
    InvalidSave,
    NotYourTurn,
    Rng,
    UnknownGame,
    find_game,
)
from engine.core.notation import closest, match_text, normalize
from engine.core.testing import random_playout, replay
from tests.support.toy import Add, Roll, ToyGame


def test_rng_same_seed_same_stream_and_state_round_trips() -> None:
    a, b = Rng.from_seed(42), Rng.from_seed(42)
    assert [a.randint(1, 6) for _ in range(50)] == [b.randint(1, 6) for _ in range(50)]
    c = Rng(json.loads(json.dumps(a.state)))
    assert [a.below(1000) for _ in range(10)] == [c.below(1000) for _ in range(10)]


def test_rng_is_unbiased_enough_and_shuffle_is_a_permutation() -> None:
    r = Rng.from_seed(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.randint(1, 6) - 1] += 1
    assert all(850 < c < 1150 for c in counts)
    items = list(range(20))
    r.shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))
    with pytest.raises(ValueError):
        r.below(0)


def test_consecutive_seeds_give_unrelated_streams() -> None:
    firsts = {Rng.from_seed(s).next64() for s in range(100)}
    assert len(firsts) == 100


CANDS = [(["move 2 legions roma-ancona"], "A"), (["move 2 legions roma-ravenna"], "B"), (["pass"], "P"),
         (["found carthago nova gold", "found carthago_nova gold"], "F")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("MOVE 2 legions ROMA-ANCONA", "A"),
        ("  move   2 leg roma-an ", "A"),
        ("pa", "P"),
        ("found carthago_nova gold", "F"),
        ("found carthagonova gold", "F"),
        ("f c n g", "F"),
    ],
)
def test_match_is_lenient(text: str, expected: str) -> None:
    assert match_text(text, CANDS, verbs=["move", "pass", "found"]) == expected


def test_match_ambiguity_lists_candidates() -> None:
    with pytest.raises(AmbiguousAction) as exc:
        match_text("move 2 legions roma-", CANDS)
    assert exc.value.candidates == ("move 2 legions roma-ancona", "move 2 legions roma-ravenna")
    assert "move 2 legions roma-ancona" in exc.value.user_message


def test_match_unknown_word_and_illegal_move_messages() -> None:
    with pytest.raises(InvalidNotation) as bad:
        match_text("fly to the moon", CANDS, verbs=["move", "pass", "found"])
    assert "fly" in bad.value.user_message and "move" in bad.value.user_message
    with pytest.raises(IllegalAction) as illegal:
        match_text("move 3 legions roma-ancona", CANDS)
    assert "Closest legal" in illegal.value.user_message
    with pytest.raises(InvalidNotation):
        match_text("   ", CANDS)


def test_normalize_and_closest() -> None:
    assert normalize("  Found  Carthago_Nova,GOLD ") == "found carthago nova gold"
    assert closest("move 2 legions roma-ancon", [c[0][0] for c in CANDS])[0] == "move 2 legions roma-ancona"


def test_registry_aliases_and_unknown_names(store) -> None:
    assert find_game("TOY").id == "toy"
    assert find_game(" race ").id == "toy"
    with pytest.raises(UnknownGame) as exc:
        find_game("chess")
    assert "chess" in exc.value.user_message and exc.value.code == "game/unknown"


def test_apply_never_mutates_and_marks_random_moves_not_undoable() -> None:
    game = ToyGame()
    s0 = game.new_game(5, 2)
    before = game.dumps(s0)
    step = game.apply(s0, 0, Add(2))
    assert game.dumps(s0) == before
    assert step.undoable and step.state.total == 2
    roll = game.apply(step.state, 1, Roll())
    assert not roll.undoable
    assert [e.public for e in roll.events] == [True, False]


def test_turn_and_game_over_errors_have_codes() -> None:
    game = ToyGame()
    s = game.new_game(1, 2)
    with pytest.raises(NotYourTurn) as nyt:
        game.apply(s, 1, Add(1))
    assert nyt.value.code == "action/not_your_turn"
    s.total, s.winner = 21, 0
    with pytest.raises(GameOver):
        game.parse(s, 0, "add 1")


def test_dump_load_is_versioned() -> None:
    game = ToyGame()
    s = game.new_game(3, 2)
    assert game.dumps(game.load(game.dump(s))) == game.dumps(s)
    with pytest.raises(InvalidSave):
        game.load({"game": "other", "schema": 1, "state": {}})
    with pytest.raises(InvalidSave):
        game.load({"game": "toy", "schema": 99, "state": {}})
    with pytest.raises(InvalidSave):
        game.load({"game": "toy", "schema": 1, "state": {"players": 2}})


def test_random_playout_checks_and_replays() -> None:
    game = ToyGame()
    for seed in range(20):
        result = random_playout(game, seed, 2)
        assert result.over
        assert game.dumps(replay(game, seed, 2, {}, result.log)) == game.dumps(result.state)
