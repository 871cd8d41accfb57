"""Agora's service layer: the Redis store, the one move pipeline, Celery tasks, deadlines,
the outbox, and :mod:`workers.client`, the only surface the chat adapters use."""
