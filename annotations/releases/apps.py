from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "annotations.releases"
    label = "releases"
    verbose_name = "Benchmark releases"
