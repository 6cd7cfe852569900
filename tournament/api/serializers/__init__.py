"""Input and output shapes of the tournament API (api.md fixes the names), one module per
entity as the views: ``players``, ``tournaments``, ``events``, ``brackets`` (and
standings), ``places`` (final places and prizes), ``rounds`` (and draws), ``entries``,
``matches`` (a director's decisions), ``signup`` (and bulk entry actions); ``common``
what they share. Nothing is re-exported here: import each shape from its module.

The match read shapes every endpoint that answers with a match uses are
``matches.api.shapes``'s ``MatchSerializer`` and ``MatchDetailSerializer``. A shape's
schema component is named after its class alone, so a class keeps its name when it moves.
"""
