"""The director's console: HTML pages under /director/ to run a tournament."""
