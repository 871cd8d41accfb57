"""Parse chat text by matching it against the notations of the legal actions.

Why match instead of a grammar per game: a parsed action is then legal by construction
(python-chess ``parse_san`` and OpenSpiel ``StringToAction`` work the same way), the canonical
notation stays the single source of truth, and leniency (case, spacing, unique prefixes of
words) is implemented once for every game.

>>> cands = [(["move legion roma"], 1), (["move legion ravenna"], 2), (["pass"], 3)]
>>> match_text("MOVE  leg roma", cands, verbs=["move", "pass"])
1
>>> match_text("pa", cands, verbs=["move", "pass"])
3
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from typing import TypeVar

from engine.core.errors import AmbiguousAction, IllegalAction, InvalidNotation
from engine.core.text import with_article

A = TypeVar("A")

_SPACE = re.compile(r"[\s_,;]+")


def normalize(text: str) -> str:
    """Lower-case, treat ``_ , ;`` as spaces, collapse runs of space, strip."""
    return _SPACE.sub(" ", text.strip().lower()).strip()


def tokens(text: str) -> list[str]:
    """The normalized words of ``text``."""
    norm = normalize(text)
    return norm.split(" ") if norm else []


def _prefix_match(typed: Sequence[str], form: Sequence[str]) -> bool:
    return len(typed) == len(form) and all(f.startswith(t) for t, f in zip(typed, form, strict=True))


def _joined_prefix_match(typed: Sequence[str], form: Sequence[str]) -> bool:
    """Words typed without their spaces (``carthagonova``) still match when unambiguous."""
    return "".join(typed) == "".join(form)


def match_text(
    text: str,
    candidates: Iterable[tuple[Sequence[str], A]],
    *,
    verbs: Iterable[str] = (),
    what: str = "move",
) -> A:
    """Return the one action whose notation ``text`` names.

    Args:
        text: what the player typed.
        candidates: each legal action with its accepted spellings, canonical first.
        verbs: every first word the game's notation can start with (for syntax errors).
        what: the noun used in messages ("move", "pick").

    Raises:
        InvalidNotation: empty text or an unknown first word.
        AmbiguousAction: several distinct actions match equally well.
        IllegalAction: well-formed but no legal action matches; closest ones are suggested.
    """
    typed = tokens(text)
    cands = [([tokens(f) for f in forms], forms[0], action) for forms, action in candidates]
    verb_list = sorted({normalize(v) for v in verbs} | {c[0][0][0] for c in cands if c[0] and c[0][0]})
    if not typed:
        raise InvalidNotation(f"Please type {with_article(what)}. It starts with one of: {', '.join(verb_list)}.")
    for test in (
        lambda t, f: t == f,
        _prefix_match,
        _joined_prefix_match,
    ):
        found: dict[str, A] = {}
        for forms, canonical, action in cands:
            if any(test(typed, f) for f in forms):
                found.setdefault(canonical, action)
        if len(found) == 1:
            return next(iter(found.values()))
        if len(found) > 1:
            raise AmbiguousAction(text.strip(), sorted(found))
    if verb_list and not any(v.startswith(typed[0]) for v in verb_list):
        raise InvalidNotation(
            f"I don't know the word `{typed[0]}`. {with_article(what).capitalize()} starts with one of: "
            f"{', '.join(verb_list)}."
        )
    raise IllegalAction(no_match_message(text, [c[1] for c in cands], what=what))


def leading_match(text: str, candidates: Iterable[tuple[Sequence[str], A]]) -> tuple[str, A] | None:
    """The legal move that ``text`` begins with word for word and then goes on past
    (``rondel ferrum rondel templum`` begins with ``rondel ferrum``): its canonical notation and
    action, the longest such form first; ``None`` when the text does not begin with a move."""
    typed = tokens(text)
    best: tuple[int, str, A] | None = None
    for forms, action in candidates:
        for form in forms:
            f = tokens(form)
            if f and len(f) < len(typed) and typed[: len(f)] == f and (best is None or len(f) > best[0]):
                best = (len(f), forms[0], action)
    return (best[1], best[2]) if best else None


def no_match_message(text: str, canonical: Sequence[str], *, what: str = "move") -> str:
    """ "Not legal now" plus the closest legal notations (never more than five)."""
    if not canonical:
        return f"`{text.strip()}` is not possible: you have no legal {what} right now."
    close = closest(text, canonical)
    hint = f" Closest legal {what}s: " + "; ".join(f"`{c}`" for c in close) + "." if close else ""
    return f"`{text.strip()}` is not a legal {what} right now.{hint}"


def closest(text: str, canonical: Sequence[str], n: int = 5) -> list[str]:
    """Legal notations most similar to ``text``: same first word first, then by similarity."""
    norm = normalize(text)
    first = norm.split(" ")[0] if norm else ""
    pool = [c for c in canonical if normalize(c).startswith(first)] or list(canonical)
    ranked = difflib.get_close_matches(norm, [normalize(c) for c in pool], n=n, cutoff=0.0)
    by_norm = {normalize(c): c for c in pool}
    return [by_norm[r] for r in ranked]
