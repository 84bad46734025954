"""ASGI entry point: production serves the platform with uvicorn (streaming chat needs it)."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "attune_collect.settings")
django.setup(set_prefix=False)

from attune_collect.asgi_handler import AttuneASGIHandler  # noqa: E402 - needs Django set up
from attune_collect.web_process import prepare_web_process  # noqa: E402

application = AttuneASGIHandler()

prepare_web_process()
