"""The Discord adapter: discord.py 2.x application commands and persistent components over
the shared command layer.

Why thin: every rule, check and message lives in the command layer (``workers.client``); this
package only turns interactions into commands, shows replies the Discord way (deferred
responses, ephemeral replies for private information, board images, buttons and select
menus) and delivers the ``discord`` outbox in order, exactly once. Entry points:
:func:`bots.discord.app.build_bot`, :func:`bots.discord.app.run` and
:func:`bots.discord.app.sync_commands`.
"""
