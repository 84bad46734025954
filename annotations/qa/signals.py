"""Signal receivers, connected in ``QAConfig.ready``."""

from __future__ import annotations

from django.apps import apps as live_apps

from annotations import dispatch
from annotations.models import Conversation, ConversationState
from annotations.qa.roles import sync_roles


def sync_roles_after_migrate(sender, app_config, using: str, apps=None, **kwargs) -> None:
    """After migrate (historical apps given) and flush (none given: the live registry)."""
    sync_roles(apps or live_apps, using=using)


def schedule_flags_on_completion(
    sender, instance: Conversation, update_fields=None, raw: bool = False, **kwargs
) -> None:
    """A conversation saved as completed gets its flags computed in the background.

    Bulk imports bypass signals on purpose; ``manage.py compute_flags`` covers them.
    """
    if raw or instance.state != ConversationState.COMPLETED:
        return
    if update_fields is not None and "state" not in update_fields:
        return
    # After commit; a broker hiccup is logged, never turned into an error for the participant
    # whose completion is already committed (the command recomputes whatever was missed).
    dispatch.compute_flags(instance.pk)
