"""Chat notation: names as printed on the board, lenient reading (ids, case, underscores,
non-breaking spaces), nothing half-read, and every help example readable as shown."""

from __future__ import annotations

import re

import pytest

from engine.core.errors import EngineError
from engine.core.rng import Rng
from engine.duellum.actions import Deploy, Move, PlayCard
from engine.duellum.reasons import guess
from engine.duellum.state import State

from .builders import GAME, Board

CARTHAGINIANS, ROMANS = 0, 1


def test_notation_prints_names_as_on_the_board() -> None:
    b = Board(active=CARTHAGINIANS).action("MILITIA")
    s = b.state
    cn, mb = b.r("carthago_nova"), b.r("mare_balearicum")
    assert GAME.notation(s, CARTHAGINIANS, Deploy(0, 1, cn)) == "deploy legion Carthago Nova"
    assert GAME.notation(s, CARTHAGINIANS, Move(1, 1, (cn, mb))) == "move galley Carthago Nova-Mare Balearicum"
    assert GAME.notation(s, CARTHAGINIANS, PlayCard("FORCED_MARCH", cn)) == "play Forced March Carthago Nova"
    assert not any("_" in GAME.notation(s, CARTHAGINIANS, a) for a in GAME.legal_actions(s, CARTHAGINIANS))


@pytest.mark.parametrize(
    "text",
    [
        "deploy legion Carthago Nova",
        "deploy legion carthago_nova",
        "DEPLOY LEGION CARTHAGO NOVA",
        "deploy\u00a0legion\u00a0carthago nova",
        "deploy legion carthagonova",
        "deploy leg carth nova",
    ],
)
def test_ids_and_printed_names_parse_alike(text: str) -> None:
    b = Board(active=CARTHAGINIANS).resources(CARTHAGINIANS, iron=4).box(CARTHAGINIANS, 2, 0).start(CARTHAGINIANS)
    b.action("MILITIA")
    assert GAME.parse(b.state, CARTHAGINIANS, text) == Deploy(0, 1, b.r("carthago_nova"))


@pytest.mark.parametrize(
    "text",
    [
        "rondel ferrum rondel templum",
        "rondel templum templum",
        "rondel templum now",
        "pass please",
        "done twice",
        "take iron gold",
    ],
)
def test_extra_words_are_never_ignored(text: str) -> None:
    b = Board(active=CARTHAGINIANS).stone(CARTHAGINIANS, "MARMOR").resources(CARTHAGINIANS, marble=5, iron=5, gold=5)
    with pytest.raises(EngineError):
        GAME.parse(b.state, CARTHAGINIANS, text)


def test_extra_words_after_a_card_or_a_region_are_refused() -> None:
    b = Board(active=CARTHAGINIANS).hand(CARTHAGINIANS, "FORTRESS", "EARTHQUAKE").action("DUELLUM")
    for text in ("play Earthquake Roma rondel", "play Fortress rondel templum", "conquer Roma with Veterans now"):
        assert guess(b.state, CARTHAGINIANS, text) is None, text


def test_every_help_example_is_read_as_shown() -> None:
    examples = re.findall(r"`([^`]+)`", GAME.help_text())
    assert len(examples) > 25
    boards = [Board(active=CARTHAGINIANS), Board(map_id="greece-persia", active=CARTHAGINIANS)]
    for ex in examples:
        assert any(guess(b.state, CARTHAGINIANS, ex) is not None for b in boards), ex


def _random_states(seed: int, steps: int) -> list[State]:
    rng = Rng.from_seed(seed)
    s = GAME.new_game(seed, 2, {"map": "B" if seed % 2 else "A"})
    out = []
    for _ in range(steps):
        if GAME.outcome(s) is not None:
            break
        seat = rng.choice(sorted(GAME.to_move(s)))
        out.append(s)
        s = GAME.apply(s, seat, GAME.auto_action(s, seat, rng.below(1 << 20))).state
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_every_listed_move_and_each_spelling_parses_back(seed: int) -> None:
    for s in _random_states(seed, 160)[::4]:
        for seat in sorted(GAME.to_move(s)):
            for a in GAME.legal_actions(s, seat)[:80]:
                for form in GAME.notation_forms(s, seat, a):
                    assert GAME.parse(s, seat, form) == a, form


def test_a_move_with_words_left_over_names_the_move_it_begins_with() -> None:
    from engine.core.errors import ExtraWords

    b = Board(active=CARTHAGINIANS).stone(CARTHAGINIANS, "MARMOR")
    with pytest.raises(ExtraWords) as info:
        GAME.parse(b.state, CARTHAGINIANS, "rondel ferrum rondel templum")
    assert info.value.code == "action/extra_words" and info.value.canonical == "rondel ferrum"
    assert "Type one move exactly, e.g. `rondel ferrum`" in info.value.user_message
    # A move from the hand is named only in private.
    b = Board(active=CARTHAGINIANS).hand(CARTHAGINIANS, "Fortress").action("DUELLUM")
    b.hand(CARTHAGINIANS, "Treasury")
    with pytest.raises(ExtraWords) as info:
        GAME.parse(b.state, CARTHAGINIANS, "play Treasury now please")
    assert info.value.code == "action/extra_words/private"
