"""Pure formulas of the league: FIBS ratings and series points (no Django, ``mypy --strict``)."""
