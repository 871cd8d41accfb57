"""CapitalsGame: the engine protocol for The Capitals.

Why this class is thin: each rules topic lives in its own module; this class maps the
platform's protocol onto them and adds the chat-facing parts (notation forms, status, help).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.capitals import bot
from engine.capitals.actions import VERBS, Action, alias_texts, notation_text
from engine.capitals.data import BOARD, TILES
from engine.capitals.effects import activation_cost
from engine.capitals.expo import final_order
from engine.capitals.flow import advance, position_price, trim_history
from engine.capitals.grid import placements
from engine.capitals.moves import illegal_reason, is_legal, legal, row_cost, row_of
from engine.capitals.names import seat_name
from engine.capitals.setup import OPTION_HELP, initial_state
from engine.capitals.state import State, dump_state, load_state
from engine.capitals.tracks import gain_word
from engine.capitals.view import awaiting, build_view, status_lines
from engine.core.api import Game, GameInfo, Outcome, Seat
from engine.core.errors import NotYourTurn
from engine.core.events import Event
from engine.core.text import count

SUMMARY = (
    "The Capitals: 2-5 players each build a city of square tiles over 12 rounds in 3 eras, "
    "buying turn order, placing one tile a round, activating tiles with energy, attracting "
    "tourists and scoring prestige at three World Expo Evaluations."
)

HELP = """The Capitals — each round has five phases:
  Political: buy a Start-track position (price: its $ times the multiplier of your old one):
    `position p3`
  Building: take one tile from the Projects area ($0, $2 or $4 row) and place it on a free
  cell around a construction marker, next to a tile of the same type (breaking either rule
  costs 2 prestige). Cells are named like a chess board; your Hotel is on m13:
    `build market n12` (also `build market 1 -1`, the x y coordinates). A tile is named by
    the first words of its name as `moves` shows them (`build king m12` for the King George
    Mansion), any unique beginning of that, or its whole name.
  Tourism: automatic — the Highest Culture city takes tourists.
  Execution: activate tiles with energy cubes from your station; a tile costs 1 more than the
  cubes already on it, and each tourist in your city can pay one cube:
    `activate hotel`, `activate market tourists red`, `done`, `pass cube`, `pass money`
  Management: move a full construction marker to a new street corner, named by the cell whose
  top-left corner it is: `relocate o12`. Prosperity rounds: `prosper three n14` or
  `lake warehouse l12`.
Payments you cannot afford take loans automatically (-1 prestige, +$3 each).
Options: prosperity (module), variant (full draw), open_scores (default false: until the end
you see only your own prestige total)."""

GROUPS = {
    "position": "buy a Start position",
    "build": "build a tile",
    "activate": "activate a tile",
    "done": "end activations",
    "pass": "pass bonus",
    "relocate": "move a construction marker",
    "prosper": "build a prosperity tile",
    "lake": "lay a lake",
}


class CapitalsGame(Game[State, Action]):
    """The Capitals (2-5 players)."""

    id = "capitals"
    aliases = ("the-capitals", "tc")
    info = GameInfo(
        name="The Capitals",
        min_players=2,
        max_players=5,
        summary=SUMMARY,
        simultaneous=False,
        hidden_information=True,
        chance=True,
        options_help=OPTION_HELP,
    )
    verbs = VERBS

    # ----------------------------------------------------------------- rules
    def new_game(self, seed: int, players: int, options: Mapping[str, Any] | None = None) -> State:
        """A fresh game at the Building phase of round 1 (setup fixed round 1's order)."""
        from engine.capitals.flow import begin_building

        state = initial_state(seed, players, options)
        begin_building(state)
        advance(state)
        trim_history(state)
        return state

    def to_move(self, state: State) -> frozenset[Seat]:
        """The one seat whose decision is awaited."""
        cur = state.current
        return frozenset() if cur is None else frozenset({cur})

    def legal_actions(self, state: State, seat: Seat) -> list[Action]:
        """Every legal move of ``seat``."""
        return legal(state, seat)

    def is_legal(self, state: State, seat: Seat, action: Action) -> bool:
        """Same as membership in ``legal_actions``, faster for builds."""
        return is_legal(state, seat, action)

    def illegal_reason(self, state: State, seat: Seat, action: Action) -> str:
        """Why the move is refused."""
        return illegal_reason(state, seat, action)

    def _apply(self, state: State, seat: Seat, action: Action) -> list[Event]:
        from engine.capitals.moves import apply_action

        return apply_action(state, seat, action)

    def outcome(self, state: State) -> Outcome | None:
        """Most prestige wins; ties by leftover cubes, money, then Start position (§13)."""
        if state.phase != "over":
            return None
        order = final_order(state)
        scores = {i: state.players[i].pre for i in range(state.n)}
        best = order[0]
        reason = (f"{seat_name(best)} wins with {count(scores[best], 'prestige point')} "
                  "and hosts the World Expo.")
        details = {seat_name(i): dict(state.players[i].final) for i in range(state.n)}
        return Outcome(scores=scores, ranking=tuple((i,) for i in order), reason=reason, details=details)

    def clone(self, state: State) -> State:
        """Hand-written copy."""
        return state.clone()

    def reveals_hidden(self, before: State, after: State, seat: Seat, action: Action) -> bool:
        """Drawing tiles, prosperity builds and lakes show hidden things."""
        if action.kind in ("prosper", "lake"):
            return True
        return before.rng.state != after.rng.state or any(
            len(before.decks.get(e, [])) != len(after.decks.get(e, [])) for e in (1, 2, 3))

    def private_action(self, state: State, seat: Seat, action: Action) -> bool:
        """Only prosperity moves name a hidden hand tile."""
        return action.kind in ("prosper", "lake")

    # -------------------------------------------------------------- notation
    def _tile_at(self, state: State, seat: Seat, action: Action) -> str:
        """The id of the tile an activation names (empty for other moves)."""
        if action.kind == "activate" and action.cell is not None:
            placed = state.players[seat].city.get(action.cell)
            if placed is not None:
                return placed.tile
        return ""

    def notation(self, state: State, seat: Seat, action: Action) -> str:
        """Canonical text (``parse`` gives the action back): ``build king m12``."""
        return notation_text(action, self._tile_at(state, seat, action))

    def notation_forms(self, state: State, seat: Seat, action: Action) -> list[str]:
        """Canonical text plus whole names, slugs and coordinates."""
        tile = self._tile_at(state, seat, action)
        return [notation_text(action, tile), *alias_texts(action, tile)]

    def action_group(self, notation: str) -> str:
        """Heading for ``moves``: one group per tile for builds, prosperity tiles, lakes and
        activations, so the buttons offer a tile first and then its legal cells."""
        words = notation.split()
        if len(words) >= 3 and words[0] in ("build", "prosper", "lake"):
            return " ".join(words[:-1])
        if len(words) >= 2 and words[0] == "activate":
            return " ".join(words[: words.index("tourists")] if "tourists" in words else words)
        return GROUPS.get(words[0].lower() if words else "", "other")

    def action_variant(self, state: State, seat: Seat, action: Action) -> bool:
        """Activations paid with a different set of tourists are variants of one another."""
        if action.kind != "activate" or action.cell is None or action.cell not in state.players[seat].city:
            return False
        usable = sorted(t.owner for t in state.tourists
                        if t.city == seat and not t.moved and t.cell != action.cell)
        most = min(activation_cost(state.players[seat], state, seat, action.cell), len(usable))
        return action.tourists != tuple(usable[:most])

    def action_cost(self, state: State, seat: Seat, action: Action) -> str:
        """What a move spends, shown next to it in ``moves``: a Start position's price
        (``$8``, ``free``); a tile's row price and the prestige lost for each placement rule
        the cell breaks (``$2, -2 prestige: 1 placement rule broken``; nothing for a $0 tile
        on a cell that breaks no rule); an activation's energy cubes and track costs."""
        p = state.players[seat]
        if action.kind == "position":
            price = position_price(state, seat, action.pos)
            return f"${price}" if price else "free"
        if action.kind in ("build", "prosper") and action.cell is not None:
            parts = []
            row = row_of(state, action.tile) if action.kind == "build" else 0
            if row > 0:
                parts.append(f"${row_cost(row)}")
            typ = TILES[action.tile].type if action.kind == "build" else "PRO"
            broken = placements(p, typ).get(action.cell, 0)
            if broken:
                lost = broken * int(BOARD.c["penalty_per_rule"])
                parts.append(f"-{lost} prestige: {count(broken, 'placement rule')} broken")
            return ", ".join(parts)
        if action.kind == "activate" and action.cell is not None and action.cell in p.city:
            cubes = activation_cost(p, state, seat, action.cell) - len(action.tourists)
            act = TILES[p.city[action.cell].tile].act
            paid = [count(cubes, "energy cube")] if cubes else []
            paid += [gain_word(d.track, -d.d).lstrip("+") for d in (act.cost if act else ())]
            return ", ".join(paid) or "free (tourists pay the cubes)"
        return ""

    # ------------------------------------------------------------- players
    def auto_action(self, state: State, seat: Seat, seed: int) -> Action:
        """The automatic player's move."""
        if state.current != seat:
            raise NotYourTurn("This seat has nothing to do right now.")
        return bot.auto_action(state, seat, seed)

    def seat_names(self, state: State) -> list[str]:
        """Cities are named by colour."""
        return [seat_name(i) for i in range(state.n)]

    def players(self, state: State) -> int:
        """Number of seats."""
        return state.n

    # ----------------------------------------------------------------- views
    def view(self, state: State, seat: Seat | None) -> dict[str, Any]:
        """See :mod:`engine.capitals.view`."""
        return build_view(state, seat)

    def status(self, state: State, seat: Seat | None = None) -> str:
        """Round, phase and who is awaited."""
        out = self.outcome(state)
        if out is not None:
            return "The game is over. " + out.reason
        return f"Round {state.round} of 12, {build_view(state, None)['phase_name']}: {awaiting(state)}."

    def status_lines(self, state: State, seat: Seat | None) -> list[str]:
        """Each city's tracks."""
        return status_lines(state, seat)

    def private_summary(self, state: State, seat: Seat) -> str:
        """The seat's prosperity hand with each tile's requirement."""
        hand = state.players[seat].hand
        if not hand:
            return ""
        lines = ["Your prosperity tiles:"]
        for t in hand:
            req = TILES[t].req
            lines.append(f"• {TILES[t].name} — needs the {req.text() if req else 'nothing'}.")
        return "\n".join(lines)

    def help_text(self) -> str:
        """Rules summary and notation with examples."""
        return HELP

    # ------------------------------------------------------------- storage
    def _dump_state(self, state: State) -> dict[str, Any]:
        return dump_state(state)

    def _load_state(self, data: Mapping[str, Any]) -> State:
        return load_state(data)
