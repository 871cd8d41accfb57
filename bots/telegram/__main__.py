"""``python -m bots.telegram``: the Telegram bot alone, for deployments that run the store and
the workers elsewhere (the compose file and the Kubernetes manifests use it).

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
        agora.require_settings(cfg, "TELEGRAM_TOKEN", why="the Telegram bot needs its token from @BotFather")
        agora.require_settings(cfg, "REDIS_URL", why="the bot needs the store the workers use")
    except agora.SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bots.telegram.app import run

    agora.start_metrics(cfg.store_url())
    run(
        cfg.store_url(),
        cfg.secret("telegram_token"),
        api_base=cfg.telegram_api_base or None,
        webhook=cfg.telegram_webhook_url or None,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
