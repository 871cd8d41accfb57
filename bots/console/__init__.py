"""The console adapter: the shared commands in a terminal, for local games."""
