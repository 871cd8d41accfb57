"""Turn clocks: timer presets, durations, time zones, quiet hours, and when each awaited
seat's reminders and timeout fall.

Why pure functions apart from the sweep: every time inside Agora is UTC unix seconds, and a
player's wall clock (``zoneinfo``) is looked at only here, at the edge. The commit (to mirror
the next due time into the index) and the sweep (to act) compute the same schedule from the
same game record, so they can never disagree, and DST rules are tested without Redis.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from engine.core.text import count, join_words

HOUR = 3600.0
DAY = 86400.0
SAFETY = 15.0  # the automatic players' safety net: never a human's deadline
IDLE = DAY  # with the timer off: a gentle reminder after a day of waiting, then daily
PRESETS: dict[str, float] = {
    "off": 0.0,
    "relaxed": 72 * HOUR,
    "standard": 24 * HOUR,
    "fast": 1 * HOUR,
    "blitz": 5 * 60.0,
}
DEFAULT_LEADS = ("half", "1h")
MAX_TURN = 30 * DAY
MAX_BANK = 30 * DAY
MAX_AWAY = 60 * DAY
DEFAULT_VACATION_DAYS = 7.0
DEFAULT_MISSES = 2

_UNITS = {"s": 1.0, "sec": 1.0, "m": 60.0, "min": 60.0, "h": HOUR, "hr": HOUR, "d": DAY, "w": 7 * DAY}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*(s|sec|m|min|h|hr|d|w)")


def parse_duration(text: str, *, bare: float = HOUR) -> float | None:
    """``90s``, ``5m``, ``1h30m``, ``2.5h``, ``3d``, ``1w`` in seconds; a bare number counts in
    ``bare`` units (hours by default). None when it is not a duration."""
    raw = text.strip().lower().replace(" ", "")
    if not raw or not raw.isascii():
        return None
    if re.fullmatch(r"\d+(\.\d+)?", raw):
        return float(raw) * bare
    pos, total = 0, 0.0
    for m in _PART.finditer(raw):
        if m.start() != pos:
            return None
        total += float(m.group(1)) * _UNITS[m.group(2)]
        pos = m.end()
    return total if pos == len(raw) and pos else None


def format_duration(seconds: float) -> str:
    """``2 days and 3 hours``, ``45 minutes``, ``30 seconds``: the two largest units."""
    secs = max(0, round(seconds))
    if secs < 60:
        return count(secs, "second")
    parts = []
    for unit, size in (("week", 604800), ("day", 86400), ("hour", 3600), ("minute", 60)):
        n, secs = divmod(secs, size)
        if n:
            parts.append(count(n, unit))
    return join_words(parts[:2])


def describe_timer(turn_secs: float) -> str:
    """The timer as players read it: ``standard (24 hours per turn)``."""
    if turn_secs <= 0:
        return "off (no deadline; a reminder after a day of waiting, then daily)"
    for name, secs in PRESETS.items():
        if secs == turn_secs:
            return f"{name} ({format_duration(secs)} per turn)"
    return f"{format_duration(turn_secs)} per turn"


# ------------------------------------------------------------------ zones
@lru_cache(maxsize=1)
def _zone_names() -> tuple[str, ...]:
    return tuple(sorted(available_timezones()))


class BadSetting(ValueError):
    """A setting a player typed that we refuse; the message is safe to show."""


def parse_zone(text: str) -> str:
    """A canonical zone setting: an IANA name (``Europe/Athens``) or an offset (``+05:30``).

    Raises:
        BadSetting: with a suggestion for a misspelt zone.
    """
    raw = text.strip()
    m = re.fullmatch(r"(?:utc|gmt)?([+-]?)(\d{1,2})(?:[:.](\d{1,2}))?", raw, re.IGNORECASE)
    if m and raw:
        sign = -1 if m.group(1) == "-" else 1
        hours, minutes = int(m.group(2)), m.group(3)
        mins = 30 if minutes == "5" and "." in raw else int(minutes or 0)
        if hours > 14 or mins not in (0, 15, 30, 45):
            raise BadSetting(f"`{raw[:20]}` is not a time zone offset; offsets run from -14 to +14, e.g. `tz=+5:30`.")
        return f"{'+' if sign > 0 else '-'}{hours:02d}:{mins:02d}"
    if raw.upper() in ("UTC", "GMT", "Z"):
        return "UTC"
    names = _zone_names()
    by_lower = {n.lower(): n for n in names}
    if raw.lower() in by_lower:
        return by_lower[raw.lower()]
    close = difflib.get_close_matches(raw.lower(), list(by_lower), n=3, cutoff=0.6)
    if not close:
        city = raw.rsplit("/", 1)[-1].lower()
        close = [n for n in by_lower if n.rsplit("/", 1)[-1] == city][:3] or difflib.get_close_matches(
            city, [n.rsplit("/", 1)[-1] for n in by_lower], n=3, cutoff=0.7
        )
        close = [n for n in by_lower if n.rsplit("/", 1)[-1] in close][:3] if close and "/" not in close[0] else close
    hint = f" Did you mean {join_words([f'`{by_lower[c]}`' for c in close], 'or')}?" if close else ""
    raise BadSetting(
        f"I don't know the time zone `{raw[:40]}`.{hint} Use a name like `Europe/Athens` or an offset like `+2`."
    )


def zone(setting: str | None) -> tzinfo:
    """The tzinfo of a stored setting (legacy plain offsets like ``+2`` included); UTC if unset."""
    if not setting or setting == "UTC":
        return UTC
    try:
        canon = parse_zone(setting)
    except BadSetting:
        return UTC
    if canon[0] in "+-":
        sign = -1 if canon[0] == "-" else 1
        hours, minutes = int(canon[1:3]), int(canon[4:6])
        return timezone(sign * timedelta(hours=hours, minutes=minutes))
    try:
        return ZoneInfo(canon)
    except ZoneInfoNotFoundError:  # pragma: no cover - tzdata is a dependency
        return UTC


# ------------------------------------------------------------ quiet hours
def parse_quiet(text: str) -> str:
    """``23:00-08:00`` (or ``22-8``) as a canonical ``HH:MM-HH:MM``.

    Raises:
        BadSetting: hours past 23, minutes past 59, or an empty window.
    """
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?-(\d{1,2})(?::(\d{2}))?", text.strip())
    if not m:
        raise BadSetting(
            f"`{text[:20]}` is not a quiet-hours window; write it `quiet=23:00-08:00` (local time), or `quiet=off`."
        )
    sh, sm, eh, em = int(m.group(1)), int(m.group(2) or 0), int(m.group(3)), int(m.group(4) or 0)
    if sh > 23 or eh > 23 or sm > 59 or em > 59:
        raise BadSetting(
            f"`{text[:20]}` is not a time of day: hours run from 0 to 23 and minutes from 0 to 59, "
            "e.g. `quiet=23:00-08:00`."
        )
    if (sh, sm) == (eh, em):
        raise BadSetting("Quiet hours must start and end at different times, e.g. `quiet=23:00-08:00`.")
    return f"{sh:02d}:{sm:02d}-{eh:02d}:{em:02d}"


def _window(setting: str | None) -> tuple[int, int] | None:
    """(start, end) in minutes after local midnight, or None."""
    if not setting:
        return None
    try:
        canon = parse_quiet(setting)
    except BadSetting:
        return None
    a, b = canon.split("-")
    return int(a[:2]) * 60 + int(a[3:]), int(b[:2]) * 60 + int(b[3:])


def _wall(t: float, tz: tzinfo) -> datetime:
    return datetime.fromtimestamp(t, tz)


def instants_at(day: date, minute: int, tz: tzinfo) -> list[float]:
    """The UTC instants at which a wall clock in ``tz`` shows ``day`` ``minute`` (minutes after
    midnight): one usually, two in a repeated hour (earlier first), and in a skipped hour the
    first instant after the gap, when the clock first shows a later time.

    Decision: a wall time that does not exist (spring forward) is reached at the end of the
    gap, so quiet hours ending at 03:30 on that night end when the clock jumps.
    """
    naive = datetime.combine(day, time(minute // 60, minute % 60))
    out = []
    for fold in (0, 1):
        aware = naive.replace(tzinfo=tz, fold=fold)
        ts = aware.timestamp()
        if _wall(ts, tz).replace(tzinfo=None) == naive and ts not in out:
            out.append(ts)
    if out:
        return sorted(out)
    # In a gap: fold=1 lands before it, fold=0 after it; find the jump by bisection.
    lo, hi = naive.replace(tzinfo=tz, fold=1).timestamp(), naive.replace(tzinfo=tz, fold=0).timestamp()
    lo, hi = min(lo, hi), max(lo, hi)
    while hi - lo > 1:
        mid = math.floor((lo + hi) / 2)
        if _wall(mid, tz).replace(tzinfo=None) >= naive:
            hi = mid
        else:
            lo = mid
    return [float(hi)]


def in_quiet(user: Mapping[str, str], t: float) -> bool:
    """Whether ``t`` falls in the user's quiet hours on their own wall clock."""
    win = _window(user.get("quiet"))
    if win is None:
        return False
    start, end = win
    w = _wall(t, zone(user.get("tz")))
    local = w.hour * 60 + w.minute + w.second / 60
    return start <= local < end if start < end else (local >= start or local < end)


def quiet_end(user: Mapping[str, str], t: float) -> float | None:
    """The end of the quiet hours ``t`` falls in (UTC), or None when ``t`` is not quiet."""
    if not in_quiet(user, t):
        return None
    win = _window(user.get("quiet"))
    assert win is not None
    tz = zone(user.get("tz"))
    today = _wall(t, tz).date()
    for offset in range(3):
        for ts in instants_at(today + timedelta(days=offset), win[1], tz):
            if ts > t:
                return ts
    return None  # pragma: no cover - an end always comes within two days


def out_of_quiet(user: Mapping[str, str], t: float) -> float:
    """``t``, or the end of the quiet hours it falls in."""
    end = quiet_end(user, t)
    return t if end is None else end


# ------------------------------------------------------------ reminders
def parse_leads(text: str) -> str:
    """``half,1h,10m`` as canonical lead times; ``off`` for none.

    Raises:
        BadSetting: a lead that is neither ``half`` nor a duration up to 7 days.
    """
    raw = text.strip().lower()
    if raw in ("off", "none", "no"):
        return "off"
    out: list[str] = []
    for item in filter(None, raw.split(",")):
        if item == "half":
            out.append("half")
            continue
        secs = parse_duration(item, bare=HOUR)
        if secs is None or not 60 <= secs <= 7 * DAY:
            raise BadSetting(
                f"`{item[:20]}` is not a reminder time; use `half` or a time before the deadline "
                "between 1 minute and 7 days, e.g. `remind=half,1h`."
            )
        out.append(f"{int(secs)}s")
    if not out:
        raise BadSetting("Say when to remind you, e.g. `remind=half,1h`, or `remind=off`.")
    return ",".join(dict.fromkeys(out))


def leads(user: Mapping[str, str]) -> tuple[str, ...]:
    raw = user.get("remind")
    if raw == "off":
        return ()
    if not raw:
        return tuple(x if x == "half" else f"{int(parse_duration(x) or 0)}s" for x in DEFAULT_LEADS)
    return tuple(x for x in raw.split(",") if x)


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One awaited human seat's schedule for the current step.

    Attributes:
        deadline: when its ``on_timeout`` plays (None: no deadline), after its time bank, its
            vacation and (when the table chose it) the end of its quiet hours.
        reminders: (lead key, due time) in time order, each already moved out of quiet hours
            and past a vacation; the key de-duplicates it within the step.
        away_until: the end of the seat's vacation, if it is away.
    """

    seat: int
    deadline: float | None
    reminders: tuple[tuple[str, float], ...]
    away_until: float | None


def fnum(meta: Mapping[str, str], key: str, default: float = 0.0) -> float:
    raw = meta.get(key)
    try:
        return float(raw) if raw not in (None, "") else default
    except ValueError:
        return default


def bank_left(meta: Mapping[str, str], seat: int) -> float:
    return max(0.0, fnum(meta, "bank_secs") - fnum(meta, f"bank_used:{seat}"))


def table_deadline(meta: Mapping[str, str], seat: int) -> float | None:
    """When the seat's turn stops being free: the step's deadline plus its vacation."""
    base = fnum(meta, "deadline_at")
    return base + fnum(meta, f"ext:{seat}") if base else None


def seat_clock(meta: Mapping[str, str], seat: int, user: Mapping[str, str], now: float) -> SeatClock:
    """The schedule of ``seat`` (awaited, human) from the game record and its user's settings."""
    turn_at = fnum(meta, "turn_at", now)
    away = fnum(meta, f"away_until:{seat}") or None
    base = table_deadline(meta, seat)
    deadline = None
    if base is not None:
        deadline = base + bank_left(meta, seat)
        if meta.get("quiet_deadlines") == "1":
            deadline = out_of_quiet(user, deadline)
            base = out_of_quiet(user, base)  # lead times count back from the moved deadline
    muted = meta.get(f"mute:{seat}") in ("game", meta.get("turn_v", "?"))
    times: list[tuple[str, float]] = []
    if not muted and base is not None:
        for lead in leads(user):
            at = turn_at + (base - turn_at) / 2 if lead == "half" else base - float(lead.rstrip("s"))
            if at > turn_at:
                times.append((lead, at))
    elif not muted:
        k = max(1, int((now - turn_at) // IDLE) + 1)
        times += [(f"idle{n}", turn_at + n * IDLE) for n in range(max(1, k - 1), k + 1)]
    moved = []
    for key, at in times:
        if away is not None and at < away:
            at = away
        at = out_of_quiet(user, at)
        if deadline is None or at < deadline:
            moved.append((key, at))
    return SeatClock(seat, deadline, tuple(sorted(moved, key=lambda x: (x[1], x[0]))), away)


def next_due(clock: SeatClock, sent: set[str]) -> float | None:
    """The earliest moment something is to be done for this seat."""
    times = [at for key, at in clock.reminders if key not in sent]
    if clock.deadline is not None:
        times.append(clock.deadline)
    return min(times) if times else None


def wall_text(t: float, user: Mapping[str, str]) -> str:
    """A time on the user's wall clock, ``Tue 14:05``, for reminders and ``status``."""
    return _wall(t, zone(user.get("tz"))).strftime("%a %H:%M")
