"""Small English helpers for every sentence a player reads: counts with plurals, articles, lists.

Why one module: "1 coins", "a iron city" and "coin(s)" crept into several games because each
wrote its own f-strings. Every game, the command layer and the renderer use these helpers, and
a test scans player-facing text for the patterns they exist to prevent.
"""

from __future__ import annotations

from collections.abc import Iterable

# Plurals that do not simply add "s". Keys are lower case singulars.
_IRREGULAR: dict[str, str] = {
    "city": "cities",
    "victory": "victories",
    "army": "armies",
    "personality": "personalities",
    "dummy": "dummies",
    "galley": "galleys",
    "ally": "allies",
    "category": "categories",
    "territory": "territories",
    "factory": "factories",
    "colony": "colonies",
    "glass": "glass",
    "wood": "wood",
    "food": "food",
    "ore": "ore",
    "stone": "stone",
    "clay": "clay",
    "papyrus": "papyrus",
    "loom": "loom",
    "marble": "marble",
    "iron": "iron",
    "gold": "gold",
    "debt": "debt",
    "sheep": "sheep",
    "fish": "fish",
    "hero": "heroes",
    "tax": "taxes",
    "box": "boxes",
    "wolf": "wolves",
    "person": "people",
    "man": "men",
    "knife": "knives",
    "life": "lives",
    "half": "halves",
}

# Words starting with a vowel letter but a consonant sound, and the reverse.
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "eu", "one", "once", "ufo", "ure")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir", "herb")


def plural_word(word: str, n: int = 2) -> str:
    """``word`` in the form that goes with the count ``n`` (singular for 1 and -1).

    Only the last word of a phrase changes ("victory point" -> "victory points"); the case of
    the first letter is kept ("City" -> "Cities").
    """
    if abs(n) == 1 or not word:
        return word
    head, sep, last = word.rpartition(" ")
    low = last.lower()
    if low in _IRREGULAR:
        new = _IRREGULAR[low]
    elif low.endswith(("s", "x", "z", "ch", "sh")):
        new = low + "es"
    elif low.endswith("y") and len(low) > 1 and low[-2] not in "aeiou":
        new = low[:-1] + "ies"
    else:
        new = low + "s"
    if last[:1].isupper():
        new = new[:1].upper() + new[1:]
    if last.isupper() and len(last) > 1:
        new = new.upper()
    return f"{head}{sep}{new}"


def count(n: int, word: str) -> str:
    """``"1 coin"``, ``"3 coins"``, ``"0 coins"`` — a number with its noun in the right form."""
    return f"{n} {plural_word(word, n)}"


def article(word: str) -> str:
    """``"a"`` or ``"an"`` for ``word`` by its first sound (``an iron city``, ``a unit``)."""
    low = word.strip().lower()
    if not low:
        return "a"
    if low.startswith(_VOWEL_SOUND):
        return "an"
    if low.startswith(_CONSONANT_SOUND):
        return "a"
    if low[0].isdigit():
        # "an 8-player game", "an 11", "an 18"; otherwise "a".
        digits = low[: len(low) - len(low.lstrip("0123456789"))]
        if digits.startswith("8") or (len(digits) in (2, 5) and digits.startswith(("11", "18"))):
            return "an"
        return "a"
    return "an" if low[0] in "aeiou" else "a"


def with_article(word: str) -> str:
    """``word`` preceded by its article: ``"an iron city"``."""
    return f"{article(word)} {word}"


def join_words(items: Iterable[str], conj: str = "and") -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"`` — a list as one reads it aloud."""
    xs = [x for x in items if x]
    if not xs:
        return ""
    if len(xs) == 1:
        return xs[0]
    return f"{', '.join(xs[:-1])} {conj} {xs[-1]}"


def count_range(low: int, high: int, word: str) -> str:
    """``"2 players"`` when both ends are equal, else ``"2–8 players"`` (never ``"2–2 players"``)."""
    if low == high:
        return count(low, word)
    return f"{low}–{high} {plural_word(word, high)}"
