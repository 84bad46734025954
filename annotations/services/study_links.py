"""The links a study hands out: the recruitment link for Prolific and where participants go
when they finish or are screened out."""

from __future__ import annotations

from urllib.parse import quote

from django.urls import reverse

from annotations.models import Study

# Where the participant app (frontend/) serves a study: /s/<slug>/ (participant_web/urls.py).
# Recruitment and preview links point there directly; /study/<slug>/, which the first links
# handed out named, only redirects there (query kept) and is never made for a new link.
PARTICIPANT_APP_URL_NAME = "participant-app"
# Prolific substitutes these placeholders in the study URL for each participant.
PROLIFIC_PLACEHOLDERS = {
    "PROLIFIC_PID": "{{%PROLIFIC_PID%}}",
    "STUDY_ID": "{{%STUDY_ID%}}",
    "SESSION_ID": "{{%SESSION_ID%}}",
}
PROLIFIC_RETURN_URL = "https://app.prolific.com/submissions/complete?cc={code}"


def participant_app_path(study: Study) -> str:
    """The path of the study's participant app (``/s/<slug>/``)."""
    return reverse(PARTICIPANT_APP_URL_NAME, kwargs={"slug": study.slug})


def recruitment_link(study: Study, base_url: str) -> str:
    """The URL to paste into Prolific (placeholders left for Prolific to fill)."""
    query = "&".join(f"{name}={value}" for name, value in PROLIFIC_PLACEHOLDERS.items())
    return f"{base_url.rstrip('/')}{participant_app_path(study)}?{query}"


def prolific_return_url(code: str) -> str | None:
    """Where Prolific wants the participant sent with a completion or screen-out code."""
    return PROLIFIC_RETURN_URL.format(code=quote(code, safe="")) if code else None
