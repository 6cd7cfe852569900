"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_asgi_application()

from tournament.checks import require_secret_key  # noqa: E402 - needs the apps loaded

require_secret_key()
