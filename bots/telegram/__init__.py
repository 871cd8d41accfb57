"""The Telegram adapter: python-telegram-bot over the shared command layer.

Why thin: every rule, check and message lives in the command layer (``workers.client``); this
package only turns Telegram updates into commands, shows replies the Telegram way (HTML text,
board photos, inline keyboards, the private chat for private information) and delivers the
outbox in order, exactly once. Entry points: :func:`bots.telegram.app.build_application` and
:func:`bots.telegram.app.run`.
"""
