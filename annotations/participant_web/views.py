"""The participant app's page: one HTML shell for /s/<slug>/ and every path under it (the app
routes itself). Configuration travels in data attributes, never in an inline script."""

from __future__ import annotations

import logging
from pathlib import Path

from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.template import Context, Engine
from django.urls import reverse
from django.utils.cache import patch_cache_control

from annotations.models import Study
from annotations.participant_web.bundle import BuildMissing, current_bundle

# Written right to left (the app sets dir itself once it runs; this is the first paint's).
RTL_LANGUAGES = frozenset({"ar", "fa", "he", "ur"})

logger = logging.getLogger(__name__)

# A small engine of our own: this module is not an app, so APP_DIRS would not find its folder.
_templates = Engine(dirs=[str(Path(__file__).resolve().parent / "templates")])


def _api_base() -> str:
    # Every participant endpoint shares the prefix of the session endpoint.
    return reverse("study-session").removesuffix("session")


def participant_app(request: HttpRequest, slug: str) -> HttpResponse:
    try:
        bundle = current_bundle()
    except BuildMissing as missing:
        logger.error("participant app unavailable: %s", missing)
        html = _templates.get_template("participant_web/missing_build.html").render(
            Context({"problem": str(missing)})
        )
        return HttpResponse(html, status=503)
    # The study's languages let the app pick the participant's before the session exists
    # (the study link's lang parameter or the browser's); an unknown slug gets English (the
    # app then says there is no study at this link).
    study = Study.objects.filter(slug=slug).only("languages", "default_language").first()
    languages = study.languages if study else ["en"]
    default_language = study.default_language if study else "en"
    html = _templates.get_template("participant_web/index.html").render(
        Context(
            {
                "slug": slug,
                "api_base": _api_base(),
                "bundle": bundle,
                "languages": " ".join(languages),
                "default_language": default_language,
                "dir": "rtl" if default_language in RTL_LANGUAGES else "ltr",
            }
        )
    )
    response = HttpResponse(html)
    # The page names this build's hashed files: always ask again, so a deploy takes effect.
    patch_cache_control(response, no_cache=True)
    return response


def legacy_study_link(request: HttpRequest, slug: str) -> HttpResponse:
    """/study/<slug>/ (where recruitment links pointed first) -> /s/<slug>/, query kept.

    New links name /s/<slug>/ directly (services/study_links.py); this keeps the links
    already handed out working."""
    query = request.META.get("QUERY_STRING", "")
    target = reverse("participant-app", kwargs={"slug": slug})
    return HttpResponsePermanentRedirect(f"{target}?{query}" if query else target)
