"""Player-facing text of every game, scanned for the mistakes the text helpers exist to
prevent: ``coin(s)``, ``1 coins``, ``a iron city``, section signs and decision ids.

What is scanned, over random games of every registered game: every event text (public and
private), ``status`` and ``status_lines`` for every seat and the table, ``private_summary``,
the move notations and their costs, the refusals of malformed and illegal actions, the
answers to mistyped moves, and the static texts (summary, help, options).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core.api import AnyGame
from engine.core.errors import EngineError
from engine.core.rng import Rng
from engine.core.testing import mutations
from engine.core.text import article
from tests.support.games import games_in_checkout

GAMES = games_in_checkout()

# Words ending in "s" that are singular (so "1 glass" is right).
_SINGULAR_S = {
    "glass", "papyrus", "bonus", "status", "canvas", "press", "cross", "pass", "less", "plus", "thus",
    "this", "its", "was", "has", "is", "us", "yes", "always", "various", "previous", "famous", "res",
    "rhodos", "ephesos", "halikarnassos", "abydos", "lemnos", "ainos", "naxos", "kos", "paros", "chios",
    "samos", "lesbos", "thasos", "sardis", "miletos", "argos", "delos", "knossos", "syracusae", "gades",
    "ilios", "thebes", "patras", "alpes", "his", "across", "focus",
    "needs", "costs", "takes", "gives", "pays", "moves", "loses", "gets", "remains", "ends", "starts", "begins",
    "wins", "scores", "means",
}
_ONE_PLURAL = re.compile(r"(?<![\d.,/-])\b1 ([a-z]+s)\b")
_ARTICLE = re.compile(r"(?<![\w`-])([Aa]n?) ([A-Za-z][\w-]*)")
_SPEC = re.compile(r"§|\bD-\d+\b|\(A\d+(\.\d+)*\)|\bA\d+\.\d+\b")


def problems(text: str) -> list[str]:
    """What is wrong with one player-facing text (empty when nothing)."""
    out = []
    if "(s)" in text:
        out.append("(s)")
    for m in _ONE_PLURAL.finditer(text):
        if m.group(1).lower() not in _SINGULAR_S:
            out.append(m.group(0))
    for m in _ARTICLE.finditer(text):
        art, word = m.group(1).lower(), m.group(2)
        if word.isupper() and len(word) > 1:
            continue  # an abbreviation or a rondel space: read letter by letter or as a name
        if art != article(word):
            out.append(m.group(0))
    if _SPEC.search(text):
        out.append(_SPEC.search(text).group(0))  # type: ignore[union-attr]
    return out


def _texts(game: AnyGame, seed: int, steps: int) -> Iterator[str]:
    yield game.info.summary
    yield game.help_text()
    yield from game.info.options_help.values()
    rng = Rng.from_seed(seed)
    players = game.info.min_players + seed % (game.info.max_players - game.info.min_players + 1)
    state = game.new_game(seed, players, {})
    seats = range(game.players(state))
    for step in range(steps):
        if game.outcome(state) is not None:
            break
        seat = rng.choice(sorted(game.to_move(state)))
        actions = game.legal_actions(state, seat)
        if step % 5 == 0:
            for s in [None, *seats]:
                yield game.status(state, s)
                yield from game.status_lines(state, s)
            for s in seats:
                yield game.private_summary(state, s)
            for a in actions[:40]:
                yield game.notation(state, seat, a)
                yield game.action_cost(state, seat, a)
            yield from _refusals(game, state, seat, actions, rng)
        a = rng.choice(actions) if rng.below(3) == 0 else game.auto_action(state, seat, rng.below(1 << 20))
        step_ = game.apply(state, seat, a)
        for e in step_.events:
            yield e.text
        state = step_.state
    out = game.outcome(state)
    if out is not None:
        yield out.reason
        for s in [None, *seats]:
            yield game.status(state, s)


def _refusals(game: AnyGame, state: Any, seat: int, actions: list[Any], rng: Rng) -> Iterator[str]:
    """Messages for illegal actions, mistyped moves and other seats' attempts."""
    probes: list[Any] = []
    for a in [rng.choice(actions) for _ in range(3)]:
        probes.extend(mutations(a, actions))
    listed = set(actions)
    for p in probes:
        if p in listed:
            continue
        try:
            game.apply(state, seat, p)
        except EngineError as exc:
            yield exc.user_message
    texts = [game.notation(state, seat, a) for a in actions[:5]]
    for t in [*(t + " extra" for t in texts), *(t[:-1] for t in texts), "xyzzy", "", "move", "play"]:
        try:
            game.parse(state, seat, t)
        except EngineError as exc:
            yield exc.user_message
    for other in range(game.players(state)):
        if other not in game.to_move(state) and actions:
            try:
                game.apply(state, other, actions[0])
            except EngineError as exc:
                yield exc.user_message


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("found Roma as a iron city", ["a iron"]),
        ("You owe 1 coins.", ["1 coins"]),
        ("2 event card(s)", ["(s)"]),
        ("the special-units variant (§16)", ["§"]),
        ("no Fortress (D-12)", ["D-12"]),
        ("an unit", ["an unit"]),
    ],
)
def test_the_scanner_finds_each_mistake(text: str, found: list[str]) -> None:
    assert problems(text) == found


def test_the_scanner_accepts_good_english() -> None:
    assert problems("1 glass, 2 coins, an iron city, a unit, a DUELLUM space, 1 coin and 3 shields") == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_player_facing_text_has_no_wording_mistakes(game_id: str, seed: int) -> None:
    seen: dict[str, list[str]] = {}
    for text in _texts(GAMES[game_id], seed, steps=400):
        for line in text.splitlines():
            bad = problems(line)
            if bad:
                seen.setdefault(line, bad)
    assert not seen, "\n".join(f"{bad}: {line}" for line, bad in list(seen.items())[:25])
