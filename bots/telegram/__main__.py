"""``python -m bots.telegram``: the Telegram bot alone, for deployments that run the store and
the workers elsewhere (the compose file and the Kubernetes manifests use it).

Why not ``agora serve``: that one also starts workers and beat for a single machine; in a
deployment each role is its own container, scaled on its own.
"""

from __future__ import annotations

import sys

from workers import logs, metrics, settings


def main() -> int:
    try:
        cfg = settings.load()
        logs.setup(cfg)
        settings.require(cfg, "TELEGRAM_TOKEN", why="the Telegram bot needs its token from @BotFather")
        settings.require(cfg, "REDIS_URL", why="the bot needs the store the workers use")
    except settings.SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    from bots.telegram.app import run

    metrics.start_from_settings(cfg.store_url())
    run(
        cfg.store_url(),
        cfg.secret("telegram_token"),
        api_base=cfg.telegram_api_base or None,
        webhook=cfg.telegram_webhook_url or None,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
