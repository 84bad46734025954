"""WSGI entry point, for tools that need one; production uses ASGI (see asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")

application = get_wsgi_application()
