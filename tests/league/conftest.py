"""Fixtures of the league tests."""

from __future__ import annotations
