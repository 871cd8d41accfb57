"""The clock's pure parts: durations, zones, quiet hours across both DST changes, and each
seat's schedule (lead times, time bank, vacation, quiet deadlines).

Reminders and deadlines must land where the player's wall clock says: Europe/Athens and
America/New_York on both DST nights (the missing and the repeated hour) and Asia/Kolkata (a
30-minute offset). Every expected instant is written in UTC, worked out by hand.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from workers import timing
from workers.timing import HOUR, BadSetting


def utc(*args: int) -> float:
    return datetime(*args, tzinfo=UTC).timestamp()  # type: ignore[misc]


ATHENS = {"tz": "Europe/Athens", "quiet": "23:00-08:00"}
NEW_YORK = {"tz": "America/New_York", "quiet": "22:00-07:00"}
KOLKATA = {"tz": "Asia/Kolkata", "quiet": "23:00-07:30"}


@pytest.mark.parametrize(
    ("user", "at", "end"),
    [
        # Athens, the night before spring forward: 02:00 EET (+2) -> 08:00 EET
        (ATHENS, utc(2027, 3, 27, 0), utc(2027, 3, 27, 6)),
        # the spring-forward night (28 March 2027, 03:00 -> 04:00): 02:00 EET -> 08:00 EEST (+3)
        (ATHENS, utc(2027, 3, 28, 0), utc(2027, 3, 28, 5)),
        # the fall-back night (31 October 2027, 04:00 -> 03:00): 02:00 EEST -> 08:00 EET
        (ATHENS, utc(2027, 10, 30, 23), utc(2027, 10, 31, 6)),
        # New York, spring forward (14 March 2027, 02:00 -> 03:00): 01:00 EST -> 07:00 EDT
        (NEW_YORK, utc(2027, 3, 14, 6), utc(2027, 3, 14, 11)),
        # fall back (7 November 2027, 02:00 -> 01:00): 01:30 EDT -> 07:00 EST
        (NEW_YORK, utc(2027, 11, 7, 5, 30), utc(2027, 11, 7, 12)),
        # 01:30 EST, the second pass of the repeated hour -> 07:00 EST
        (NEW_YORK, utc(2027, 11, 7, 6, 30), utc(2027, 11, 7, 12)),
        # Kolkata (+05:30): 05:30 IST -> 07:30 IST
        (KOLKATA, utc(2027, 1, 16, 0), utc(2027, 1, 16, 2)),
        # 23:10 IST is quiet already -> 07:30 IST the next morning
        (KOLKATA, utc(2027, 1, 16, 17, 40), utc(2027, 1, 17, 2)),
    ],
)
def test_quiet_hours_end_on_the_wall_clock_across_dst(user: dict[str, str], at: float, end: float) -> None:
    assert timing.in_quiet(user, at)
    assert timing.quiet_end(user, at) == end
    assert not timing.in_quiet(user, end)
    assert not timing.in_quiet(user, end - 1 + 1)


@pytest.mark.parametrize(
    ("user", "at"),
    [
        (ATHENS, utc(2027, 3, 28, 19, 59)),  # 22:59 EEST, the evening after spring forward
        (ATHENS, utc(2027, 10, 31, 20, 59)),  # 22:59 EET, the evening after fall back
        (NEW_YORK, utc(2027, 11, 7, 1, 59)),  # 21:59 EDT on 6 November
        (NEW_YORK, utc(2027, 11, 8, 2, 59)),  # 21:59 EST on 7 November
        (KOLKATA, utc(2027, 1, 16, 17, 29)),  # 22:59 IST
    ],
)
def test_awake_times_are_not_quiet(user: dict[str, str], at: float) -> None:
    assert not timing.in_quiet(user, at)
    assert timing.quiet_end(user, at) is None
    assert timing.in_quiet(user, at + 60)  # a minute later quiet hours begin


def test_quiet_start_in_the_missing_and_repeated_hour() -> None:
    """Quiet hours 23:00-03:30 in Athens: on the spring night 03:30 does not exist, so quiet
    hours end when the clock jumps (01:00 UTC = 04:00 EEST). On the autumn night 03:30 comes
    twice; the first one ends them (00:30 UTC, EEST), and the wall clock rules the second pass."""
    user = {"tz": "Europe/Athens", "quiet": "23:00-03:30"}
    assert timing.quiet_end(user, utc(2027, 3, 28, 0, 30)) == utc(2027, 3, 28, 1)
    assert timing.quiet_end(user, utc(2027, 10, 30, 23, 0)) == utc(2027, 10, 31, 0, 30)
    assert timing.quiet_end(user, utc(2027, 10, 31, 1, 10)) == utc(2027, 10, 31, 1, 30)


def test_instants_of_a_wall_time() -> None:
    ny = timing.zone("America/New_York")
    from datetime import date

    assert timing.instants_at(date(2027, 11, 7), 90, ny) == [utc(2027, 11, 7, 5, 30), utc(2027, 11, 7, 6, 30)]
    assert timing.instants_at(date(2027, 3, 14), 150, ny) == [utc(2027, 3, 14, 7)]  # 02:30 is skipped
    assert timing.instants_at(date(2027, 3, 15), 150, ny) == [utc(2027, 3, 15, 6, 30)]


def test_legacy_offset_settings_still_work() -> None:
    user = {"tz": "+2", "quiet": "22-8"}
    assert timing.quiet_end(user, utc(2027, 1, 16, 0)) == utc(2027, 1, 16, 6)
    assert timing.parse_zone("+5:30") == "+05:30" and timing.parse_zone("-3.5") == "-03:30"
    assert timing.quiet_end({"tz": "+05:30", "quiet": "23:00-07:30"}, utc(2027, 1, 16, 0)) == utc(2027, 1, 16, 2)


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("Mars/Olympus", "I don't know the time zone `Mars/Olympus`"),
        ("Europe/Athen", "`Europe/Athens`"),
        ("america/new_yrok", "`America/New_York`"),
        ("Kolkata", "`Asia/Kolkata`"),
        ("+15", "offsets run from -14 to +14"),
        ("+5:20", "offsets run from -14 to +14"),
    ],
)
def test_bad_zones_are_refused_with_a_suggestion(text: str, hint: str) -> None:
    with pytest.raises(BadSetting) as exc:
        timing.parse_zone(text)
    assert hint in str(exc.value)


@pytest.mark.parametrize("text", ["25-99", "23:60-08:00", "8-8", "23:00", "late", "-1-5", "23:00-24:00"])
def test_bad_quiet_hours_are_refused(text: str) -> None:
    with pytest.raises(BadSetting):
        timing.parse_quiet(text)


def test_durations() -> None:
    assert timing.parse_duration("90s") == 90
    assert timing.parse_duration("1h30m") == 5400
    assert timing.parse_duration("2.5h") == 9000
    assert timing.parse_duration("3d") == 3 * 86400
    assert timing.parse_duration("3", bare=86400) == 3 * 86400
    for bad in ("", "h", "3x", "1h-2m", "٣d", "1e9h", "nan"):
        assert timing.parse_duration(bad) is None, bad
    assert timing.format_duration(3600) == "1 hour"
    assert timing.format_duration(90061) == "1 day and 1 hour"
    assert timing.format_duration(300) == "5 minutes"
    assert timing.format_duration(1) == "1 second"
    assert timing.describe_timer(24 * HOUR) == "standard (1 day per turn)"


def _meta(**extra: str) -> dict[str, str]:
    base = {"turn_at": str(utc(2027, 1, 16, 8)), "deadline_at": str(utc(2027, 1, 17, 8)), "turn_v": "3"}
    return {**base, **extra}


def test_default_reminders_at_half_time_and_an_hour_before() -> None:
    clock = timing.seat_clock(_meta(), 0, {}, utc(2027, 1, 16, 8))
    assert clock.deadline == utc(2027, 1, 17, 8)
    assert clock.reminders == (("half", utc(2027, 1, 16, 20)), ("3600s", utc(2027, 1, 17, 7)))


def test_chosen_leads_quiet_hours_and_a_deadline_that_waits_for_morning() -> None:
    user = {"tz": "Europe/Athens", "quiet": "23:00-08:00", "remind": timing.parse_leads("half,3h,10m")}
    meta = _meta(deadline_at=str(utc(2027, 1, 17, 0)))  # 02:00 in Athens
    clock = timing.seat_clock(meta, 0, user, utc(2027, 1, 16, 8))
    # half time 16:00 UTC = 18:00 Athens; 3 h before = 23:00 Athens (quiet) -> 08:00 = 06:00 UTC,
    # after the deadline, so dropped; 10 m before (01:50 Athens) dropped too
    assert clock.reminders == (("half", utc(2027, 1, 16, 16)),)
    assert clock.deadline == utc(2027, 1, 17, 0)
    moved = timing.seat_clock({**meta, "quiet_deadlines": "1"}, 0, user, utc(2027, 1, 16, 8))
    assert moved.deadline == utc(2027, 1, 17, 6)  # 08:00 Athens
    # counted back from 08:00 Athens, 3 h and 10 m before are still quiet hours: only half time
    # (counted to the moved deadline: 08:00 UTC + 11 h = 19:00 UTC, 21:00 in Athens) remains
    assert moved.reminders == (("half", utc(2027, 1, 16, 19)),)


def test_time_bank_and_vacation_extend_the_deadline() -> None:
    meta = _meta(bank_secs="7200", **{"bank_used:0": "1800", "ext:0": str(2 * 86400)})
    clock = timing.seat_clock(meta, 0, {}, utc(2027, 1, 16, 9))
    assert clock.deadline == utc(2027, 1, 19, 8) + 5400
    assert timing.bank_left(meta, 0) == 5400


def test_timer_off_reminds_after_a_day_idle_then_daily() -> None:
    meta = {"turn_at": str(utc(2027, 1, 16, 8)), "turn_v": "2"}
    first = timing.seat_clock(meta, 0, {}, utc(2027, 1, 16, 9))
    assert first.deadline is None and first.reminders[0] == ("idle1", utc(2027, 1, 17, 8))
    later = timing.seat_clock(meta, 0, {}, utc(2027, 1, 18, 9))
    assert ("idle3", utc(2027, 1, 19, 8)) in later.reminders


def test_muted_seats_get_no_reminders() -> None:
    assert timing.seat_clock(_meta(**{"mute:0": "3"}), 0, {}, utc(2027, 1, 16, 9)).reminders == ()
    assert timing.seat_clock(_meta(**{"mute:0": "2"}), 0, {}, utc(2027, 1, 16, 9)).reminders != ()
    assert timing.seat_clock(_meta(**{"mute:0": "game"}), 0, {}, utc(2027, 1, 16, 9)).reminders == ()
