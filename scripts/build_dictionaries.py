"""Build the preset deflate dictionaries of ``workers/dictionaries/`` (see ``workers/compact.py``).

Run from the repository root, once per game whose dictionary is missing or to be replaced:

    .venv/bin/python scripts/build_dictionaries.py [--games duellum,clash] [--size 8192]

For each game it plays seeded games with the automatic players (seeds 1-3, two to four
players as the game allows), forms every move's stored answer, events entry and log entry as
the commit writes them (``workers.results.MoveResult``, ``workers.committing``; a person's
moves keyed by a Telegram update id, the automatic player's by its own key), and writes ``<game>.<n>.zdict`` with the
next free number ``n``: a shipped dictionary is never overwritten (``workers/compact.py``
says why). Deterministic: the same engine gives the same bytes.

What a dictionary holds, in order (deflate finds the nearest match cheapest, so the most useful
text comes last): a third of the budget of the JSON fragments that recur most (a key with its
value, weighted by length times count), then whole records of the last moves played: an answer,
its log entry and its version's events side by side.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import find_game, list_games  # noqa: E402 - after the path
from workers.compact import DICTIONARIES  # noqa: E402
from workers.results import MoveResult  # noqa: E402

SEEDS = (1, 2, 3)
MOVES = 600  # per seeded game at most
_FRAGMENT = re.compile(rb'"[a-z_]+":(?:"(?:[^"\\]|\\.)*"|[^,{}\[\]]+)|[{}\[\],]+')


def _dumps(value: object) -> bytes:
    return json.dumps(value, separators=(",", ":")).encode()


def samples(game_id: str, seeds: tuple[int, ...] = SEEDS, moves: int = MOVES) -> list[tuple[bytes, bytes, bytes]]:
    """(answer, events entry, log entry) of every move of the seeded games, in play order (the
    tests measure the dictionaries on seeds they were not built from)."""
    game = find_game(game_id)
    low, high = game.info.min_players, game.info.max_players
    out: list[tuple[bytes, bytes, bytes]] = []
    update, clock = 812_345_678, 1_795_000_000  # a Telegram update id, a unix time
    for i, seed in enumerate(seeds):
        players = min(high, low + i)
        state = game.new_game(seed, players, None)
        for move in range(moves):
            if game.outcome(state) is not None:
                break
            seat = min(game.to_move(state))
            action = game.auto_action(state, seat, move)
            notation = game.notation(state, seat, action)
            step = game.apply(state, seat, action)
            version = move + 1
            visible = [e.to_json() for e in step.events if e.visible_to(seat)]
            answer = MoveResult(True, "ok", f"Done: {notation}.", version, seat, notation, events=visible)
            update, clock = update + 3, clock + 41
            person = seat == 0
            entry = {
                "s": seat,
                "t": notation,
                "u": int(step.undoable),
                "k": f"tg:{update}" if person else f"auto:{version}:{seat}",
                "src": "player" if person else "auto",
                "at": clock,
            }
            out.append(
                (
                    _dumps(answer.to_json()),
                    _dumps({"v": version, "s": seat, "events": [e.to_json() for e in step.events]}),
                    _dumps(entry),
                )
            )
            state = step.state
    return out


def build(records: list[tuple[bytes, bytes, bytes]], size: int) -> bytes:
    """A dictionary of ``size`` bytes at most from ``records`` (see the module docstring)."""
    counts: collections.Counter[bytes] = collections.Counter()
    for record in records:
        for part in record:
            counts.update(_FRAGMENT.findall(part))
    budget = size // 3
    chosen: list[tuple[int, bytes]] = []
    for fragment, count in sorted(counts.items(), key=lambda kv: (kv[1] * (len(kv[0]) - 3), kv[0]), reverse=True):
        if count < 2 or len(fragment) > budget:
            continue
        chosen.append((count, fragment))
        budget -= len(fragment)
    head = b"".join(fragment for _, fragment in sorted(chosen))
    tail = b"".join(answer + entry + events for answer, events, entry in records)[-(size - len(head)) :]
    return head + tail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    parser.add_argument("--size", type=int, default=8192, help="bytes per dictionary (default 8192)")
    args = parser.parse_args()
    games = [g for g in args.games.split(",") if g] or [g.id for g in list_games()]
    DICTIONARIES.mkdir(exist_ok=True)
    for game_id in games:
        records = samples(game_id)
        data = build(records, args.size)
        taken = [int(p.stem.rpartition(".")[2]) for p in DICTIONARIES.glob(f"{game_id}.*.zdict")]
        path = DICTIONARIES / f"{game_id}.{max(taken, default=0) + 1}.zdict"
        path.write_bytes(data)
        plain = sum(len(zlib.compress(part, 6)) for record in records for part in record)
        print(f"{path.relative_to(ROOT)}: {len(data)} bytes from {len(records)} moves (plain deflate {plain} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
