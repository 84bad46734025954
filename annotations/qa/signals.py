"""Signal receivers, connected in ``QAConfig.ready``. (QA's flags are not computed from a
signal: the service that completes a conversation asks for them, ``services/surveys.py``.)"""

from __future__ import annotations

from django.apps import apps as live_apps

from annotations.qa.roles import sync_roles


def sync_roles_after_migrate(sender, app_config, using: str, apps=None, **kwargs) -> None:
    """After migrate (historical apps given) and flush (none given: the live registry)."""
    sync_roles(apps or live_apps, using=using)
