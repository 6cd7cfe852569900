"""Services: keyword-only, typed functions named <entity>_<action> that own their transaction.

Import each from the module that defines it (no re-export here).
"""
