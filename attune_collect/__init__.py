"""The Attune Django project: settings, URLs, ASGI/WSGI entry points, Celery app, LLM gateway."""

from attune_collect.celery import app as celery_app

__all__ = ["celery_app"]
