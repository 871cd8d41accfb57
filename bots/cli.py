"""The ``agora`` command line: play, replay, games, worker, beat, serve.

Why one entry point: operators and newcomers learn one tool; every sub-command reaches the
service only through :mod:`workers.client`, like the chat adapters do.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import time
from pathlib import Path

from workers import client as agora


def _data_dir() -> Path:
    return Path(os.environ.get("AGORA_DATA_DIR", "agora-data"))


def _options(pairs: list[str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise SystemExit(f"--option takes name=value, e.g. --option map=greece-persia (got {pair!r})")
        out[key] = value
    return out


def cmd_play(args: argparse.Namespace) -> int:
    from bots.console.app import play

    options = _options(args.option)
    if args.map:
        options["map"] = args.map
    images = Path(args.images) if args.images else _data_dir() / "images" / time.strftime("%Y%m%d-%H%M%S")
    return play(
        args.game,
        seed=args.seed,
        options=options,
        human=args.human,
        players=args.players,
        images=images,
        data_dir=_data_dir(),
        hours=args.hours,
    )


def cmd_replay(args: argparse.Namespace) -> int:
    lines = Path(args.moves).read_text(encoding="utf-8").splitlines() if args.moves != "-" else sys.stdin.readlines()
    options: dict[str, object] = dict(_options(args.option))
    if args.map:
        options["map"] = args.map
    lo, _ = agora.game_players(args.game)
    try:
        result = agora.replay_record(args.game, args.seed, args.players or lo, options, lines)
    except ValueError as exc:
        print(f"replay stopped: {exc}", file=sys.stderr)
        return 1
    if args.json:
        print(json.dumps(result, indent=2, sort_keys=True))
    else:
        print(result["status"])
        outcome = result["outcome"]
        if outcome:
            print("Result:", outcome["reason"], "Scores:", outcome["scores"])
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    for g in agora.list_games():
        opts = ", ".join(f"{k} ({v})" for k, v in g["options"].items())
        print(f"{g['id']:<15} {g['name']} — {g['min_players']}–{g['max_players']} players. {g['summary']}")
        if opts:
            print(f"{'':<15} options: {opts}")
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    """A Celery worker (and beat with --beat). Without REDIS_URL, also the embedded server."""
    with agora.local_services(_data_dir(), workers=args.concurrency, beat=args.beat) as services:
        print(f"Worker running against {services.redis_url}; Ctrl-C or SIGTERM stops it.")
        _wait_for_signal()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Everything on one machine: store (embedded if REDIS_URL is unset), worker + beat, bots."""
    token = os.environ.get("TELEGRAM_TOKEN", "").strip()
    discord_token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token and not discord_token:
        print(
            "Set TELEGRAM_TOKEN (and optionally TELEGRAM_API_BASE) to serve a bot. "
            "For a local game without any chat platform, use `agora play duellum`.",
            file=sys.stderr,
        )
        return 2
    if discord_token and not token:
        print("The Discord adapter is not available yet; set TELEGRAM_TOKEN to serve Telegram.", file=sys.stderr)
        return 2
    with agora.local_services(_data_dir(), workers=args.concurrency, beat=True) as services:
        from bots.telegram.app import run

        print(f"Serving Telegram against {services.redis_url}.")
        run(
            services.redis_url,
            token,
            api_base=os.environ.get("TELEGRAM_API_BASE") or None,
            webhook=os.environ.get("TELEGRAM_WEBHOOK_URL") or None,
        )
    return 0


def _wait_for_signal() -> None:
    stop = {"now": False}

    def handler(signum: int, frame: object) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, handler)
    try:
        while not stop["now"]:
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="agora", description="Play big board games asynchronously in chat.")
    sub = p.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a local game in this terminal against automatic players")
    play.add_argument("game", help="game id or alias (see `agora games`)")
    play.add_argument("--seed", type=int, default=None, help="fix the deal and dice (replayable)")
    play.add_argument("--map", default=None, help="map side, e.g. rome-carthage or greece-persia")
    play.add_argument(
        "--human",
        default="1",
        choices=["1", "2", "both", "none"],
        help="which seat you play (both: hot seat; none: watch two automatic players)",
    )
    play.add_argument("--players", type=int, default=None, help="seats at the table (default: the minimum)")
    play.add_argument("--option", action="append", default=[], help="game option name=value (repeatable)")
    play.add_argument("--images", default=None, help="folder for board images (default under AGORA_DATA_DIR)")
    play.add_argument("--hours", type=float, default=0, help="turn time limit in hours (0: none)")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser("replay", help="replay a record and print the final view and outcome")
    rep.add_argument("game")
    rep.add_argument("--seed", type=int, required=True)
    rep.add_argument("--moves", required=True, help="file with one `seat: move` per line (seats from 1); - = stdin")
    rep.add_argument("--players", type=int, default=None)
    rep.add_argument("--map", default=None)
    rep.add_argument("--option", action="append", default=[])
    rep.add_argument("--json", action="store_true", help="print the final view and outcome as JSON")
    rep.set_defaults(func=cmd_replay)

    games = sub.add_parser("games", help="list the games")
    games.set_defaults(func=cmd_games)

    worker = sub.add_parser("worker", help="run a Celery worker (REDIS_URL; embedded server when unset)")
    worker.add_argument("--concurrency", type=int, default=1)
    worker.add_argument("--beat", action="store_true", help="also run the deadline sweeper (one per deployment)")
    worker.set_defaults(func=cmd_worker)

    serve = sub.add_parser("serve", help="run store, worker, beat and the chat bots on this machine")
    serve.add_argument("--concurrency", type=int, default=1)
    serve.set_defaults(func=cmd_serve)
    return p


def main(argv: list[str] | None = None) -> int:
    logging.basicConfig(
        level=os.environ.get("AGORA_LOG_LEVEL", "WARNING"), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    args = parser().parse_args(argv)
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except agora.EngineError as exc:
        print(exc.user_message, file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
