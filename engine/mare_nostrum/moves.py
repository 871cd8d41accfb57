"""Legal moves and their application, dispatched by phase.

Why one dispatcher: ``legal`` and ``apply_action`` must agree exactly (an action is legal
exactly when it is listed), so both read the same phase table.
"""

from __future__ import annotations

from engine.core.events import Event, public
from engine.mare_nostrum import build, commerce, draw, military, rounds
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.commerce import name
from engine.mare_nostrum.data import province_name
from engine.mare_nostrum.state import State


def legal_for_civ(s: State, civ: str) -> list[Action]:
    """Every legal action of ``civ`` now (empty when it need not act); with the agreed-draw
    option, a seat's own decision also lists ``propose draw`` and an open vote only the vote."""
    if draw.vote_open(s):
        return draw.vote_actions(s, civ)
    acts = _phase_actions(s, civ)
    if acts and draw.may_propose(s, civ):
        acts.append(draw.PROPOSE)
    return acts


def _phase_actions(s: State, civ: str) -> list[Action]:
    if civ not in rounds.chooser(s):
        return []
    p = s.phase
    if p == "setup":
        info = s.pending["setup"]
        if info["mode"] == "basic":
            pid, opts = info["choices"][0]
            return [Action("caravan", (pid, g)) for g in opts.split("|")]
        return build.setup_actions(s, civ)
    if p == "roles":
        return rounds.tie_actions(s)
    if p == "artemis":
        return commerce.artemis_actions(s)
    if p == "commerce_n":
        return commerce.n_actions(s)
    if p == "offer":
        return commerce.offer_actions(s, civ)
    if p == "take":
        return commerce.take_actions(s)
    if p == "ulysses":
        return [Action("ulysses", ("yes",)), Action("ulysses", ("no",))]
    if p == "give":
        return commerce.give_actions(s)
    if p == "gardens":
        return build.gardens_actions(s)
    if p == "build":
        return build.build_actions(s, civ) if s.active else rounds.leader_actions(s)
    if p == "military":
        if s.pending.get("losses"):
            return military.loss_actions(s)
        if "helen" in s.pending:
            return military.helen_actions(s)
        return military.military_actions(s, civ) if s.active else rounds.leader_actions(s)
    return []


def apply_action(s: State, civ: str, a: Action) -> list[Event]:
    """Carry out a validated action, then every automatic step that follows."""
    if a.kind == "draw":
        return draw.apply_draw(s, civ, a)
    p = s.phase
    s.last = []
    events: list[Event]
    if p == "setup":
        if a.kind == "caravan":
            s.pending["setup"]["choices"].pop(0)
            pid, goods = a.args
            s.provs[pid].caravans.append(goods)
            s.supply["caravan"] -= 1
            events = [public(f"{name(civ)} puts a caravan on {goods} in {province_name(pid)}.", "setup")]
        else:
            events = build.apply_setup_buy(s, civ, a)
    elif p == "roles":
        events = rounds.apply_tie(s, a)
    elif p == "artemis":
        events = commerce.apply_artemis(s, a)
    elif p == "commerce_n":
        events = commerce.start_trade(s, int(a.args[0]))
    elif p == "offer":
        events = commerce.apply_offer(s, civ, a)
    elif p == "take":
        events = commerce.apply_take(s, a)
    elif p == "ulysses":
        events = commerce.apply_ulysses(s, a)
    elif p == "give":
        events = commerce.apply_give(s, a)
    elif p == "gardens":
        events = build.apply_gardens(s, a)
    elif a.kind == "next":
        events = rounds.apply_next(s, a.args[0])
    elif p == "build":
        events = build.apply_build(s, civ, a)
    elif s.pending.get("losses"):
        events = military.apply_loss(s, a)
    elif "helen" in s.pending:
        events = military.apply_helen(s, a)
    else:
        events = military.apply_military(s, civ, a)
    if s.phase != "over":
        events += rounds.settle(s)
    return events
