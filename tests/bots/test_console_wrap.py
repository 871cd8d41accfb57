"""Console lines fitted to the terminal's width: broken at spaces, never inside a move."""

from __future__ import annotations

from bots.console.terminal import fit


def test_a_short_line_is_unchanged() -> None:
    assert fit("Your turn: `take tax from carthage`.", 80) == "Your turn: `take tax from carthage`."


def test_a_long_line_breaks_at_spaces_within_the_width() -> None:
    text = "The offers are revealed. Greece: 2 tax cards, 1 fish card, 1 oil card and 1 wine card."
    out = fit(text, 30).split("\n")
    assert all(len(line) <= 30 for line in out), out
    assert " ".join(out) == text


def test_a_move_in_backticks_is_never_cut() -> None:
    text = "• take a card: `take tax from carthage`, `take perfume from carthage`, `take fish from babylon`"
    out = fit(text, 40).split("\n")
    assert out == [
        "• take a card: `take tax from carthage`,",
        "  `take perfume from carthage`,",
        "  `take fish from babylon`",
    ]


def test_continuations_keep_the_lines_indent() -> None:
    out = fit("  (image: " + "word " * 12 + "end)", 24).split("\n")
    assert all(line.startswith("  ") for line in out) and all(len(line) <= 24 for line in out), out


def test_a_word_longer_than_the_width_keeps_its_own_line() -> None:
    out = fit("see /a/very/long/path/to/an/image/file.png now", 12).split("\n")
    assert out == ["see", "/a/very/long/path/to/an/image/file.png", "now"]


def test_several_lines_are_fitted_each() -> None:
    assert fit("a b c d\nshort", 3) == "a b\nc d\nshort"
