from django.apps import AppConfig
from django.db.models.signals import post_migrate


class QAConfig(AppConfig):
    name = "annotations.qa"
    label = "qa"
    verbose_name = "Quality assurance"

    def ready(self) -> None:
        # Imported here: the receiver loads the roles, which use the auth app's models and
        # management; apps may import those only once the registry is ready (what ready() is for).
        from annotations.qa import signals

        # Roles are re-synced after every migrate (and flush): apps that arrive later, such as
        # releases, get their permissions added to the researcher group without a new migration.
        post_migrate.connect(signals.sync_roles_after_migrate, sender=self)

        from annotations.qa.services.flagging import sweep_owed_flags
        from annotations.qa.services.risk_alerts import sweep_risk_alerts
        from attune_collect.sweep import register_sweep

        register_sweep("QA flags", sweep_owed_flags)
        register_sweep("risk alerts", sweep_risk_alerts)
