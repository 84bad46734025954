from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Studies and annotations"

    def ready(self) -> None:
        # Load the Celery app with Django, so @shared_task binds to it and .delay() uses its broker.
        import attune_collect.celery  # noqa: F401
