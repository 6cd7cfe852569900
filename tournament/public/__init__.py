"""The public pages: tournaments, brackets and standings, matches, players; their page cache."""
