"""The one move pipeline: load -> authorize -> parse -> apply -> commit -> follow-ups.

Why one function for every change (typed move, button, timeout, automatic player): the
checks, the optimistic-concurrency commit and the outbox messages are then identical for all
of them, so "accepted" always means committed, and a race or a redelivery can never apply a
move twice (ARCHITECTURE.md, "One move pipeline").

Concurrency: the commit compares the version read at load time. When another move won the
race, the commit answers ``stale`` and this move is re-validated against the new state
(parsed and applied again), so nothing is lost and nothing stale is applied.
Idempotency: the caller's key (the platform's update or interaction id) is checked inside the
same atomic step; a second submission with the same key returns the first one's result.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine import AnyGame, EngineError, Event, find_game
from workers.store import IMAGE_TTL, Outgoing, Store

log = logging.getLogger(__name__)

MAX_RACES = 25
BOT = "bot"


@dataclass(slots=True)
class MoveResult:
    """What the submitter is told. ``message`` is always safe to show to that user."""

    ok: bool
    code: str
    message: str
    version: int = 0
    seat: int | None = None
    notation: str = ""
    duplicate: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "code": self.code,
            "message": self.message,
            "version": self.version,
            "seat": self.seat,
            "notation": self.notation,
            "duplicate": self.duplicate,
            "events": self.events,
            "over": self.over,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MoveResult:
        return cls(**{k: data[k] for k in cls.__slots__ if k in data})  # type: ignore[attr-defined]


class Rejected(Exception):
    """A submission refused before any engine call (no game, not a player...)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Loaded:
    """A game read from the store at one version."""

    gid: str
    meta: dict[str, str]
    game: AnyGame
    version: int
    state: Any
    seats: dict[int, str]

    @property
    def home(self) -> tuple[str, str]:
        platform, _, chat = self.meta.get("home", "console:local").partition(":")
        return platform, chat

    def seats_of(self, user: str) -> list[int]:
        return sorted(s for s, u in self.seats.items() if u == user)


def load(store: Store, gid: str) -> Loaded:
    """Read meta, seats and the snapshot of ``gid``.

    Raises:
        Rejected: no such game, or it has not started.
    """
    # One MULTI for meta, snapshot and seats: read apart, a commit landing in between paired
    # the old meta (posted_v, deadline_at, status) with the new state and version.
    meta, version, snap, seats = store.game_record(gid)
    if not meta:
        raise Rejected("game/not_found", f"There is no game `{gid}`.")
    if meta.get("status") == "lobby":
        raise Rejected("game/not_started", "The game has not started yet. Use `begin` once everyone has joined.")
    if snap is None:
        raise Rejected("game/not_found", f"Game `{gid}` has no saved state.")
    game = find_game(meta["game"])
    return Loaded(gid, meta, game, version, game.load(json.loads(snap)), seats)


def display_names(store: Store, loaded: Loaded) -> list[str]:
    """``Romans (alice)`` per seat: the game's seat name plus who sits there."""
    base = loaded.game.seat_names(loaded.state)
    names = store.names(loaded.gid)
    out = []
    for seat, label in enumerate(base):
        who = names.get(str(seat))
        out.append(f"{label} ({who})" if who else label)
    return out


def submit(
    store: Store,
    gid: str,
    *,
    text: str,
    idem: str,
    user: str | None = None,
    seat: int | None = None,
    source: str = "player",
    after_commit: Callable[[Loaded, MoveResult], None] | None = None,
    before_commit: Callable[[], None] | None = None,
    at_version: int | None = None,
) -> MoveResult:
    """Apply one move given as chat text, exactly once.

    Args:
        user: the platform user key (``telegram:42``); authorizes and picks the seat.
        seat: act for this seat directly (automatic player, timeouts); skips the user check.
        source: ``player``, ``auto`` or ``timeout`` (kept in the log).
        after_commit: called once after a successful commit (render, notifications, bots).
        at_version: timeouts: act only while the game is at this version or its deadline is
            still past; otherwise answer ``pipeline/moved_on`` and change nothing.
    """
    if idem:
        prev = store.idem_result(gid, idem)
        if prev is not None:
            res = MoveResult.from_json(prev)
            res.duplicate = True
            return res
    for _ in range(MAX_RACES):
        try:
            loaded = load(store, gid)
        except Rejected as exc:
            return MoveResult(False, exc.code, exc.message)
        if loaded.meta.get("status") == "over":
            return MoveResult(False, "action/game_over", "This game is over; no more moves are accepted.")
        if at_version is not None and loaded.version != at_version and not _deadline_passed(loaded, store.now()):
            return MoveResult(False, "pipeline/moved_on", "The game moved on; nothing was done.", loaded.version)
        acting = _acting_seat(loaded, user, seat)
        if isinstance(acting, MoveResult):
            return acting
        game, state = loaded.game, loaded.state
        try:
            action = game.parse(state, acting, text)
            notation = game.notation(state, acting, action)
            step = game.apply(state, acting, action)
        except EngineError as exc:
            return MoveResult(False, exc.code, exc.user_message, loaded.version, acting)
        if before_commit:
            before_commit()
        result = _commit_step(store, loaded, acting, notation, step, idem, source)
        if result is None:
            continue  # lost a race: re-validate against the new state
        if after_commit and not result.duplicate:
            after_commit(loaded, result)
        return result
    return MoveResult(False, "store/busy", "The game is very busy right now; please send your move again.")


def _deadline_passed(loaded: Loaded, now: float) -> bool:
    deadline = loaded.meta.get("deadline_at")
    return bool(deadline) and now >= float(deadline or 0)


def _acting_seat(loaded: Loaded, user: str | None, seat: int | None) -> int | MoveResult:
    if seat is not None:
        return seat
    mine = loaded.seats_of(user or "")
    if not mine:
        return MoveResult(False, "auth/not_a_player", "You are not playing in this game.", loaded.version)
    movers = loaded.game.to_move(loaded.state)
    ready = [s for s in mine if s in movers]
    return ready[0] if ready else mine[0]


def _commit_step(
    store: Store, loaded: Loaded, seat: int, notation: str, step: Any, idem: str, source: str
) -> MoveResult | None:
    game = loaded.game
    new_state = step.state
    events: list[Event] = list(step.events)
    outcome = game.outcome(new_state)
    now = store.now()
    plan = plan_after_step(store, loaded, new_state, events, now)
    meta: dict[str, Any] = {"updated_at": f"{now:.3f}", **plan.meta}
    if outcome is not None:
        meta["status"] = "over"
        meta["result"] = json.dumps(outcome.to_json())
    result = MoveResult(
        True,
        "ok",
        f"Done: {notation}.",
        0,
        seat,
        notation,
        events=[e.to_json() for e in events if e.visible_to(seat)],
        over=outcome is not None,
    )
    committed = store.commit(
        loaded.gid,
        expected=loaded.version,
        idem=idem,
        snapshot=game.dumps(new_state),
        log_entry={"s": seat, "t": notation, "u": int(step.undoable), "k": idem, "src": source, "at": int(now)},
        events={"v": loaded.version + 1, "s": seat, "events": [e.to_json() for e in events]},
        meta=meta,
        deadline=plan.deadline,
        result=result.to_json(),
        outgoing=plan.outgoing,
        keep_snapshot=plan.keep_snapshot,
    )
    if committed.status == "stale":
        return None
    out = MoveResult.from_json(committed.data)
    out.duplicate = committed.status == "dup"
    return out


@dataclass(slots=True)
class Plan:
    """Meta fields, next deadline and outbox messages that follow from a new state."""

    meta: dict[str, Any]
    deadline: float | None
    outgoing: list[Outgoing]
    keep_snapshot: int = 0


def plan_after_step(
    store: Store,
    loaded: Loaded,
    new_state: Any,
    events: list[Event],
    now: float,
    before: frozenset[int] | None = None,
) -> Plan:
    """Decide what a committed step sends and schedules (shared by moves, undo, start).

    A board is posted to the game's home chat when a seat that was not awaited becomes awaited
    or the game ends (one message per turn, not per click, and not per secret pick of a
    simultaneous step); its caption gathers the public events since the last posted board.
    Private events go to their seat's user only. With a posted turn, every awaited seat gets a
    ``prompt`` (adapters show hands and buttons privately) and a deadline. Without one, a seat
    still gets a prompt whenever what it is awaited for changed (its legal moves differ), so
    every new decision reaches its player with buttons. Automatic players
    get a short safety deadline so a lost task cannot stall the game. ``before`` is who was
    awaited before the step (default: from ``loaded.state``; ``begin`` passes nobody).
    """
    game = loaded.game
    if before is None:
        before = game.to_move(loaded.state)
    after = game.to_move(new_state)
    over = game.outcome(new_state) is not None
    platform, chat = loaded.home
    gid = loaded.gid
    outgoing: list[Outgoing] = []
    meta: dict[str, Any] = {}
    posted_v = int(loaded.meta.get("posted_v", "0") or 0)
    nv = loaded.version + 1
    for seat, user in sorted(loaded.seats.items()):
        texts = [e.text for e in events if e.seats is not None and seat in e.seats]
        if texts and user != BOT:
            outgoing.append(
                _msg(user, nv, {"type": "private", "game": gid, "user": user, "seat": seat, "text": "\n".join(texts)})
            )
    # A board is posted when someone new is awaited (not when one of several simultaneous
    # choosers has chosen) or when the game ends.
    if not after <= before or over:
        meta["posted_v"] = nv
        outgoing.append(
            Outgoing(
                platform,
                {"type": "turn", "game": gid, "chat": chat, "since": posted_v + 1, "key": f"{gid}:{nv}:turn"},
            )
        )
        for seat in sorted(after):
            user = loaded.seats.get(seat, BOT)
            if user != BOT:
                outgoing.append(_msg(user, nv, {"type": "prompt", "game": gid, "user": user, "seat": seat}))
    elif after:
        # Nobody new is awaited, but what a seat is awaited for may have changed: the last
        # chooser of a simultaneous step who must now pay or take debt alone, the next step of
        # a multi-step turn. Without a prompt that seat sat with "You chose: …" and no buttons
        # while the game waited for it (a silent stall).
        for seat in sorted(after):
            user = loaded.seats.get(seat, BOT)
            if user != BOT and _awaited_for(game, loaded.state, seat) != _awaited_for(game, new_state, seat):
                # ``step``: the same turn goes on; an adapter may show it in place of the pressed
                # buttons instead (it waits a moment for that, see ``at``).
                prompt = {"type": "prompt", "game": gid, "user": user, "seat": seat, "step": True, "at": round(now, 3)}
                outgoing.append(_msg(user, nv, prompt))
    deadline = None
    if not over and after:
        deadline, remind, turn_meta = _deadline(loaded, after, before, now)
        meta.update(turn_meta)
        if remind is not None:
            deadline = min(deadline, remind) if deadline is not None else remind
    else:
        meta.update({"deadline_at": None, "remind_at": None})
    keep = IMAGE_TTL if "posted_v" in meta else 0
    return Plan(meta, deadline, outgoing, keep)


def _awaited_for(game: AnyGame, state: Any, seat: int) -> list[str]:
    """What ``seat`` is awaited for: its legal moves (the same choices mean the same wait)."""
    return [repr(a) for a in game.legal_actions(state, seat)]


def _msg(user: str, version: int, message: dict[str, Any]) -> Outgoing:
    platform = user.split(":", 1)[0]
    return Outgoing(platform, {**message, "key": f"{message['game']}:{version}:{message['type']}:{message['seat']}"})


def _deadline(
    loaded: Loaded, after: frozenset[int], before: frozenset[int], now: float
) -> tuple[float | None, float | None, dict[str, Any]]:
    """Next timeout and reminder. Bots: a 15 s safety net. Humans: ``turn_hours`` (0 = none)."""
    if any(loaded.seats.get(s, BOT) == BOT for s in after):
        return now + 15.0, None, {"deadline_at": f"{now + 15.0:.3f}", "remind_at": None}
    if after <= before and loaded.meta.get("deadline_at"):
        dl = float(loaded.meta["deadline_at"])
        rem = loaded.meta.get("remind_at")
        return dl, (float(rem) if rem else None), {}
    hours = float(loaded.meta.get("turn_hours", "0") or 0)
    if hours <= 0:
        return None, None, {"deadline_at": None, "remind_at": None}
    share = float(loaded.meta.get("reminder_share", "0.5") or 0.5)
    dl = now + hours * 3600
    rem = now + hours * 3600 * share
    return dl, rem, {"deadline_at": f"{dl:.3f}", "remind_at": f"{rem:.3f}"}
