from django.apps import AppConfig


class AnnotationsConfig(AppConfig):
    name = "annotations"
    verbose_name = "Studies and annotations"

    def ready(self) -> None:
        # Imported here: the services use the models, ready only now (what ready() is for).
        from annotations.services.annotation_flow import improver_resend_after
        from annotations.services.improver import sweep_improved_replies
        from annotations.services.moderation import sweep_unmoderated
        from annotations.services.safety import sweep_owed_risk_reads
        from attune_collect.sweep import register_sweep

        register_sweep("moderation verdicts", sweep_unmoderated)
        register_sweep("risk model reads", sweep_owed_risk_reads)
        register_sweep(
            "improved replies",
            sweep_improved_replies,
            # a few times within the comparison's window
            lambda: improver_resend_after().total_seconds(),
        )
