"""Move submitters for tests that run the command layer without Celery: the move is applied
by the pipeline in the test's own process, as a worker would apply it."""

from __future__ import annotations

from workers import pipeline
from workers.commands.context import MoveSubmitter
from workers.store import Store


def pipeline_submitter(store: Store) -> MoveSubmitter:
    """A ``MoveSubmitter`` that applies each move synchronously (``typed`` passed on, so a
    typed move is read as the worker reads it)."""

    def run(gid: str, user: str, text: str, idem: str, typed: str = "") -> pipeline.MoveResult:
        return pipeline.submit(store, gid, text=text, idem=idem, user=user, typed=typed)

    return run
