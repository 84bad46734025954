"""Celery tasks of the releases app: ids in, idempotent, acknowledged late.

A leaf: nothing imports this module (services send by name, ``annotations/dispatch.py``).
"""

from __future__ import annotations

from celery import shared_task

from annotations.dispatch import BUILD_RELEASE
from annotations.releases.services import build_release


@shared_task(name=BUILD_RELEASE, acks_late=True, reject_on_worker_lost=True)
def build_release_task(release_id: int) -> str:
    """Build and freeze one release. A redelivered message after a crash simply builds again."""
    return build_release(release_id).content_hash
