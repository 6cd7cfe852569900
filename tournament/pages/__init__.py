"""Page delivery shared by the public and league doors: cached pages, gzip, Vary."""
