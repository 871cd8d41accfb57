"""The end-of-scenario check: every game's log replays to its stored snapshot, every move a
player was told was accepted is in the log exactly once, no key is applied twice, and every
outbox message reached the (recorded) chat, twice only when a consumer died between sending
it and recording it.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import find_game
from engine.core.testing import replay
from tests.faults.players import PLATFORM, Tally
from workers import outbox
from workers.client import Client
from workers.store import Store


@dataclass
class Report:
    games: int = 0
    versions: int = 0  # committed versions over all games
    log_moves: int = 0
    accepted: int = 0
    lost: list[str] = field(default_factory=list)  # accepted keys missing from the logs
    twice: list[str] = field(default_factory=list)  # keys applied more than once
    mismatched: list[str] = field(default_factory=list)  # accepted text/seat differs from the log
    replay_diff: list[str] = field(default_factory=list)  # games whose snapshot != replay
    refused: int = 0
    apologies: int = 0
    outbox_entries: int = 0
    sent: int = 0
    unsent: list[str] = field(default_factory=list)  # messages that had to go out and did not
    superseded: int = 0  # prompts the game moved past before delivery (dropped on purpose)
    merged: int = 0  # late turn posts sent as part of a newer post of their table (with its board)
    duplicates: int = 0  # messages sent more than once
    unexplained_duplicates: list[str] = field(default_factory=list)  # ... not by a killed consumer
    turns_without_image: list[str] = field(default_factory=list)
    notes: dict[str, Any] = field(default_factory=dict)

    def ok(self) -> bool:
        return not (
            self.lost or self.twice or self.mismatched or self.replay_diff or self.unsent
            or self.unexplained_duplicates or self.turns_without_image
        )  # fmt: skip

    def summary(self) -> str:
        return (
            f"{self.games} games, {self.log_moves} moves in the logs, {self.accepted} told accepted: "
            f"lost {len(self.lost)}, applied twice {len(self.twice)}, log/answer mismatch {len(self.mismatched)}, "
            f"replay != snapshot {len(self.replay_diff)}; outbox {self.outbox_entries} entries, {self.sent} sends, "
            f"unsent {len(self.unsent)}, superseded prompts {self.superseded}, merged turns {self.merged}, "
            f"duplicates {self.duplicates} "
            f"(unexplained {len(self.unexplained_duplicates)}), turns without image {len(self.turns_without_image)}; "
            f"refused {self.refused}, apologies {self.apologies}; {self.notes}"
        )


def check_games(store: Store, gids: list[str], tally: Tally, report: Report) -> None:
    accepted = {a.key: a for a in tally.accepted}
    report.games, report.accepted, report.refused = len(gids), len(accepted), len(tally.refused)
    report.apologies = tally.apologies
    report.notes["apologies_applied_anyway"] = tally.applied_anyway
    seen: Counter[str] = Counter()
    for gid in gids:
        meta = store.meta(gid)
        version, snap = store.snapshot(gid)
        log = store.log(gid)
        report.versions += version
        report.log_moves += len(log)
        game = find_game(meta["game"])
        again = replay(game, int(meta["seed"]), int(meta["players"]), json.loads(meta.get("options") or "{}"),
                       [(e["s"], e["t"]) for e in log])  # fmt: skip
        if game.dumps(again) != snap:
            report.replay_diff.append(gid)
        for e in log:
            k = str(e.get("k", ""))
            if k:
                seen[k] += 1
            a = accepted.get(k)
            if a is not None and (a.gid != gid or a.seat != e["s"] or a.text != e["t"]):
                report.mismatched.append(f"{k}: told {a.text!r} (seat {a.seat}), log {e['t']!r} (seat {e['s']})")
    report.twice = sorted(k for k, n in seen.items() if n > 1)
    report.lost = sorted(k for k in accepted if seen[k] == 0)


def read_sends(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def undelivered(client: Client, record: Path) -> list[str]:
    """Outbox keys the consumer has neither sent nor dropped as out of date yet."""
    done = {s["key"] for s in read_sends(record)}
    keys = [str(m.get("key")) for _, m in outbox.entries(client.store, PLATFORM)]
    return [k for k in keys if k not in done]


def drain(client: Client, record: Path, timeout: float = 120.0) -> bool:
    """Wait until the consumer has delivered everything due and nothing is pending."""
    deadline = time.monotonic() + timeout
    calm = 0
    while time.monotonic() < deadline:
        try:
            left = undelivered(client, record)
            pending = outbox.pending_count(client.store, PLATFORM)
        except Exception:  # the store restarting
            time.sleep(0.5)
            continue
        calm = calm + 1 if not left and not pending else 0
        if calm >= 3:
            return True
        time.sleep(0.5)
    return False


def check_outbox(client: Client, record: Path, killed_pids: list[int], report: Report) -> None:
    lines = read_sends(record)
    sends = [s for s in lines if s["what"] not in ("drop", "merge")]
    dropped = {s["key"]: s for s in lines if s["what"] == "drop"}
    merged = {s["key"] for s in lines if s["what"] == "merge"}
    report.sent = len(sends)
    by_key: dict[str, list[dict[str, Any]]] = {}
    for s in sends:
        by_key.setdefault(s["key"], []).append(s)
    killed = set(killed_pids)
    for key, copies in by_key.items():
        if len(copies) > 1:
            report.duplicates += len(copies) - 1
            # each copy but the last must come from a consumer that was killed (after the send,
            # before recording it as sent)
            if any(c["pid"] not in killed for c in copies[:-1]):
                report.unexplained_duplicates.append(key)
    entries = outbox.entries(client.store, PLATFORM)  # every partition's stream
    report.outbox_entries = len(entries)
    for _, m in entries:
        key = str(m.get("key"))
        if key in by_key:
            if m.get("type") == "turn" and not any(c["image"] for c in by_key[key]):
                report.turns_without_image.append(key)
            continue
        if key in merged and m.get("type") == "turn" and _shown_later(key, by_key):
            report.merged += 1  # its lines went out with a newer post of its table, and that one's board
            continue
        if key in dropped and m.get("type") in ("prompt", "reminder"):
            report.superseded += 1  # the game had moved on when it came to be delivered
            continue
        report.unsent.append(f"{key} ({m.get('type')}{', dropped' if key in dropped else ''})")


def _shown_later(key: str, by_key: dict[str, list[dict[str, Any]]]) -> bool:
    """Whether a newer turn post of the same game and table as the turn post ``key``
    (``{gid}:{v}:turn[@table]``) was sent with its board."""
    gid, version, rest = key.split(":", 2)
    table = rest.split("turn", 1)[1]
    for other, copies in by_key.items():
        parts = other.split(":", 2)
        same = len(parts) == 3 and parts[0] == gid and parts[2] == f"turn{table}" and parts[1].isdigit()
        if same and int(parts[1]) > int(version) and any(c["image"] for c in copies):
            return True
    return False
