"""The participant app's page at /s/<slug>/: the built bundle's hashed files, configuration in
data attributes (the CSP allows no inline script), and a clear page when the build is missing."""

import json
import re

import pytest

from annotations.participant_web import bundle
from tests.factories import make_study

# The page reads the study's languages (an unknown slug: English).
pytestmark = pytest.mark.django_db

MANIFEST = {
    "src/main.tsx": {
        "file": "participant-app/main-AbC123.js",
        "isEntry": True,
        "css": ["participant-app/main-Def456.css"],
        "imports": ["_shared-Ghi789.js"],
    },
    "_shared-Ghi789.js": {
        "file": "participant-app/shared-Ghi789.js",
        "css": ["participant-app/shared-Jkl0.css"],
    },
}


@pytest.fixture
def built_app(tmp_path, monkeypatch, settings):
    manifest = tmp_path / ".vite" / "manifest.json"
    manifest.parent.mkdir()
    manifest.write_text(json.dumps(MANIFEST))
    monkeypatch.setattr(bundle, "DIST_DIR", tmp_path)
    monkeypatch.setattr(bundle, "MANIFEST_PATH", manifest)
    settings.STATICFILES_DIRS = [tmp_path]
    bundle._bundle_of.cache_clear()
    yield manifest
    bundle._bundle_of.cache_clear()


def test_the_page_loads_the_hashed_bundle_as_external_module_scripts(client, built_app):
    response = client.get("/s/wellbeing-2026/?PROLIFIC_PID=abc&STUDY_ID=s&SESSION_ID=x")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<script type="module" src="/static/participant-app/main-AbC123.js"></script>' in html
    assert '<link rel="stylesheet" href="/static/participant-app/main-Def456.css">' in html
    assert '<link rel="stylesheet" href="/static/participant-app/shared-Jkl0.css">' in html
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), (
        "an inline script would break the CSP"
    )
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert "no-cache" in response["Cache-Control"]


def test_the_study_slug_and_api_base_travel_as_data_attributes(client, built_app):
    html = client.get("/s/wellbeing-2026/").content.decode()
    assert 'data-study-slug="wellbeing-2026"' in html
    assert 'data-api-base="/api/study/"' in html


def test_the_study_languages_travel_and_the_page_starts_in_its_default(client, built_app):
    make_study(slug="estudio", languages=["es", "ar"], default_language="ar")
    html = client.get("/s/estudio/").content.decode()
    assert '<html lang="ar" dir="rtl">' in html
    assert 'data-languages="es ar" data-default-language="ar"' in html
    assert '<html lang="en" dir="ltr">' in client.get("/s/no-such-study/").content.decode()


def test_every_path_under_the_study_gets_the_same_page(client, built_app):
    response = client.get("/s/wellbeing-2026/chat/turn/3")
    assert response.status_code == 200
    assert 'data-study-slug="wellbeing-2026"' in response.content.decode()


def test_a_missing_build_says_how_to_build_it(client, tmp_path, monkeypatch):
    monkeypatch.setattr(bundle, "MANIFEST_PATH", tmp_path / "nothing" / "manifest.json")
    response = client.get("/s/wellbeing-2026/")
    assert response.status_code == 503
    assert "make frontend" in response.content.decode()


def test_a_build_made_after_the_server_started_asks_for_a_restart(client, built_app, settings):
    settings.DEBUG = True
    settings.STATICFILES_DIRS = []
    response = client.get("/s/wellbeing-2026/")
    assert response.status_code == 503
    assert "Restart the server" in response.content.decode()


def test_the_first_recruitment_link_path_redirects_with_the_prolific_ids(client):
    response = client.get("/study/wellbeing-2026/?PROLIFIC_PID=abc&STUDY_ID=s&SESSION_ID=x")
    assert response.status_code == 301
    assert response["Location"] == "/s/wellbeing-2026/?PROLIFIC_PID=abc&STUDY_ID=s&SESSION_ID=x"
