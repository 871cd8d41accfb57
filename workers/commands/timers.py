"""Commands about time and absent players: timer, away, back, pause, resume, mute,
substitute, myturns, personal settings (time zone, quiet hours, reminder times), and the
reminder a player receives.

Why a mixin placed first in ``Commands``: ``new``, ``settings``, ``status`` and the reminder
builder gain the timer options here without touching the other command modules; each
override calls the original and only adds to it.
"""

from __future__ import annotations

from typing import Any

from workers import clock, pipeline, timing
from workers.commands.base import CommandBase
from workers.commands.context import Context
from workers.commands.play import move_entries
from workers.pipeline import Loaded, Rejected
from workers.replies import Part, Reply, error, say
from workers.store import k_meta, k_user
from workers.timing import DAY, HOUR, BadSetting, format_duration

TIMER_USAGE = (
    "`timer` takes a preset — `off`, `relaxed` (72 h), `standard` (24 h), `fast` (1 h), `blitz` (5 min) — "
    "or a duration like `90m` or `2d`, and optionally `bank=2h` (a reserve per player), `vacation=7d`, "
    "`misses=2` and `quiet_deadlines=on`, e.g. `timer fast bank=10m`."
)
TABLE_OPTIONS = ("timer", "bank", "vacation", "misses", "quiet_deadlines")


def parse_timer(word: str) -> tuple[float, str] | None:
    """(seconds per turn, label) for a preset name or a duration (``0``/``off``: no timer)."""
    low = word.lower()
    if low in timing.PRESETS:
        return timing.PRESETS[low], low
    secs = timing.parse_duration(low)
    if secs is None:
        return None
    if secs == 0:
        return 0.0, "off"
    if not 60 <= secs <= timing.MAX_TURN:
        return None
    return secs, "custom"


def _table_options(args: dict[str, str]) -> dict[str, Any]:
    """Validated table clock options of ``new`` (raise ``BadSetting`` with the reason)."""
    out: dict[str, Any] = {}
    if "timer" in args:
        parsed = parse_timer(args["timer"])
        if parsed is None:
            raise BadSetting(TIMER_USAGE)
        out["turn_hours"] = repr(parsed[0] / HOUR)
        out["timer"] = parsed[1]
    if "bank" in args:
        bank = timing.parse_duration(args["bank"])
        if bank is None or not 0 <= bank <= timing.MAX_BANK:
            raise BadSetting("`bank` is a reserve per player up to 30 days, e.g. `bank=2h` (`bank=0` for none).")
        out["bank_secs"] = f"{bank:.0f}" if bank else None
    if "vacation" in args:
        days = timing.parse_duration(args["vacation"], bare=DAY)
        if days is None or not 0 <= days <= timing.MAX_AWAY:
            raise BadSetting("`vacation` is each player's vacation budget, up to 60 days, e.g. `vacation=7d`.")
        out["vacation_days"] = repr(days / DAY)
    if "misses" in args:
        raw = args["misses"]
        if not (raw.isascii() and raw.isdigit() and int(raw) <= 20):
            raise BadSetting(
                "`misses` is how many deadlines in a row a player may miss before the automatic player "
                "takes the seat (0 = never, up to 20), e.g. `misses=2`."
            )
        out["miss_limit"] = raw
    if "quiet_deadlines" in args:
        raw = args["quiet_deadlines"].lower()
        if raw not in ("on", "off", "yes", "no", "true", "false"):
            raise BadSetting("`quiet_deadlines=on` moves a deadline that falls in a player's quiet hours to their end.")
        out["quiet_deadlines"] = "1" if raw in ("on", "yes", "true") else None
    return out


class TimerCommands(CommandBase):
    """Timers, vacations, pauses, substitutes and reminders."""

    # ------------------------------------------------------------ new (override)
    def cmd_new(self, ctx: Context, rest: str) -> Reply:
        words = rest.split()
        ours: dict[str, str] = {}
        kept = []
        for w in words:
            key, sep, value = w.partition("=")
            if sep and key.lower() in TABLE_OPTIONS:
                ours[key.lower()] = value
            else:
                kept.append(w)
        try:
            fields = _table_options(ours)
        except BadSetting as exc:
            return error(str(exc), "command/usage")
        reply: Reply = super().cmd_new(ctx, " ".join(kept))  # type: ignore[misc]
        gid = self.store.chat_game(ctx.platform, ctx.chat)
        ok = bool(reply) and reply[0].ok and gid is not None
        if ok and gid is not None:
            sets = {k: v for k, v in fields.items() if v is not None}
            if sets:
                self.store.r.hset(k_meta(gid), mapping=sets)
            turn = float(self.store.meta(gid).get("turn_hours") or 0) * HOUR
            reply.append(Part(text=self._clock_summary(self.store.meta(gid), turn)))
        return reply

    def _clock_summary(self, meta: dict[str, str], turn: float) -> str:
        return timing.table_summary({**meta, "turn_hours": repr(turn / HOUR)})

    # --------------------------------------------------------------- timer
    def cmd_timer(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        meta = self.store.meta(gid)
        if not tail:
            turn = float(meta.get("turn_hours") or 0) * HOUR
            return say(self._clock_summary(meta, turn) + " The table's creator can change it: " + TIMER_USAGE)
        opts: dict[str, str] = {}
        for word in tail.split():
            key, sep, value = word.partition("=")
            key = key.lower() if sep else "timer"
            if key not in TABLE_OPTIONS or key in opts or not (value if sep else word):
                return error(TIMER_USAGE, "command/usage")
            opts[key] = value if sep else word
        try:
            fields = _table_options(opts)
        except BadSetting as exc:
            return error(str(exc), "command/usage")
        if meta.get("status") == "lobby":
            if meta.get("creator") != ctx.user_key and not ctx.admin:
                return error(
                    "Only the player who opened this table (or a chat admin) can change the timer.", "auth/not_creator"
                )
            sets = {k: v for k, v in fields.items() if v is not None}
            dels = [k for k, v in fields.items() if v is None]
            if sets:
                self.store.r.hset(k_meta(gid), mapping=sets)
            if dels:
                self.store.r.hdel(k_meta(gid), *dels)
            meta = self.store.meta(gid)
            return say(self._clock_summary(meta, float(meta.get("turn_hours") or 0) * HOUR))
        return say(clock.set_timer(self.store, gid, ctx.user_key, fields, admin=ctx.admin).reply)

    # ------------------------------------------------------------ vacation
    def cmd_away(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        secs = timing.parse_duration(tail, bare=DAY) if tail else None
        if secs is None or secs < 60:
            return error(
                "Say how long you will be away, e.g. `away 3d` or `away 12h` (your clock stops meanwhile).",
                "command/usage",
            )
        if secs > timing.MAX_AWAY:
            return error(
                f"`away` takes at most {format_duration(timing.MAX_AWAY)}; ask the table to `pause` for longer. "
                "Nothing was changed.",
                "away/too_long",
            )
        return say(clock.away(self.store, gid, ctx.user_key, secs).reply, private=ctx.private)

    def cmd_back(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return say(clock.back(self.store, gid, ctx.user_key).reply)

    def cmd_pause(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return say(clock.vote(self.store, gid, ctx.user_key, pause=True).reply)

    def cmd_resume(self, ctx: Context, rest: str) -> Reply:
        gid, _ = self._game_for(ctx, rest)
        return say(clock.vote(self.store, gid, ctx.user_key, pause=False).reply)

    def cmd_mute(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        scope = (tail or "turn").lower()
        if scope not in ("turn", "game", "off"):
            return error(
                "`mute` silences reminders: `mute` or `mute turn` (this turn), `mute game`, `mute off`.",
                "command/usage",
            )
        return say(clock.mute(self.store, gid, ctx.user_key, scope).reply, private=ctx.private)

    # ----------------------------------------------------------- substitute
    def cmd_substitute(self, ctx: Context, rest: str) -> Reply:
        gid, tail = self._game_for(ctx, rest)
        words = tail.split()
        usage = (
            "Say which seat and who takes it: `substitute 2 @name` (the seat number or its name). "
            "With one seat on autopilot, `substitute @name` is enough."
        )
        if not words or len(words) > 2:
            return error(usage, "command/usage")
        loaded = pipeline.load(self.store, gid)
        if len(words) == 1:
            idle = [s for s in loaded.seats if loaded.meta.get(f"auto:{s}") == "1"]
            if len(idle) != 1:
                return error(usage, "command/usage")
            seat = idle[0]
        else:
            found = self._seat(loaded, words[0])
            if found is None:
                return error(f"There is no seat `{words[0][:20]}`. " + usage, "sub/seat")
            seat = found
        who = clock.find_user(self.store, ctx.platform, words[-1])
        if who is None:
            return error(
                f"I don't know `{words[-1][:30]}` yet: they must write to me once (e.g. `help`) before "
                "taking a seat. Nothing was changed.",
                "sub/unknown_user",
            )
        return say(clock.substitute(self.store, gid, ctx.user_key, seat, who[0], who[1], admin=ctx.admin).reply)

    def _seat(self, loaded: Loaded, word: str) -> int | None:
        if word.isascii() and word.isdigit():
            n = int(word) - 1
            return n if n in loaded.seats else None
        names = [n.lower() for n in loaded.game.seat_names(loaded.state)]
        return names.index(word.lower()) if word.lower() in names else None

    # -------------------------------------------------------------- myturns
    def cmd_myturns(self, ctx: Context, rest: str) -> Reply:
        now = self.store.now()
        rows: list[tuple[float, str]] = []
        settings = self.store.user(ctx.user_key)
        for gid in self.store.user_games(ctx.user_key):
            try:
                loaded = pipeline.load(self.store, gid)
            except Rejected:
                continue
            if loaded.meta.get("status") != "active":
                continue
            mine = [s for s in loaded.seats_of(ctx.user_key) if s in loaded.game.to_move(loaded.state)]
            if not mine:
                continue
            since = clock.waiting_since(loaded.meta)
            sc = timing.seat_clock(loaded.meta, mine[0], settings, now)
            left = (
                "no deadline"
                if sc.deadline is None
                else f"{format_duration(sc.deadline - now)} left"
                if sc.deadline > now
                else "time is up"
            )
            paused = " (paused)" if loaded.meta.get("paused_at") else ""
            rows.append(
                (
                    since,
                    f"• `{gid}` {loaded.game.info.name}: waiting {format_duration(now - since)}, {left}{paused}"
                    f" — {_where(loaded.meta.get('home', ''), ctx.platform)}",
                )
            )
        if not rows:
            return say("No game is waiting for you right now.", private=ctx.private)
        rows.sort()
        return say("Waiting for you, longest first:\n" + "\n".join(r for _, r in rows), private=ctx.private)

    # ------------------------------------------------------------- settings
    def cmd_settings(self, ctx: Context, rest: str) -> Reply:
        fields: dict[str, str] = {}
        usage = (
            "Settings are `tz=Europe/Athens` (or an offset like `tz=+2`), `quiet=23:00-08:00` (no reminders "
            "then; `quiet=off` clears it) and `remind=half,1h` (when to remind you before a deadline; "
            "`remind=off`). Nothing was changed."
        )
        try:
            for arg in rest.split():
                key, sep, value = arg.partition("=")
                key = key.lower()
                if not sep or not value:
                    return error(usage, "command/usage")
                if key == "tz":
                    fields["tz"] = timing.parse_zone(value)
                elif key == "quiet":
                    fields["quiet"] = "" if value.lower() == "off" else timing.parse_quiet(value)
                elif key == "remind":
                    fields["remind"] = timing.parse_leads(value)
                else:
                    return error(usage, "command/usage")
        except BadSetting as exc:
            return error(str(exc) + " Nothing was changed.", "settings/invalid")
        if fields:
            self.store.r.hset(k_user(ctx.user_key), mapping=fields)
        user = self.store.user(ctx.user_key)
        tz = user.get("tz") or "UTC"
        shown_tz = f"UTC{tz}" if tz[:1] in "+-" else tz
        leads = timing.leads(user)
        remind = ", ".join("at half time" if x == "half" else f"{format_duration(float(x[:-1]))} before" for x in leads)
        now_local = timing.wall_text(self.store.now(), user)
        return say(
            f"Time zone: {shown_tz} (your time now: {now_local}). Quiet hours: {user.get('quiet') or 'none'}. "
            f"Reminders: {remind or 'off'}.",
            private=ctx.private,
        )

    # --------------------------------------------------------------- status
    def _status_text(self, loaded: Loaded, seat: int | None) -> str:
        base: str = super()._status_text(loaded, seat)  # type: ignore[misc]
        lines = [x for x in base.split("\n") if not x.startswith("Time left for this turn")]
        if loaded.meta.get("status") != "active":
            return "\n".join(lines)
        meta, now = loaded.meta, self.store.now()
        names = pipeline.display_names(self.store, loaded)
        turn = float(meta.get("turn_hours") or 0) * HOUR
        extra = [f"Timer: {timing.describe_timer(turn)}."]
        if meta.get("paused_at"):
            extra.append(f"⏸ Paused for {format_duration(now - float(meta['paused_at']))}; `resume` to go on.")
        for s in sorted(loaded.game.to_move(loaded.state)):
            if loaded.automatic(s):
                continue
            sc = timing.seat_clock(meta, s, self.store.user(loaded.seats[s]), now)
            if sc.deadline is not None and not meta.get("paused_at"):
                bank = timing.bank_left(meta, s)
                extra.append(
                    f"{names[s]}: {format_duration(max(sc.deadline - now, 0))} left"
                    + (f" (including a time bank of {format_duration(bank)})" if bank else "")
                    + "."
                )
        for s in sorted(loaded.seats):
            until = timing.fnum(meta, f"away_until:{s}")
            if until > now:
                extra.append(f"🏖 {names[s]} is away for {format_duration(until - now)} more.")
            if meta.get(f"auto:{s}") == "1" and loaded.seats[s] != pipeline.BOT:
                extra.append(f"🤖 {names[s]} is on autopilot until they type `back`.")
        return "\n".join(lines + extra)

    # ------------------------------------------------------------- reminder
    def reminder_part(self, message: dict[str, Any]) -> Part | None:
        """The reminder: which game and chat, what is awaited, how long is left, with the move
        buttons. Without a private chat it is a mention in the game's chat that shows no
        private move. None when the seat has moved since (a reminder is never stale)."""
        gid, seat = message["game"], int(message["seat"])
        loaded = pipeline.load(self.store, gid)
        game, state = loaded.game, loaded.state
        if loaded.meta.get("status") != "active" or seat not in game.to_move(state):
            return None
        turn_v = message.get("turn_v")
        if turn_v is not None and str(turn_v) != loaded.meta.get("turn_v"):
            return None
        if turn_v is None and loaded.version != int(message.get("version", -1)):
            return None
        user = str(message.get("user", loaded.seats.get(seat, "")))
        settings = self.store.user(user)
        secs = message.get("seconds_left")
        if secs is None and message.get("hours_left"):
            secs = float(message["hours_left"]) * HOUR
        left = ""
        if secs is not None:
            sc = timing.seat_clock(loaded.meta, seat, settings, self.store.now())
            when = f" (at {timing.wall_text(sc.deadline, settings)} your time)" if sc.deadline else ""
            left = f" {format_duration(float(secs))} left{when}."
        where = _where(loaded.meta.get("home", ""), str(message.get("user", "")).partition(":")[0])
        head = (
            f"⏰ Reminder: {game.info.name} `{gid}` ({where}) is waiting for you: "
            f"{game.status(state, seat)}{left or ' There is no deadline.'}"
        )
        entries = move_entries(loaded, seat)
        if settings.get("dm"):
            ctx = Context("", "", "", "", private=True)
            moves = self._moves_reply(loaded, seat, entries, ctx)[0]  # type: ignore[attr-defined]
            return Part(text=head + "\n" + moves.text, private=True, buttons=moves.buttons)
        name = settings.get("name") or pipeline.display_names(self.store, loaded)[seat]
        public = [e for e in entries if not e.private]
        text = f"⏰ {name}, " + head[len("⏰ Reminder: ") :]
        if public and len(public) == len(entries):
            ctx = Context("", "", "", "", private=False)
            moves = self._moves_reply(loaded, seat, public, ctx)[0]  # type: ignore[attr-defined]
            return Part(text=text + "\n" + moves.text, buttons=moves.buttons, mention=user, mention_name=name)
        return Part(
            text=text + " Open our private chat to see your choices (`moves` there).", mention=user, mention_name=name
        )


def _where(home: str, viewer: str = "") -> str:
    """Where a game lives, said so a player can get there from ``viewer``'s platform: a link to
    a Telegram supergroup, a clickable channel on Discord (``<#id>`` shows as a link there only),
    else which kind of chat it is (a chat id means nothing to a player)."""
    platform, _, chat = home.partition(":")
    if platform == "telegram" and chat.startswith("-100"):
        return f"https://t.me/c/{chat[4:]}"
    if platform == "telegram":
        return "its Telegram group"
    if platform == "discord":
        return f"<#{chat}>" if viewer == "discord" and chat.isdigit() else "its Discord channel"
    if platform == "console":
        return "this terminal"
    return f"its {platform} chat"
