"""Role cards: the starting assignment (5.5, AD-44) and the reassignment of every round
from round 2 (7.3), with the holder's choice among tied challengers.

Why the scores are taken once per round: 7.2 computes them at the start of the round over the
current board, and each role is decided on its own.
"""

from __future__ import annotations

from engine.core.rng import Rng
from engine.mare_nostrum.board import scores
from engine.mare_nostrum.data import CIV_DATA, ROLES
from engine.mare_nostrum.state import State


def assign_starting_roles(s: State, *, from_aids: bool) -> None:
    """Basic setup: roles named by the present players' aids; the open roles by count among
    role-less players, unique best first, else the first open role by lot (AD-44)."""
    roles: dict[str, str] = {}
    if from_aids:
        for civ in s.seats:
            role = CIV_DATA[civ].role
            if role:
                roles[role] = civ
    table = {c: scores(s, c) for c in s.seats}
    rng = Rng(s.rng)
    while len(roles) < len(ROLES):
        holders = set(roles.values())
        cands = [c for c in s.seats if c not in holders]
        open_roles = [r for r in ROLES if r not in roles]
        done = False
        for role in open_roles:
            best = max(table[c][role] for c in cands)
            top = [c for c in cands if table[c][role] == best]
            if len(top) == 1:
                roles[role] = top[0]
                done = True
                break
        if not done:
            role = open_roles[0]
            best = max(table[c][role] for c in cands)
            top = [c for c in cands if table[c][role] == best]
            roles[role] = rng.choice(top)
    s.rng = rng.state
    s.roles = {r: roles[r] for r in ROLES}


def reassign(s: State) -> list[tuple[str, str, list[str]]]:
    """7.3 for every role. Returns the ties the current holder must break:
    ``(role, holder, candidates)``; the other roles are already settled in ``s.roles``."""
    table = {c: scores(s, c) for c in s.seats}
    ties: list[tuple[str, str, list[str]]] = []
    for role in ROLES:
        holder = s.roles[role]
        best = max(table[c][role] for c in s.seats)
        if table[holder][role] == best:
            continue
        top = [c for c in s.seats if table[c][role] == best]
        if len(top) == 1:
            s.roles[role] = top[0]
        else:
            ties.append((role, holder, top))
    return ties
