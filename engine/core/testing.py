"""Test helpers every game's suite uses: random playouts with the protocol's invariants.

Why in the engine package (not tests/): benchmarks and future games reuse the same playout
and the same checks, and the checks are the protocol's own contract — apply never mutates
its input, ``parse(notation(a)) == a``, ``load(dump(s))`` is the same state, and a replay of
the seed and the action log reproduces the final state byte for byte (OpenSpiel's
``random_sim_test``). Pure: no clock, no global random.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.core.api import AnyGame
from engine.core.rng import Rng

Invariant = Callable[[Any], None]


@dataclass(slots=True)
class Playout:
    """A finished (or cut-off) random game: its final state and the record to replay it."""

    game: AnyGame
    seed: int
    players: int
    options: Mapping[str, Any]
    state: Any
    log: list[tuple[int, str]] = field(default_factory=list)
    steps: int = 0

    @property
    def over(self) -> bool:
        """Whether the game reached its end."""
        return self.game.outcome(self.state) is not None


class ProtocolViolation(AssertionError):
    """A playout found a break of the engine protocol; the message says which step."""


def replay(
    game: AnyGame, seed: int, players: int, options: Mapping[str, Any] | None, log: list[tuple[int, str]]
) -> Any:
    """Rebuild a state from its record: seed, options and ``(seat, notation)`` lines."""
    state = game.new_game(seed, players, dict(options or {}))
    for seat, text in log:
        state = game.apply(state, seat, game.parse(state, seat, text)).state
    return state


def random_playout(
    game: AnyGame,
    seed: int,
    players: int,
    options: Mapping[str, Any] | None = None,
    *,
    max_steps: int = 50_000,
    auto_share: float = 0.5,
    invariants: Invariant | None = None,
    check_mutation: bool = True,
    check_notation: int = 4,
    check_dump_every: int = 1,
    check_replay: bool = True,
) -> Playout:
    """Play one game with seeded random choices and check the protocol at every step.

    Args:
        auto_share: chance per step of asking the automatic player instead of picking a
            uniformly random legal action (pure random play may never finish a game).
        invariants: called with every state; raises ``AssertionError`` on a broken rule.
        check_mutation: compare the canonical dump of the input before and after ``apply``.
        check_notation: how many legal actions per step get ``parse(notation(a)) == a``
            checked (the chosen one always is).
        check_dump_every: dump/load round trip every N steps (0: never).
        check_replay: at the end, replay the record and compare byte for byte.

    Raises:
        ProtocolViolation: with the step number and the record so far.
    """
    opts = dict(options or {})
    rng = Rng.from_seed(seed ^ 0x5EED)
    state = game.new_game(seed, players, opts)
    result = Playout(game, seed, players, opts, state)
    if invariants:
        invariants(state)
    while game.outcome(state) is None:
        if result.steps >= max_steps:
            raise ProtocolViolation(f"{game.id} seed {seed}: no end after {max_steps} steps")
        movers = sorted(game.to_move(state))
        if not movers:
            raise ProtocolViolation(f"{game.id} seed {seed} step {result.steps}: nobody to move, not over")
        seat = rng.choice(movers)
        actions = game.legal_actions(state, seat)
        if not actions:
            raise ProtocolViolation(f"{game.id} seed {seed} step {result.steps}: seat {seat} to move, no actions")
        if rng.below(1000) < int(auto_share * 1000):
            action = game.auto_action(state, seat, rng.next64() & 0xFFFFFFFF)
        else:
            action = rng.choice(actions)
        text = game.notation(state, seat, action)
        _check_parse(game, state, seat, action, text, result.steps)
        for _ in range(min(check_notation, len(actions))):
            other = rng.choice(actions)
            _check_parse(game, state, seat, other, game.notation(state, seat, other), result.steps)
        before = game.dumps(state) if check_mutation else ""
        step = game.apply(state, seat, action)
        if check_mutation and game.dumps(state) != before:
            raise ProtocolViolation(f"{game.id} seed {seed} step {result.steps}: apply mutated its input")
        state = step.state
        result.log.append((seat, text))
        result.steps += 1
        if invariants:
            try:
                invariants(state)
            except AssertionError as exc:
                raise ProtocolViolation(
                    f"{game.id} seed {seed} step {result.steps} after {seat}: {text!r}: {exc}"
                ) from exc
        if check_dump_every and result.steps % check_dump_every == 0:
            dumped = game.dumps(state)
            if game.dumps(game.load(game.dump(state))) != dumped:
                raise ProtocolViolation(f"{game.id} seed {seed} step {result.steps}: dump/load changed the state")
    result.state = state
    if check_replay:
        again = replay(game, seed, players, opts, result.log)
        if game.dumps(again) != game.dumps(state):
            raise ProtocolViolation(f"{game.id} seed {seed}: replay of the log differs from the played game")
    return result


def _check_parse(game: AnyGame, state: Any, seat: int, action: Any, text: str, step: int) -> None:
    parsed = game.parse(state, seat, text)
    if parsed != action:
        raise ProtocolViolation(f"{game.id} step {step}: parse({text!r}) gave {parsed!r}, expected {action!r}")


# ------------------------------------------------------------ the action contract
def mutations(action: Any, others: list[Any]) -> list[Any]:
    """Malformed and foreign variants of a dataclass ``action``: every field pushed out of
    range, made negative, given the wrong length (tuples) or another action's value.

    Why generic: parsers, buttons and autocomplete all build actions; whatever they build,
    ``apply`` must either accept exactly what ``legal_actions`` lists or refuse with
    ``IllegalAction``, so every field of every action type is probed the same way.
    """
    if not dataclasses.is_dataclass(action) or isinstance(action, type):
        return []
    out: list[Any] = []

    def put(name: str, value: Any) -> None:
        with contextlib.suppress(TypeError, ValueError):
            out.append(dataclasses.replace(action, **{name: value}))

    same_kind = [o for o in others if type(o) is type(action)]
    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        if isinstance(value, bool):
            put(f.name, not value)
        elif isinstance(value, int):
            for n in (-1, -7, value + 1, value - 1, 99, 10**9):
                put(f.name, n)
        elif isinstance(value, str):
            for text in ("", "nope", value.lower(), value.upper(), value + "x"):
                put(f.name, text)
        elif value is None:
            for t in ((0, 0, 0, 0), (0, 0, 0), (-1, 0, 0, 1), (0, 0, 0, 0, 1)):
                put(f.name, t)
        elif isinstance(value, tuple):
            put(f.name, value[:-1])
            put(f.name, (*value, 0))
            put(f.name, (*value, 1))
            put(f.name, (*value, -1))
            put(f.name, ())
            for i in range(len(value)):
                for delta in (-1, 1, -100, 100):
                    if isinstance(value[i], int) and not isinstance(value[i], bool):
                        put(f.name, (*value[:i], value[i] + delta, *value[i + 1 :]))
        for other in same_kind:
            ov = getattr(other, f.name)
            if ov != value:
                put(f.name, ov)
    return out


def check_action_contract(game: AnyGame, state: Any, seat: int, rng: Rng, samples: int = 6) -> int:
    """Check ``is_legal``/``apply`` against ``legal_actions`` on mutations of a few legal actions
    of ``seat`` (and on foreign objects); returns how many actions were probed.

    Raises:
        ProtocolViolation: an illegal action was accepted, a listed one refused, something
            other than ``IllegalAction`` was raised, or a refused ``apply`` changed the state.
    """
    from engine.core.errors import IllegalAction

    legal = game.legal_actions(state, seat)
    listed = set(legal)
    picked = [rng.choice(legal) for _ in range(min(samples, len(legal)))] if legal else []
    probes: list[Any] = [None, "done", 0, (), object()]
    for a in picked:
        probes.extend(mutations(a, legal))
    before = game.dumps(state)
    for probe in probes:
        try:
            is_listed = probe in listed
        except TypeError:  # unhashable: never a listed action
            is_listed = False
        if is_listed:
            continue
        try:
            ok = game.is_legal(state, seat, probe)
        except Exception as exc:
            raise ProtocolViolation(f"{game.id}: is_legal({probe!r}) raised {type(exc).__name__}: {exc}") from exc
        if ok:
            raise ProtocolViolation(f"{game.id}: is_legal accepts {probe!r}, which legal_actions does not list")
        try:
            game.apply(state, seat, probe)
        except IllegalAction:
            pass
        except Exception as exc:
            raise ProtocolViolation(f"{game.id}: apply({probe!r}) raised {type(exc).__name__}: {exc}") from exc
        else:
            raise ProtocolViolation(f"{game.id}: apply accepted {probe!r}, which legal_actions does not list")
        if game.dumps(state) != before:
            raise ProtocolViolation(f"{game.id}: a refused apply({probe!r}) changed the state")
    for a in picked:
        if not game.is_legal(state, seat, a):
            raise ProtocolViolation(f"{game.id}: is_legal refuses the listed {a!r}")
    return len(probes)

