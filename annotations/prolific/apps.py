from django.apps import AppConfig


class ProlificConfig(AppConfig):
    """Running studies on Prolific: the link's models live in the annotations app (they belong
    to its studies and participants, and its roles cover them); this app holds the admin page
    and the tasks (found by admin and task autodiscovery)."""

    name = "annotations.prolific"
    label = "prolific"
    verbose_name = "Prolific"

    def ready(self) -> None:
        from annotations.prolific.places import sweep_idle_conversations
        from attune_collect.sweep import register_sweep

        register_sweep("idle Prolific conversations", sweep_idle_conversations)
