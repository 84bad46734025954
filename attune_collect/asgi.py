"""ASGI entry point: production serves the platform with uvicorn (streaming chat needs it)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")

application = get_asgi_application()

from attune_collect.web_process import prepare_web_process  # noqa: E402 - needs Django set up

prepare_web_process()
