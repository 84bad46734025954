"""Signal receivers, connected in ``QAConfig.ready``."""

from __future__ import annotations

from django.db import transaction

from annotations.models import Conversation, ConversationState


def sync_roles_after_migrate(sender, app_config, using: str, apps, **kwargs) -> None:
    from annotations.qa.roles import sync_roles

    sync_roles(apps, using=using)


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
    from annotations.qa.tasks import compute_flags_task

    conversation_id = instance.pk
    transaction.on_commit(lambda: compute_flags_task.delay(conversation_id))
