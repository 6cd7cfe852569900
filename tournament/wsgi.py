"""WSGI entry point (gunicorn tournament.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()

from tournament.checks import require_secret_key  # noqa: E402 - needs the apps loaded

require_secret_key()
