from django.apps import AppConfig


class QAConfig(AppConfig):
    name = "annotations.qa"
    label = "qa"
    verbose_name = "Quality assurance"

    def ready(self) -> None:
        # Imported here: models (and the receivers that use them) load only once the app
        # registry is ready, which is what ready() is for.
        from django.db.models.signals import post_migrate, post_save

        from annotations.models import Conversation
        from annotations.qa import signals

        # Roles are re-synced after every migrate (and flush): apps that arrive later, such as
        # releases, get their permissions added to the researcher group without a new migration.
        post_migrate.connect(signals.sync_roles_after_migrate, sender=self)
        post_save.connect(
            signals.schedule_flags_on_completion, sender=Conversation, dispatch_uid="qa-flags"
        )
