"""The ``agora`` command line: play, replay, games, worker, serve, config.

Why one entry point: operators and newcomers learn one tool; every sub-command reaches the
service only through :mod:`workers.client`, like the chat adapters do.
"""

from __future__ import annotations

import argparse
import json
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
    if args.resume and (args.game or options or args.seed is not None or args.players):
        print(
            "--resume continues a saved game as it was; leave out the game, --seed, --option and --players.",
            file=sys.stderr,
        )
        return 2
    return play(
        args.game,
        seed=args.seed,
        options=options,
        human=args.human,
        players=args.players,
        images=Path(args.images) if args.images else None,
        data_dir=_data_dir(),
        hours=args.hours,
        resume=args.resume,
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
        opts = "; ".join(f"{k}: {v.rstrip('. ')}" for k, v in g["options"].items())
        print(f"{g['id']:<15} {g['name']} — {g['players']}. {g['summary']}")
        if opts:
            print(f"{'':<15} options: {opts}")
    return 0


def _metrics(redis_url: str) -> None:
    """This process's /metrics, /healthz and /readyz, when AGORA_METRICS_PORT is set."""
    agora.start_metrics(redis_url)


def cmd_deadlines(args: argparse.Namespace) -> int:
    """``agora deadlines rebuild``: rebuild the deadline index from the game records."""
    url = agora.load_settings().store_url()
    if not url:
        print("Set REDIS_URL to the store whose deadline index to rebuild.", file=sys.stderr)
        return 2
    n = agora.rebuild_deadline_index(url)
    print(f"Deadline index rebuilt: {n} {'game' if n == 1 else 'games'} scheduled.")
    return 0


def cmd_worker(args: argparse.Namespace) -> int:
    """A Celery worker (and beat with --beat). Without REDIS_URL, also the embedded server."""
    with agora.local_services(
        _data_dir(), workers=args.concurrency, beat=args.beat, render_workers=args.render_workers
    ) as services:
        _metrics(services.redis_url)
        print(f"Worker running against {services.redis_url}; Ctrl-C or SIGTERM stops it.")
        _wait_for_signal()
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Everything on one machine: store (embedded if REDIS_URL is unset), worker + beat, bots."""
    cfg = agora.load_settings()
    token, discord_token = cfg.secret("telegram_token"), cfg.secret("discord_token")
    if not token and not discord_token:
        print(
            "Set TELEGRAM_TOKEN (and optionally TELEGRAM_API_BASE) or DISCORD_TOKEN to serve a bot. "
            "For a local game without any chat platform, use `agora play duellum`.",
            file=sys.stderr,
        )
        return 2
    with agora.local_services(
        _data_dir(), workers=args.concurrency, beat=True, render_workers=args.render_workers
    ) as services:
        _metrics(services.redis_url)
        names = " and ".join(n for n, t in (("Telegram", token), ("Discord", discord_token)) if t)
        print(f"Serving {names} against {agora.mask_url(services.redis_url)}.")
        _run_bots(cfg, services.redis_url, telegram=bool(token), discord=bool(discord_token))
    return 0


def cmd_bot(args: argparse.Namespace) -> int:
    """One chat bot alone. With REDIS_URL: only the bot (workers run elsewhere, `agora
    worker`); without it: the embedded server and a worker with beat too, as `serve` does."""
    return run_bot(args.platform, standalone=False)


def run_bot(platform: str, *, standalone: bool) -> int:
    """Run one platform's bot (``agora bot <platform>``, ``python -m bots.<platform>``).

    ``standalone`` (the deployments' entry points): the store must be named (``REDIS_URL``),
    since the workers run elsewhere; otherwise a missing URL starts the embedded server and a
    worker with beat, as ``serve`` does."""
    cfg = agora.load_settings()
    var = f"{platform.upper()}_TOKEN"
    if not cfg.secret(var.lower()):
        print(f"Set {var} (or {var}_FILE) to run the {platform.capitalize()} bot.", file=sys.stderr)
        return 2
    wanted = {"telegram": platform == "telegram", "discord": platform == "discord"}
    url = cfg.store_url()
    if url:
        agora.start_metrics(url)
        print(f"Running the {platform.capitalize()} bot against {agora.mask_url(url)}.")
        _run_bots(cfg, url, **wanted)
        return 0
    if standalone:
        print("Set REDIS_URL to the store the workers use.", file=sys.stderr)
        return 2
    with agora.local_services(_data_dir(), workers=1, beat=True) as services:
        _metrics(services.redis_url)
        print(f"Running the {platform.capitalize()} bot against {agora.mask_url(services.redis_url)}.")
        _run_bots(cfg, services.redis_url, **wanted)
    return 0


def cmd_discord_sync(args: argparse.Namespace) -> int:
    """Register the /agora commands with Discord and print what changed."""
    import asyncio

    from bots.discord.app import env_config, sync_commands

    cfg = env_config()
    if not cfg["token"]:
        print("Set DISCORD_TOKEN to register the commands.", file=sys.stderr)
        return 2
    for line in asyncio.run(sync_commands(cfg["token"], args.guild, cfg)):
        print(line)
    return 0


def _run_bots(cfg: agora.Settings, redis_url: str, *, telegram: bool, discord: bool) -> None:
    """Run the chosen bots in one event loop until SIGINT/SIGTERM."""
    if telegram and not discord:
        from bots.telegram.app import run

        run(
            redis_url,
            cfg.secret("telegram_token"),
            api_base=cfg.telegram_api_base or None,
            webhook=cfg.telegram_webhook_url or None,
        )
        return
    if discord and not telegram:
        from bots.discord.app import run as run_discord

        run_discord(redis_url)
        return
    import asyncio

    asyncio.run(_both_bots(cfg, redis_url))


async def _both_bots(cfg: agora.Settings, redis_url: str) -> None:
    """Telegram and Discord side by side in one event loop (each with its own client)."""
    import asyncio
    import contextlib

    from bots.discord import app as dc
    from bots.telegram import app as tg

    done = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, done.set)
    tg_client, dc_client = agora.Client(redis_url), agora.Client(redis_url)
    try:
        url = cfg.telegram_webhook_url or None
        app = tg.build_application(tg_client, cfg.secret("telegram_token"), cfg.telegram_api_base or None)
        await tg.start(app, webhook=tg.Webhook.from_env(url) if url else None)
        discord_task = asyncio.create_task(dc.serve(dc_client, dc.env_config(), done))
        try:
            await asyncio.wait({discord_task, asyncio.create_task(done.wait())}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            done.set()
            await tg.stop(app)
            await discord_task
    finally:
        tg_client.close()
        dc_client.close()


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


RENDER_HELP = "board-drawing worker processes (default: AGORA_RENDER_WORKERS, 1; 0: the move workers draw)"

_SERVE_ENV = """\
environment variables:
  REDIS_URL                 Redis for the store and Celery (unset: start the embedded Valkey server);
                            redis+cluster://host:port or redis+sentinel://host:port/master too
  AGORA_DATA_DIR            embedded server data, local game images and logs (default ./agora-data)
  TELEGRAM_TOKEN            the Telegram bot token (unset: no Telegram bot)
  TELEGRAM_API_BASE         Bot API base URL (self-hosted Bot API servers, tests)
  TELEGRAM_WEBHOOK_URL      use a webhook instead of long polling
  TELEGRAM_WEBHOOK_LISTEN   host:port the webhook listens on (default 127.0.0.1:8443)
  TELEGRAM_WEBHOOK_SECRET   the secret Telegram sends with each update (default: random)
  TELEGRAM_CONSUMER         this bot process's name in the outbox consumer group (default telegram-<host name>)
  DISCORD_TOKEN             the Discord bot token (unset: no Discord bot)
  DISCORD_API_BASE          Discord REST base URL (tests: a fake on 127.0.0.1)
  DISCORD_GATEWAY_URL       Discord gateway websocket URL (tests)
  DISCORD_SHARDS            shard count, or `auto` for Discord's recommendation (default 1)
  DISCORD_CONSUMER          this bot process's name in the outbox consumer group (default discord-<host name>)
  AGORA_SWEEP_SECONDS       how often beat sweeps deadlines (default 5)
  AGORA_VISIBILITY_TIMEOUT  seconds before an unacknowledged task is redelivered (default 300)
  AGORA_RENDER_WORKERS      board-drawing worker processes, queue `render` (default 1; 0: move workers draw)
  AGORA_LOG_LEVEL           logging level (default WARNING)
  AGORA_LOG_FORMAT          text (default) or json: one JSON object per line with game, seat, platform
  AGORA_METRICS_PORT        serve /metrics, /healthz and /readyz on this port (children: port + 1, + 2, ...)
  AGORA_METRICS_HOST        address of that endpoint (default 127.0.0.1)
  AGORA_SECRETS_DIR         folder of secret files named after the variables (e.g. /run/secrets)
  <VARIABLE>_FILE           read a variable from a file (TELEGRAM_TOKEN_FILE, REDIS_URL_FILE, ...)
  AGORA_PLUGINS             extra game modules to import (each calls engine.register)
  AGORA_RATE_USER           command limits per user (default "20/10 seconds;120/minute"; off)
  AGORA_RATE_CHAT           command limits per chat (default "300/minute"; off)
  AGORA_BEAT_LEASE_SECONDS  the lease that lets exactly one beat schedule sweeps (default 30)
  TELEGRAM_OVERALL_RATE     messages the Telegram bot sends at most, count/seconds (default 30/1)
  TELEGRAM_GROUP_RATE       messages to one group at most, count/seconds (default 20/60)
  REDIS_PASSWORD            put into REDIS_URL when the URL has no password
  REDIS_CLUSTER             1: REDIS_URL is a Redis Cluster node (or use redis+cluster://host:port)
  AGORA_BROKER_URL          Celery's broker when it is not REDIS_URL (required with a Redis Cluster)
"""

_WORKER_ENV = """\
environment variables:
  REDIS_URL                 Redis for the store and Celery (unset: start the embedded Valkey server);
                            redis+cluster://host:port or redis+sentinel://host:port/master too
  AGORA_DATA_DIR            embedded server data and worker logs (default ./agora-data)
  AGORA_SWEEP_SECONDS       how often beat sweeps deadlines (default 5)
  AGORA_VISIBILITY_TIMEOUT  seconds before an unacknowledged task is redelivered (default 300)
  AGORA_RENDER_WORKERS      board-drawing worker processes, queue `render` (default 1; 0: move workers draw)
  AGORA_LOG_LEVEL           logging level (default WARNING)
  AGORA_LOG_FORMAT          text (default) or json: one JSON object per line with game, seat, platform
  AGORA_METRICS_PORT        serve /metrics, /healthz and /readyz on this port (children: port + 1, + 2, ...)
  AGORA_METRICS_HOST        address of that endpoint (default 127.0.0.1)
  AGORA_SECRETS_DIR         folder of secret files named after the variables (e.g. /run/secrets)
  <VARIABLE>_FILE           read a variable from a file (TELEGRAM_TOKEN_FILE, REDIS_URL_FILE, ...)
  REDIS_CLUSTER             1: REDIS_URL is a Redis Cluster node (or use redis+cluster://host:port)
  AGORA_BROKER_URL          Celery's broker when it is not REDIS_URL (required with a Redis Cluster)
"""


def cmd_config(args: argparse.Namespace) -> int:
    """Print the effective configuration (secrets masked) after validating it."""
    cfg = agora.load_settings()
    width = max(len(k) for k in cfg.public())
    print("Configuration is valid. Effective settings (secrets hidden):")
    for key, value in cfg.public().items():
        print(f"  {key:<{width}}  {value}")
    return 0


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("agora")
    except Exception:  # running from a source tree that was never installed
        return "unknown"


def parser() -> argparse.ArgumentParser:
    """The whole command line; every subcommand and option carries a description."""
    raw = argparse.RawDescriptionHelpFormatter
    p = argparse.ArgumentParser(
        prog="agora",
        description="Agora: play big strategy board games asynchronously in chat, or locally in this terminal.",
        epilog="Start with `agora play` (Antike Duellum against the automatic player) or `agora games`.",
    )
    p.add_argument("--version", action="version", version=f"agora {_version()}")
    sub = p.add_subparsers(dest="command", metavar="<command>")

    play = sub.add_parser(
        "play",
        help="play a local game in this terminal against automatic players",
        description="Play a local game in this terminal through the same Redis + Celery pipeline as the chat "
        "bots. Games are saved as you play; `quit` leaves and `--resume` continues.",
    )
    play.add_argument("game", nargs="?", default=None, help="game id or alias (default: duellum; see `agora games`)")
    play.add_argument("--seed", type=int, default=None, help="fix the deal and dice, so the game can be replayed")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a game option, e.g. --option map=greece-persia (repeatable; `agora games` lists them)",
    )
    play.add_argument("--map", default=None, help="shorthand for --option map=NAME")
    play.add_argument(
        "--human",
        default="1",
        choices=["1", "2", "both", "none"],
        help="which seat you play: 1 or 2; both for two people at one keyboard; none to watch automatic players",
    )
    play.add_argument("--players", type=int, default=None, help="seats at the table (default: the game's minimum)")
    play.add_argument(
        "--resume",
        nargs="?",
        const="latest",
        default=None,
        metavar="GAME_ID",
        help="continue a saved local game (its id, e.g. g3; without one: the most recent)",
    )
    play.add_argument("--images", default=None, help="folder for board images (default: under AGORA_DATA_DIR)")
    play.add_argument("--hours", type=float, default=0, help="turn time limit in hours (default 0: none)")
    play.set_defaults(func=cmd_play)

    rep = sub.add_parser(
        "replay",
        help="replay a game record and print the final position and result",
        description="Replay a record (one `seat: move` line per move, seats from 1) through the engine and "
        "print the final position and result. Stops with the line number at the first illegal move.",
    )
    rep.add_argument("game", help="game id or alias")
    rep.add_argument("--seed", type=int, required=True, help="the seed the game was played with")
    rep.add_argument("--moves", required=True, help="file with one `seat: move` per line; - reads standard input")
    rep.add_argument("--players", type=int, default=None, help="seats at the table (default: the game's minimum)")
    rep.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a game option (repeatable)")
    rep.add_argument("--map", default=None, help="shorthand for --option map=NAME")
    rep.add_argument("--json", action="store_true", help="print the final view and outcome as JSON")
    rep.set_defaults(func=cmd_replay)

    games = sub.add_parser("games", help="list the games and their options", description="List the games and options.")
    games.set_defaults(func=cmd_games)

    worker = sub.add_parser(
        "worker",
        help="run Celery workers (REDIS_URL; the embedded server when unset)",
        description="Run Celery workers that validate moves and advance games; dead workers are restarted.",
        epilog=_WORKER_ENV,
        formatter_class=raw,
    )
    worker.add_argument("--concurrency", type=int, default=1, help="worker processes to run (default 1)")
    worker.add_argument("--render-workers", type=int, default=None, metavar="N", help=RENDER_HELP)
    worker.add_argument(
        "--beat", action="store_true", help="also run the deadline sweeper (exactly one per deployment)"
    )
    worker.set_defaults(func=cmd_worker)

    dl = sub.add_parser(
        "deadlines",
        help="maintain the deadline index (REDIS_URL)",
        description="Maintain the sorted set of due reminders and timeouts. `rebuild` recomputes it from "
        "every running game's record (the sweeper also does this when it starts).",
    )
    dl.add_argument("action", choices=["rebuild"], help="rebuild: recompute the index from the game records")
    dl.set_defaults(func=cmd_deadlines)

    serve = sub.add_parser(
        "serve",
        help="run store, workers, sweeper and the chat bots on this machine",
        description="Run everything on one machine: the store (embedded when REDIS_URL is unset), supervised "
        "workers with the deadline sweeper, and the chat bots whose tokens are set.",
        epilog=_SERVE_ENV,
        formatter_class=raw,
    )
    serve.add_argument("--concurrency", type=int, default=1, help="worker processes to run (default 1)")
    serve.add_argument("--render-workers", type=int, default=None, metavar="N", help=RENDER_HELP)
    serve.set_defaults(func=cmd_serve)

    bot = sub.add_parser(
        "bot",
        help="run one chat bot alone (Telegram or Discord)",
        description="Run one chat bot. With REDIS_URL only the bot runs (start workers with `agora worker`); "
        "without it the embedded server and a worker with the sweeper run too.",
        epilog=_SERVE_ENV,
        formatter_class=raw,
    )
    bot.add_argument("platform", choices=["telegram", "discord"], help="which bot to run")
    bot.set_defaults(func=cmd_bot)

    disc = sub.add_parser("discord", help="Discord tools: register the slash commands",
                          description="Discord tools (DISCORD_TOKEN must be set).")
    disc_sub = disc.add_subparsers(dest="discord_command", metavar="<tool>", required=True, help="sync")
    sync = disc_sub.add_parser(
        "sync",
        help="register the /agora commands (globally, or for one guild at once) and print what changed",
        description="Register the /agora command group with Discord. Global commands can take up to an hour "
        "to appear; --guild registers them for one server, where they appear at once.",
    )
    sync.add_argument("--guild", type=int, default=None, metavar="ID", help="register for this guild only")
    sync.set_defaults(func=cmd_discord_sync)
    config = sub.add_parser(
        "config",
        help="check the configuration and print it without secrets",
        description="Validate every environment variable and secret file Agora reads, and print the "
        "effective configuration with secrets masked. Exits 2 naming each wrong variable.",
        epilog=_SERVE_ENV,
        formatter_class=raw,
    )
    config.add_argument("action", choices=["check"], help="what to do (check: validate and print)")
    config.set_defaults(func=cmd_config)
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        agora.setup_logging(agora.load_settings())
    except agora.SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    p = parser()
    args = p.parse_args(argv)
    if not getattr(args, "func", None):
        p.print_help()
        return 0
    try:
        return int(args.func(args))
    except KeyboardInterrupt:
        return 130
    except agora.EngineError as exc:
        print(exc.user_message, file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
