"""Reads behind the public pages. Each page costs a fixed number of queries, whatever the field.

Every function loads whole tables of one event (or tournament, or player) with
their joins in one query each and leaves arranging them to plain Python.

One module per page: ``tournament_pages`` (the list, a tournament's page, its player
search), ``in_play`` (matches in play, the scoreboard), ``event_pages``, ``match_record``
and ``player_history``; ``common`` holds what they share.
"""
