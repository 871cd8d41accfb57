"""The pending decisions of battles and Barbarians: what may be chosen, carrying the choice out,
what the table is told while it waits, and what happens when the deadline passes.

Why one module: the shared dispatchers (``moves.pending_options``, ``turns._apply_pending``,
``ClashGame.status``) each hand every combat kind here with one line, so combat choices can grow
without touching them again.

Choices and their notation:

* ``battle`` (the attacker, after a round): ``continue`` / ``retreat``
* ``siege`` (the attacker, before round 1 against a Fortress): ``siege wood``, ``siege ore``,
  ``siege wood ore``, ``no siege``
* ``combat_card`` (either side, with Tactics): the card plays the card module lists, or ``no card``
* ``refugee`` (the beaten owner): ``refugee <city>``; ``fanatic`` (Fanaticism's loser):
  ``fanatic <city>``; ``camp`` (who took a Barbarian settlement): ``keep camp`` / ``raze camp``
* Barbarian events: ``barbarians <space>``, ``reinforce <space>``, ``target <space> <city>``,
  ``lose army settler temple``
"""

from __future__ import annotations

import importlib

from engine.clash.actions import Action
from engine.clash.barbarians import BARBARIAN_KINDS, apply_barbarian_choice, barbarian_options, run_attack
from engine.clash.capture import CHAIN_KINDS, apply_chain, chain_options
from engine.clash.combat import decide, name, pay_siege, run_battle, siege_options
from engine.clash.combat_rounds import CARD_HOOK, card_options
from engine.clash.state import State
from engine.core.events import Event

COMBAT_KINDS = ("battle", "siege", "combat_card", *CHAIN_KINDS, *BARBARIAN_KINDS)
CHOICE_VERBS = (
    "continue",
    "retreat",
    "siege",
    "nocard",
    "refugee",
    "fanatic",
    "keep_camp",
    "raze_camp",
    "reinforce",
    "target",
    "lose",
    "barbarians",
)

WAITING = {
    "battle": "to continue the battle or retreat",
    "siege": "to decide on Siegecraft payments",
    "combat_card": "to decide whether to play a combat card",
    "refugee": "to place a refugee Settler",
    "fanatic": "to place Fanaticism's free army unit",
    "camp": "to keep or raze a captured Barbarian settlement",
    "barbarian_spawn": "to place a new Barbarian settlement",
    "barbarian_unit": "to reinforce a Barbarian settlement",
    "barbarian_target": "to say which Barbarian settlement attacks which city",
    "barbarian_losses": "to choose the losses from a Barbarian attack",
}


def combat_options(state: State) -> list[Action]:
    """The choices of the open combat pending decision."""
    kind = state.pending["kind"]
    if kind == "battle":
        return [Action("continue"), Action("retreat")]
    if kind == "siege":
        return [Action("siege", items=pick) for pick in siege_options(state)]
    if kind == "combat_card":
        side = str(state.pending["side"])
        return [*card_options(state, state.battle, side), Action("nocard")]
    if kind in CHAIN_KINDS:
        return chain_options(state)
    return barbarian_options(state)


def apply_combat_choice(state: State, seat: int, action: Action) -> list[str]:
    """Carry out a combat choice and go on with the battle or the follow-ups."""
    kind = state.pending["kind"]
    if kind == "battle":
        go_on = action.kind == "continue"
        lead = [f"{name(seat)} continues the attack"] if go_on else []
        return lead + decide(state, go_on)
    if kind == "siege":
        state.pending = {}
        pay_siege(state, action.items)
        paid = " and ".join(f"2 {r}" for r in action.items)
        lines = [f"{name(seat)} pays {paid} for Siegecraft" if paid else f"{name(seat)} pays nothing for Siegecraft"]
        return lines + run_battle(state)
    if kind == "combat_card":
        side = str(state.pending["side"])
        state.pending = {}
        if action.kind == "nocard":
            lines = [f"{name(seat)} plays no combat card"]
        else:
            lines = CARD_HOOK[0].play(state, state.battle, side, action)
        if state.battle["kind"] == "barbarian_attack":
            return lines + run_attack(state)
        return lines + run_battle(state)
    if kind in CHAIN_KINDS:
        return apply_chain(state, seat, action)
    return apply_barbarian_choice(state, seat, action)


def resume_card_steps(state: State) -> list[Event]:
    """After a Barbarian choice made in the middle of an event card: carry on with the card
    module's queued steps (``engine.clash.card_flow.run_steps``) when that module is present and
    nothing else is pending. Looked up by name so this module does not depend on the card module."""
    if state.pending:
        return []
    try:
        flow = importlib.import_module("engine.clash.card_flow")
    except ModuleNotFoundError:
        return []
    run = getattr(flow, "run_steps", None)
    return list(run(state)) if run is not None else []


def waiting_text(state: State) -> str:
    """What the awaited seat is asked, for the status line (public: no hidden information)."""
    kind = str(state.pending.get("kind", ""))
    text = WAITING.get(kind, "")
    b = state.battle
    if b and kind in ("battle", "siege", "combat_card"):
        text += f" ({name(int(b['attacker']))} against {name(int(b['defender']))} on {str(b['space']).upper()})"
    return text


def timeout_choice(state: State) -> Action:
    """Decision: on a missed deadline the safest choice: stop the attack, pay no Siegecraft, play
    no card, keep the settlement; other choices take the first option listed."""
    opts = combat_options(state)
    for pref in (Action("retreat"), Action("siege"), Action("nocard")):
        if pref in opts:
            return pref
    keep = [a for a in opts if a.kind == "keep_camp"]
    return keep[0] if keep else opts[0]
