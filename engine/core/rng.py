"""A small deterministic PRNG whose whole state is one integer kept inside the game state.

Why not ``random.Random``: its pickled state is tied to CPython internals and it invites
global use. SplitMix64 is tiny, well distributed for dice and shuffles, and its state is an
``int`` that round-trips through JSON, so "same seed and actions give the same game, byte
for byte" holds across machines and Python versions.

>>> r = Rng.from_seed(7)
>>> [r.randint(1, 6) for _ in range(5)]
[6, 4, 4, 5, 1]
>>> r2 = Rng(r.state)
>>> r2.randint(1, 6) == r.randint(1, 6)
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TypeVar

_MASK = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15

T = TypeVar("T")


@dataclass(slots=True)
class Rng:
    """SplitMix64. ``state`` is the only field; copy it into the game state after use."""

    state: int

    @classmethod
    def from_seed(cls, seed: int) -> Rng:
        """Mix the seed once so that small consecutive seeds give unrelated streams."""
        r = cls((seed * 0xD1342543DE82EF95 + 0x2545F4914F6CDD1D) & _MASK)
        r.next64()
        return r

    def next64(self) -> int:
        """Return the next 64-bit output and advance the state."""
        self.state = (self.state + _GAMMA) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)`` without modulo bias (rejection sampling)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, lo: int, hi: int) -> int:
        """Uniform integer in ``[lo, hi]`` (both inclusive), like a die."""
        return lo + self.below(hi - lo + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self) -> Rng:
        """An independent stream derived from this one (advances this one by one step)."""
        return Rng(self.next64())
