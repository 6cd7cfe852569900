"""The site's HTTP edge outside the API: middleware, login throttle, health, error pages."""
