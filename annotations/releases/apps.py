from django.apps import AppConfig


class ReleasesConfig(AppConfig):
    name = "annotations.releases"
    label = "releases"
    verbose_name = "Benchmark releases"

    def ready(self) -> None:
        from annotations.releases.services import sweep_release_builds
        from attune_collect.config import attune_config
        from attune_collect.sweep import register_sweep

        register_sweep(
            "release builds",
            sweep_release_builds,
            lambda: min(attune_config().release_build_lease_s, attune_config().unclaimed_requeue_s),
        )
