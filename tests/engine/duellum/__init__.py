"""Antike Duellum engine tests."""
