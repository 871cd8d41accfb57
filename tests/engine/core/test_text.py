"""The English helpers every player-facing sentence uses."""

from __future__ import annotations

import pytest

from engine.core.text import article, count, join_words, plural_word, with_article


@pytest.mark.parametrize(
    ("n", "word", "expected"),
    [
        (1, "coin", "1 coin"),
        (0, "coin", "0 coins"),
        (2, "shield", "2 shields"),
        (3, "city", "3 cities"),
        (2, "galley", "2 galleys"),
        (5, "victory point", "5 victory points"),
        (2, "glass", "2 glass"),
        (2, "tax", "2 taxes"),
        (2, "City", "2 Cities"),
        (-1, "coin", "-1 coin"),
        (4, "event card", "4 event cards"),
    ],
)
def test_count_uses_the_right_form(n: int, word: str, expected: str) -> None:
    assert count(n, word) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("iron city", "an"),
        ("Antike Duellum game", "an"),
        ("unit", "a"),
        ("hour", "an"),
        ("legion", "a"),
        ("8-player game", "an"),
        ("7-player game", "a"),
        ("11", "an"),
        ("110", "a"),
        ("", "a"),
    ],
)
def test_article_follows_the_sound(word: str, expected: str) -> None:
    assert article(word) == expected


def test_helpers_compose() -> None:
    assert with_article("iron city") == "an iron city"
    assert plural_word("coin", 1) == "coin"
    assert join_words(["a"]) == "a"
    assert join_words(["a", "b", "c"]) == "a, b and c"
    assert join_words(["a", "b"], "or") == "a or b"
    assert join_words([]) == ""


def test_count_range_never_repeats_one_number() -> None:
    from engine.core.text import count_range

    assert count_range(2, 2, "player") == "2 players"
    assert count_range(2, 8, "player") == "2–8 players"
    assert count_range(1, 1, "player") == "1 player"
