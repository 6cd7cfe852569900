"""Services: keyword-only, typed functions named <entity>_<action> that own their transaction."""
