"""Chat adapters (Telegram, Discord, console) and the ``agora`` command line; they reach the
service only through :mod:`workers.client`."""
