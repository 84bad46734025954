from django.apps import AppConfig


class EvaluationConfig(AppConfig):
    name = "evaluation"
    verbose_name = "Evaluation"

    def ready(self) -> None:
        # Imported here: the services use the models, ready only now (what ready() is for).
        from attune_collect.config import attune_config
        from attune_collect.sweep import register_sweep
        from evaluation.services.creation import start_runs_left_queued
        from evaluation.services.units import sweep_running_runs

        register_sweep(
            "evaluation runs left queued",
            start_runs_left_queued,
            lambda: attune_config().unclaimed_requeue_s,
        )
        register_sweep(
            "evaluation runs",
            sweep_running_runs,
            lambda: min(
                attune_config().evaluation_unit_lease_s, attune_config().unclaimed_requeue_s
            ),
        )
