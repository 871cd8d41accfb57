"""``python -m bots.telegram``: the Telegram bot alone, for deployments that run the store and
the workers elsewhere (the compose file and the Kubernetes manifests use it).

Why not ``agora serve``: that one also starts workers and beat for a single machine; in a
deployment each role is its own container, scaled on its own.
"""

from __future__ import annotations

import sys


def main() -> int:
    from bots.cli import run_bot
    from workers import client as agora

    try:
        agora.setup_logging(agora.load_settings())
    except agora.SettingsError as exc:
        print(exc, file=sys.stderr)
        return 2
    return run_bot("telegram", standalone=True)


if __name__ == "__main__":
    sys.exit(main())
