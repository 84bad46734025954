"""The annotations app's tasks (with QA's and the releases'), sent by name after commit.

The names are the tasks' registered names (each task module uses the constant); the services
call these functions and never import a task module. See ``attune_collect/dispatch.py``.
"""

from __future__ import annotations

from attune_collect.dispatch import send_on_commit

IMPROVE_REPLY = "annotations.improve_reply"  # annotations/tasks.py
COMPUTE_FLAGS = "qa.compute_flags"  # annotations/qa/tasks.py
RISK_ALERT = "qa.risk_alert"  # annotations/qa/tasks.py
MODERATE_MESSAGE = "safety.moderate_message"  # annotations/tasks.py
READ_MESSAGE_RISK = "safety.read_message_risk"  # annotations/tasks.py
BUILD_RELEASE = "releases.build"  # annotations/releases/tasks.py
PROLIFIC_SYNC = "prolific.sync"  # annotations/prolific/tasks.py
PROLIFIC_SYNC_ALL = "prolific.sync_all"  # annotations/prolific/tasks.py (Celery beat)
PROLIFIC_SETTLE = "prolific.settle"  # annotations/prolific/tasks.py: send decisions, pay
SCAN_PERSONAL_DETAILS = "qa.scan_personal_details"  # annotations/qa/tasks.py
SCAN_STUDY_PERSONAL_DETAILS = "qa.scan_study_personal_details"  # annotations/qa/tasks.py


def improve_reply(turn_id: int) -> None:
    """Ask a worker for the turn's improved reply (the sweep asks again if this is lost)."""
    send_on_commit(IMPROVE_REPLY, turn_id)


def compute_flags(conversation_id: int) -> None:
    """Compute the QA flags of a completed conversation (the sweep again if this is lost)."""
    send_on_commit(COMPUTE_FLAGS, conversation_id)


def risk_alert(turn_id: int) -> None:
    """Raise the risk flag of the turn's conversation and email the study's safety contacts."""
    send_on_commit(RISK_ALERT, turn_id)


def moderate_message(turn_id: int) -> None:
    """Ask the study's moderation model for its verdict on the turn's message (never awaited
    by the chat; the sweep asks again if this is lost)."""
    send_on_commit(MODERATE_MESSAGE, turn_id)


def read_message_risk(turn_id: int) -> None:
    """Ask a worker for the learned risk model's read of the turn's message (the chat never
    waits for it; the sweep asks again while ``Turn.risk_read_due_at`` has passed)."""
    send_on_commit(READ_MESSAGE_RISK, turn_id)


def build_release(release_id: int) -> None:
    """Build a release (the sweep sends it again while it is queued and claimed by nobody)."""
    send_on_commit(BUILD_RELEASE, release_id)


def prolific_sync(link_id: int) -> None:
    """Sync one study with Prolific now (the admin's "sync now"; beat syncs every study)."""
    send_on_commit(PROLIFIC_SYNC, link_id)


def prolific_settle(link_id: int) -> None:
    """Send a study's owed approvals and rejections and pay its owed bonuses."""
    send_on_commit(PROLIFIC_SETTLE, link_id)


def scan_personal_details(conversation_id: int) -> None:
    """Scan a conversation's texts for personal details (off the request path; a release build
    scans whatever was not scanned, so a lost message delays nothing that matters)."""
    send_on_commit(SCAN_PERSONAL_DETAILS, conversation_id)


def scan_study_personal_details(study_id: int) -> None:
    """Scan a study's conversations not scanned yet (after an import)."""
    send_on_commit(SCAN_STUDY_PERSONAL_DETAILS, study_id)
