"""The "agreed draw" table option (spec 12, V3 and AD-31): the players may agree to end the
game with no winner.

Why a vote: the printed rules let players who "finish at the same time" agree a shared win;
the engine's sequential builds make that moment impossible (V2), so the spec offers the
agreement as a table option instead. Decisions (the spec names the option only):

* Decision: a seat proposes a draw only on one of its own decisions (``propose draw``, listed
  with its other moves), at most once per round, so a proposal cannot be repeated to stall.
* Decision: every other seat then votes at once (``accept draw`` / ``decline draw``, all in
  ``to_move`` together); one refusal ends the vote and play resumes exactly where it stopped;
  when all have accepted, the game ends as a draw (every seat tied first).
* Decision: a vote left unanswered at a deadline counts as a refusal.
"""

from __future__ import annotations

from engine.core.events import Event, public
from engine.mare_nostrum.actions import Action
from engine.mare_nostrum.commerce import name
from engine.mare_nostrum.state import State

PROPOSE = Action("draw", ("propose",))
ACCEPT = Action("draw", ("accept",))
DECLINE = Action("draw", ("decline",))


def vote_open(s: State) -> bool:
    """Whether a draw vote is under way."""
    return "draw" in s.pending


def voters(s: State) -> list[str]:
    """The civilizations still to vote, in seat order."""
    votes = s.pending["draw"]["votes"]
    return [c for c in s.seats if c not in votes]


def vote_actions(s: State, civ: str) -> list[Action]:
    """The vote of ``civ`` while a proposal is open."""
    return [ACCEPT, DECLINE] if civ in voters(s) else []


def may_propose(s: State, civ: str) -> bool:
    """The option is on, the game is under way and ``civ`` has not proposed this round."""
    return (bool(s.options.get("agreed_draw")) and s.phase not in ("setup", "over") and not vote_open(s)
            and s.pending.get("draw_asked", {}).get(civ) != s.round)


def apply_draw(s: State, civ: str, a: Action) -> list[Event]:
    """A proposal opens the vote; a refusal closes it; the last acceptance ends the game."""
    if a == PROPOSE:
        s.pending.setdefault("draw_asked", {})[civ] = s.round
        s.pending["draw"] = {"by": civ, "votes": {civ: "accept"}}
        return [public(f"{name(civ)} proposes a draw. Everyone else: `accept draw` or `decline draw`.", "draw")]
    if a == DECLINE:
        del s.pending["draw"]
        return [public(f"{name(civ)} declines the draw; play goes on.", "draw")]
    s.pending["draw"]["votes"][civ] = "accept"
    if voters(s):
        return [public(f"{name(civ)} accepts the draw.", "draw")]
    del s.pending["draw"]
    s.phase = "over"
    s.pending["drawn"] = True
    return [public(f"{name(civ)} accepts the draw. Every player agreed: the game ends in a draw.", "draw")]


def is_drawn(s: State) -> bool:
    """Whether the game ended by an agreed draw."""
    return bool(s.pending.get("drawn"))
