"""The built participant app, read from Vite's manifest (frontend/dist/.vite/manifest.json).

The manifest maps the entry module to its hashed files; the page links them through Django's
static files (frontend/dist is in STATICFILES_DIRS once it exists, and whitenoise serves it),
so the HTML names only external files and the CSP's script-src 'self' holds.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.templatetags.static import static

DIST_DIR = Path(settings.BASE_DIR) / "frontend" / "dist"
MANIFEST_PATH = DIST_DIR / ".vite" / "manifest.json"
ENTRY = "src/main.tsx"
BUILD_COMMAND = "make frontend"


class BuildMissing(Exception):
    """The app is not built (or not served): the message tells the developer what to run."""


@dataclass(frozen=True)
class Bundle:
    scripts: tuple[str, ...]  # URLs of module scripts, the entry first
    styles: tuple[str, ...]  # URLs of stylesheets


def current_bundle() -> Bundle:
    try:
        mtime = MANIFEST_PATH.stat().st_mtime_ns
    except FileNotFoundError:
        raise BuildMissing(
            f"The participant app has not been built: {MANIFEST_PATH} is missing. "
            f"Run `{BUILD_COMMAND}` (npm ci and vite build in frontend/), then reload this page."
        ) from None
    if settings.DEBUG and not _dist_is_served():
        raise BuildMissing(
            "The participant app was built after the server started, so its files are not "
            "served yet (STATICFILES_DIRS only lists frontend/dist when it exists at start). "
            "Restart the server."
        )
    return _bundle_of(mtime)


def _dist_is_served() -> bool:
    return any(Path(d).resolve() == DIST_DIR.resolve() for d in settings.STATICFILES_DIRS)


@lru_cache(maxsize=4)
def _bundle_of(mtime_ns: int) -> Bundle:
    """Parsed once per build (keyed by the manifest's modification time)."""
    manifest = json.loads(MANIFEST_PATH.read_text(encoding="utf-8"))
    entry = manifest.get(ENTRY)
    if not isinstance(entry, dict) or "file" not in entry:
        raise BuildMissing(
            f"{MANIFEST_PATH} has no entry for {ENTRY}: run `{BUILD_COMMAND}` again."
        )
    files, styles = [entry["file"]], list(entry.get("css", []))
    for name in entry.get("imports", []):  # shared chunks: their CSS must load up front too
        chunk = manifest.get(name, {})
        styles.extend(chunk.get("css", []))
    try:
        return Bundle(
            scripts=tuple(static(f) for f in files),
            styles=tuple(static(f) for f in dict.fromkeys(styles)),
        )
    except ValueError as error:  # the manifest storage of production: collectstatic not run
        raise BuildMissing(
            f"The participant app's files are not collected ({error}). "
            "Run `python manage.py collectstatic` after building it."
        ) from None


def app_build_id() -> str:
    """The participant app's build: the first 16 hex of the manifest's sha256 ("" when unbuilt).

    Recorded in every configuration snapshot, so a conversation names the app it ran in.
    """
    try:
        mtime = MANIFEST_PATH.stat().st_mtime_ns
    except FileNotFoundError:
        return ""
    return _build_id_of(mtime)


@lru_cache(maxsize=4)
def _build_id_of(mtime_ns: int) -> str:
    return hashlib.sha256(MANIFEST_PATH.read_bytes()).hexdigest()[:16]
