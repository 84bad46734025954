"""The Attune Django project: settings, URLs, ASGI/WSGI entry points, Celery app, LLM gateway.

The Celery app is loaded by ``AnnotationsConfig.ready`` (and found by ``celery -A attune_collect``
as ``attune_collect.celery``), not imported here, so that the pure parts of this package (the
LLM gateway in ``llm/``) can be imported by the command-line engine without Celery or Django.
"""
