"""Card and event steps: a queue of small steps, each resolved at once or by one seat's choice.

Why a queue: an event card may make several players act in turn (Plague: every player picks a
city), a card may need two choices (Technology Trade), and Myths lets a player protect each city
from a mood drop; a list of steps in ``State.decks["steps"]`` resolved front to back, with an
open choice as the ordinary pending decision (``to_move`` = the choosing seat), covers them all
with the mechanism the map choices already use. A step handler says which options the seat has
(``None``: no choice, ``[]``: nothing possible, so the step lapses) and carries the step out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.clash.actions import Action
from engine.clash.state import State
from engine.core.events import Event

Step = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Handler:
    """How one kind of step is resolved."""

    options: Callable[[State, Step], list[str] | None]
    run: Callable[[State, Step, str], list[Event]]
    prompt: Callable[[State, Step], str]
    secret: bool = False
    """The options name hidden cards: the choice is offered only in private."""
    always_ask: bool = False
    """Ask even when only one option exists (a real yes/no)."""


HANDLERS: dict[str, Handler] = {}


def handler(
    name: str,
    options: Callable[[State, Step], list[str] | None],
    prompt: Callable[[State, Step], str],
    *,
    secret: bool = False,
    always_ask: bool = False,
) -> Callable[[Callable[[State, Step, str], list[Event]]], Callable[[State, Step, str], list[Event]]]:
    """Register the runner of a step kind (decorator)."""

    def wrap(run: Callable[[State, Step, str], list[Event]]) -> Callable[[State, Step, str], list[Event]]:
        HANDLERS[name] = Handler(options, run, prompt, secret, always_ask)
        return run

    return wrap


def no_choice(state: State, step: Step) -> list[str] | None:
    """Options function of steps that need no decision."""
    return None


def _load() -> None:
    # The rules modules register their handlers when imported.
    from engine.clash import (  # noqa: F401
        action_cards,
        card_explore,
        card_spying,
        events,
        great_persons,
        mercenaries,
        objectives,
        takeover,
    )


def push(state: State, *steps: Step, front: bool = True) -> None:
    """Queue steps (in front of what is queued: an effect finishes before the next one starts)."""
    queue = state.decks.setdefault("steps", [])
    if front:
        queue[0:0] = list(steps)
    else:
        queue.extend(steps)


def run_steps(state: State) -> list[Event]:
    """Resolve queued steps until one needs a choice (it becomes the pending decision)."""
    _load()
    events: list[Event] = []
    queue = state.decks.get("steps") if state.decks else None
    while queue and not state.pending and state.phase != "over":
        step = queue.pop(0)
        h = HANDLERS[step["do"]]
        opts = h.options(state, step)
        if opts is None:
            events.extend(h.run(state, step, ""))
        elif not opts:
            continue
        elif len(opts) == 1 and not h.always_ask:
            events.extend(h.run(state, step, opts[0]))
        else:
            state.pending = {
                "kind": "card",
                "seat": int(step["seat"]),
                "step": step,
                "options": opts,
                "prompt": h.prompt(state, step),
                "secret": h.secret,
            }
            return events
        queue = state.decks.get("steps")
    return events


def choose(state: State, seat: int, action: Action) -> list[Event]:
    """Carry out the open card choice, then the rest of the queue."""
    _load()
    step = state.pending["step"]
    state.pending = {}
    events = HANDLERS[step["do"]].run(state, step, action.name)
    events.extend(run_steps(state))
    return events


def pending_options(state: State) -> list[Action]:
    """The open card choice as actions."""
    return [Action("choose", name=o) for o in state.pending["options"]]


def busy(state: State) -> bool:
    """Steps are still queued (or one is open)."""
    return bool(state.decks and state.decks.get("steps")) or state.pending.get("kind") == "card"
