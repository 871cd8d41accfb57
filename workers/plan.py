"""What a committed step sends and schedules: board posts, prompts, private notes, notices,
the clock of the next step and the deadline index.

Why a module of its own: moves, undo, resign and the start of a game all plan their
follow-ups with :func:`plan_after_step`, so every table sees the same messages and every
awaited seat the same deadline whatever made the change; it reads only what the game and
its clock settings say (one read of the awaited players' settings).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine import AnyGame, Event
from workers.loading import BOT, Loaded, automatic
from workers.store import POSTED_TTL, Outgoing, Store
from workers.timing import HOUR, SAFETY, next_due, seat_clock, table_deadline


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
    *,
    acting: int | None = None,
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
        outgoing += turn_posts(loaded, nv, posted_v + 1)
        for seat in sorted(after):
            user = loaded.seats.get(seat, BOT)
            if not loaded.automatic(seat):
                outgoing.append(_msg(user, nv, {"type": "prompt", "game": gid, "user": user, "seat": seat}))
    else:
        if after:
            # Nobody new is awaited, but what a seat is awaited for may have changed: the last
            # chooser of a simultaneous step who must now pay or take debt alone, the next step of
            # a multi-step turn. Without a prompt that seat sat with "You chose: …" and no buttons
            # while the game waited for it (a silent stall).
            for seat in sorted(after):
                user = loaded.seats.get(seat, BOT)
                if loaded.automatic(seat):
                    continue  # no prompt for an automatic player: its legal moves are not compared
                if _awaited_for(game, loaded.state, seat) != _awaited_for(game, new_state, seat):
                    # ``step``: the same turn goes on; an adapter may show it in place of the
                    # pressed buttons instead (it waits a moment for that, see ``at``).
                    prompt = {"type": "prompt", "game": gid, "user": user, "seat": seat}
                    outgoing.append(_msg(user, nv, {**prompt, "step": True, "at": round(now, 3)}))
        # The last one still to choose in a simultaneous step: everyone is waiting for them.
        if len(before) > 1 and len(after) == 1 and after < before:
            (last,) = after
            user = loaded.seats.get(last, BOT)
            # Decision: only when other people are at the table; against automatic players
            # alone, who always choose at once, it would come every round.
            people = [s for s in loaded.seats if s != last and not loaded.automatic(s)]
            if not loaded.automatic(last) and people:
                text = f"⏳ Everyone else has chosen in {game.info.name} `{gid}`: the table is waiting for you."
                outgoing.append(
                    Outgoing(
                        user.split(":", 1)[0],
                        {
                            "type": "private",
                            "game": gid,
                            "user": user,
                            "seat": last,
                            "text": text,
                            "key": f"{gid}:{nv}:waiting:{last}",
                        },
                    )
                )
        # No board this time: a timeout or autopilot notice must still reach the table now.
        notes = [e.text for e in events if e.seats is None and e.kind in ("timeout", "autopilot")]
        if notes:
            # Every table of the game hears it, each on its own platform (as turn posts do).
            for i, (platform, chat) in enumerate(loaded.tables):
                key = f"{gid}:{nv}:notice" + (f"@{platform}:{chat}" if i else "")
                notice = {"type": "notice", "game": gid, "chat": chat, "text": "\n".join(notes), "key": key}
                outgoing.append(Outgoing(platform, notice))
    if acting is not None:
        meta.update(_charge_bank(loaded, acting, before, now))
    deadline = None
    if not over and after:
        turn_meta = clock_meta(loaded, after, before, now, nv)
        meta.update(turn_meta)
        # A turn that starts with this commit (``turn_v`` is the new version) has no reminder
        # sent yet: nothing to look up.
        fresh = str(turn_meta.get("turn_v", "")) == str(nv)
        deadline = index_time(store, gid, {**loaded.meta, **turn_meta}, loaded.seats, after, now, fresh=fresh)
    else:
        meta.update({"deadline_at": None, "remind_at": None, "safety_at": None, "turn_at": None})
    keep = POSTED_TTL if "posted_v" in meta else 0
    return Plan(meta, deadline, outgoing, keep)


def _awaited_for(game: AnyGame, state: Any, seat: int) -> list[str]:
    """What ``seat`` is awaited for: its legal moves (the same choices mean the same wait)."""
    return [repr(a) for a in game.legal_actions(state, seat)]


def turn_posts(loaded: Loaded, version: int, since: int) -> list[Outgoing]:
    """The turn post for every table of the game, each on its own platform. The home chat's
    key stays ``{gid}:{v}:turn``; another table's names its chat, so each is sent once."""
    out = []
    for i, (platform, chat) in enumerate(loaded.tables):
        key = f"{loaded.gid}:{version}:turn" + (f"@{platform}:{chat}" if i else "")
        out.append(Outgoing(platform, {"type": "turn", "game": loaded.gid, "chat": chat, "since": since, "key": key}))
    return out


def _msg(user: str, version: int, message: dict[str, Any]) -> Outgoing:
    platform = user.split(":", 1)[0]
    return Outgoing(platform, {**message, "key": f"{message['game']}:{version}:{message['type']}:{message['seat']}"})


def clock_meta(
    loaded: Loaded, after: frozenset[int], before: frozenset[int], now: float, version: int
) -> dict[str, Any]:
    """The step's clock fields after a commit.

    Issue 9 item 1: a human's deadline is always the table's timer (``turn_hours``), set when a
    human becomes awaited and kept while the same step goes on; the automatic players' 15 s
    safety net is ``safety_at``, apart, so a bot at the table can never shorten a human's turn.
    """
    autos = {s for s in after if loaded.automatic(s)}
    humans = after - autos
    meta: dict[str, Any] = {"remind_at": None, "safety_at": f"{now + SAFETY:.3f}" if autos else None}
    # The same step goes on while nobody new is awaited (a simultaneous pick made by another
    # seat, or the next part of the same player's turn); a new round starts a fresh clock.
    still = after <= before and bool(loaded.meta.get("turn_at"))
    if not humans:
        meta.update({"deadline_at": None, "turn_at": None})
        return meta
    if still:
        return meta
    turn = float(loaded.meta.get("turn_hours", "0") or 0) * HOUR
    meta.update({"turn_at": f"{now:.3f}", "turn_v": version, "deadline_at": f"{now + turn:.3f}" if turn > 0 else None})
    for seat in humans:
        away = float(loaded.meta.get(f"away_until:{seat}") or 0)
        meta[f"ext:{seat}"] = f"{away - now:.3f}" if away > now else None
    return meta


def _charge_bank(loaded: Loaded, seat: int, before: frozenset[int], now: float) -> dict[str, Any]:
    """A move made after the step's deadline draws the overrun from the seat's time bank."""
    if seat not in before or loaded.automatic(seat) or not float(loaded.meta.get("bank_secs") or 0):
        return {}
    base = table_deadline(loaded.meta, seat)
    if base is None or now <= base:
        return {}
    used = float(loaded.meta.get(f"bank_used:{seat}") or 0) + (now - base)
    return {f"bank_used:{seat}": f"{min(used, float(loaded.meta['bank_secs'])):.3f}"}


def index_time(
    store: Store,
    gid: str,
    meta: Mapping[str, Any],
    seats: Mapping[int, str],
    after: frozenset[int],
    now: float,
    *,
    fresh: bool = False,
) -> float | None:
    """The next moment the sweep must look at the game: the bots' safety net, and each awaited
    human's next unsent reminder or timeout (none while the table is paused).

    ``fresh``: the step's turn (``turn_v``) starts with the commit being planned, so no
    reminder of it can have been sent (the sweep marks reminders of committed turns only, and
    versions never repeat): the marks are not read, one round trip less on most turns."""
    flat = {k: str(v) for k, v in meta.items() if v is not None and v != ""}
    times: list[float] = []
    if flat.get("safety_at"):
        times.append(float(flat["safety_at"]))
    if not flat.get("paused_at"):
        # Every awaited human's settings in one round trip, then every sent-reminder mark in
        # one more (7 Wonders awaits up to 7 seats at once: two reads per seat were 14).
        humans = [s for s in sorted(after) if not automatic(flat, seats, s)]
        turn_v = flat.get("turn_v", "")
        clocks = [
            seat_clock(flat, seat, user, now)
            for seat, user in zip(humans, store.users([seats[s] for s in humans]), strict=True)
        ]
        # Decision: only the marks of reminders already due are read (issue 12: on most moves
        # none is, and the read was a round trip of every move that did not start a turn). A
        # mark of one not due yet (sent under an earlier deadline or other settings: `extend`,
        # a vacation, quiet hours) is taken for unsent: the sweep then looks at the game once
        # more at that time and sends nothing, since every reminder is claimed by its mark.
        wanted = [
            (seat, [k for k, at in clock.reminders if at <= now]) for seat, clock in zip(humans, clocks, strict=True)
        ]
        marks = [set() for _ in wanted] if fresh else _sent_marks(store, gid, turn_v, wanted)
        for clock, sent in zip(clocks, marks, strict=True):
            t = next_due(clock, sent)
            if t is not None:
                times.append(t)
    return min(times) if times else None


def _sent_marks(store: Store, gid: str, turn_v: str, wanted: list[tuple[int, list[str]]]) -> list[set[str]]:
    """:func:`sent_leads` of several seats in one round trip (none when nothing is asked)."""
    flat_keys = [(seat, lead) for seat, leads in wanted for lead in leads]
    if not flat_keys:
        return [set() for _ in wanted]
    marks = store.r.mget([k_remind_lead(gid, turn_v, seat, lead) for seat, lead in flat_keys])
    sent: dict[int, set[str]] = {seat: set() for seat, _ in wanted}
    for (seat, lead), mark in zip(flat_keys, marks, strict=True):
        if mark:
            sent[seat].add(lead)
    return [sent[seat] for seat, _ in wanted]


def k_remind_lead(gid: str, turn_v: str, seat: int, lead: str) -> str:
    """De-duplication of one reminder: one step (``turn_v``), one seat, one lead time."""
    from workers.store import partition, tag

    # In the game's partition, so the marks of one seat are read with one MGET on a cluster.
    return f"{tag(partition(gid))}remind:{gid}:{turn_v}:{seat}:{lead}"


def sent_leads(store: Store, gid: str, turn_v: str, seat: int, keys: list[str]) -> set[str]:
    if not keys:
        return set()
    marks = store.r.mget([k_remind_lead(gid, turn_v, seat, k) for k in keys])
    return {k for k, m in zip(keys, marks, strict=True) if m}
