"""The round in order (6): role reassignment, commerce, build and discard, military; the
leaders' naming of the next player; who must act now.

Why a settle loop: phases that need no decision (income, the start of a phase, a single
remaining player to name) are carried out right after the action that reaches them, so
``to_move`` always names a seat with a real choice.
"""

from __future__ import annotations

from engine.core.events import Event, public
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.board import owned
from engine.mare_nostrum.build import discard
from engine.mare_nostrum.commerce import collect_income, name, offering
from engine.mare_nostrum.data import ROLE_NAMES
from engine.mare_nostrum.military import loss_chooser, start_turn
from engine.mare_nostrum.roles import assign_starting_roles, reassign
from engine.mare_nostrum.setup import setup_chooser
from engine.mare_nostrum.state import State


def chooser(s: State) -> list[str]:
    """Civilizations that must act now (several while offers are chosen or a draw is voted)."""
    if "draw" in s.pending:
        votes = s.pending["draw"]["votes"]
        return [c for c in s.seats if c not in votes]
    p = s.phase
    if p == "setup":
        return [setup_chooser(s)]
    if p == "roles":
        return [s.pending["ties"][0][1]]
    if p == "artemis":
        return [s.pending["artemis"]]
    if p in ("commerce_n", "give"):
        return [s.roles["commerce"]]
    if p == "offer":
        return offering(s)
    if p == "take":
        assert s.trade is not None
        return [s.trade.taker]
    if p == "ulysses":
        return [s.pending["ulysses"]["owner"]]
    if p == "gardens":
        return [s.pending["gardens"]]
    if p == "build":
        return [s.active or s.roles["political"]]
    if p == "military":
        if s.pending.get("losses"):
            return [loss_chooser(s)]
        if "helen" in s.pending:
            return [s.pending["helen"]["owner"]]
        return [s.active or s.roles["military"]]
    return []


def leader_actions(s: State) -> list[Action]:
    """The PL or ML names the next player among those who have not had their turn."""
    return [Action("next", (c,)) for c in s.seats if c not in s.done]


def apply_next(s: State, civ: str) -> list[Event]:
    if s.phase == "military":
        start_turn(s, civ)
    else:
        s.active = civ
    return [public(f"{name(civ)} is next to {'build' if s.phase == 'build' else 'move'}.", "order")]


def settle(s: State) -> list[Event]:
    """Carry out every step that needs no decision."""
    events: list[Event] = []
    for _ in range(100):
        p = s.phase
        if p == "setup":
            info = s.pending["setup"]
            if (info["mode"] == "basic" and info["choices"]) or (info["mode"] == "advanced" and info["queue"]):
                return events
            s.pending.pop("setup")
            assign_starting_roles(s, from_aids=info["mode"] == "basic")
            events.append(public("Starting roles: " + "; ".join(
                f"{ROLE_NAMES[r]} {name(c)}" for r, c in s.roles.items()) + ".", "roles"))
            s.phase = "round_start"
        elif p == "round_start":
            for pr in s.provs.values():
                pr.fresh = False
            for c in s.seats:
                s.used[c] = []
            s.start_owned = {c: owned(s, c) for c in s.seats}
            events.append(public(f"Round {s.round} begins.", "round"))
            if s.round > 1:
                before = dict(s.roles)
                ties = reassign(s)
                for r, c in s.roles.items():
                    if before[r] != c:
                        events.append(public(f"{name(c)} becomes {ROLE_NAMES[r]}.", "roles"))
                if ties:
                    s.pending["ties"] = [[r, h, cands] for r, h, cands in ties]
                    s.phase = "roles"
                    continue
            s.phase = "income"
        elif p == "roles":
            if s.pending.get("ties"):
                return events
            s.pending.pop("ties", None)
            s.phase = "income"
        elif p == "income":
            events += collect_income(s)
        elif p == "build_start":
            s.done, s.active = [], ""
            s.phase = "build"
        elif p == "build":
            if s.active or "buy" in s.pending:
                return events
            left = [c for c in s.seats if c not in s.done]
            if not left:
                events += discard(s)
            elif len(left) == 1:
                # Decision: the leader names the next player when the previous one ends the turn
                # (QA-06 allows it during the turn too); the last one is named automatically.
                s.active = left[0]
                return events
            else:
                return events
        elif p == "military_start":
            s.done, s.active = [], ""
            s.phase = "military"
        elif p == "military":
            if s.active or s.pending.get("losses") or "helen" in s.pending:
                return events
            left = [c for c in s.seats if c not in s.done]
            if not left:
                s.round += 1
                s.phase = "round_start"
            elif len(left) == 1:
                start_turn(s, left[0])
                return events
            else:
                return events
        else:
            return events
    raise AssertionError("settle did not converge")


def apply_tie(s: State, a: Action) -> list[Event]:
    role, _holder, _cands = s.pending["ties"].pop(0)
    s.roles[role] = a.args[1]
    return [public(f"{name(a.args[1])} becomes {ROLE_NAMES[role]}.", "roles")]


def tie_actions(s: State) -> list[Action]:
    role, _holder, cands = s.pending["ties"][0]
    return [Action("give_role", (role, c)) for c in cands]
