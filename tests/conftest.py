"""Shared pytest setup: the tests import the project packages (installed editable by requirements.txt)."""
