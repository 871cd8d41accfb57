"""``python -m bots.discord``: the Discord bot alone, for deployments that run the store and
the workers elsewhere (as ``python -m bots.telegram`` does for Telegram).

Why not ``agora serve``: that one also starts workers and beat for a single machine; in a
deployment each role is its own container, scaled on its own.
"""

from __future__ import annotations

import sys

from workers import client as agora


def main() -> int:
    try:
        cfg = agora.load_settings()
        agora.setup_logging(cfg)
        agora.require_settings(cfg, "DISCORD_TOKEN", why="the Discord bot needs its token from the developer portal")
        agora.require_settings(cfg, "REDIS_URL", why="the bot needs the store the workers use")
    except agora.SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bots.discord.app import run

    agora.start_metrics(cfg.store_url())
    run(
        cfg.store_url(),
        {
            "token": cfg.secret("discord_token"),
            "api_base": cfg.discord_api_base or None,
            "gateway_url": cfg.discord_gateway_url or None,
            "shards": cfg.discord_shards,
        },
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
