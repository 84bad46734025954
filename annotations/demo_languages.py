"""The Spanish demo study, beside the English one (``make demo``): the same instrument in its
Spanish translation, the same topics (stored by their English values, shown in Spanish, so
the two studies' answers compare), and the same offline demo models.

Its link is /s/demo-es/?PROLIFIC_PID=demo-participant-1; the page speaks Spanish whatever the
browser's language (Spanish is the study's default; English is enabled too, ``?lang=en``).
"""

from __future__ import annotations

import json
from pathlib import Path

from django.db import transaction

from annotations.demo import ensure_demo_endpoints
from annotations.models import Instrument, InstrumentTranslation, Recruitment, Study, StudyStatus
from annotations.seeding import TOPICS
from annotations.services.instrument_translations import save_translation
from annotations.services.setup import save_setup
from annotations.services.studies import get_or_create_study

SPANISH_DEMO_SLUG = "demo-es"
TRANSLATIONS_DIR = Path(__file__).resolve().parent / "translations"

# The demo topics in Spanish, by the value the study stores.
SPANISH_TOPIC_LABELS = {
    "work": "trabajo",
    "a difficult manager": "un jefe difícil",
    "burnout": "agotamiento (burnout)",
    "a job interview": "una entrevista de trabajo",
    "relationships": "relaciones",
    "a breakup": "una ruptura",
    "a friend who drifted away": "una amistad que se alejó",
    "conflict at home": "conflictos en casa",
    "health": "salud",
    "a worrying diagnosis": "un diagnóstico preocupante",
    "sleeping badly": "dormir mal",
    "caring for a parent": "cuidar de un padre o una madre",
    "studies": "estudios",
    "exam stress": "estrés por los exámenes",
    "choosing a course": "elegir qué estudiar",
    "falling behind": "quedarse atrás",
    "something else": "otra cosa",
}


def translation_texts(instrument: Instrument, language: str) -> dict[str, str]:
    """The shipped translation of ``instrument`` (annotations/translations/<name>_v<N>.<lang>.json)."""
    path = (
        TRANSLATIONS_DIR
        / f"{instrument.name.replace('-', '_')}_v{instrument.version}.{language}.json"
    )
    texts: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return texts


def ensure_instrument_translation(instrument: Instrument, language: str) -> InstrumentTranslation:
    """The shipped translation, saved once (idempotent: a current one is left as it is)."""
    existing = instrument.translations.filter(language=language).first()
    if existing is not None and existing.base_hash == instrument.content_hash:
        return existing
    return save_translation(
        instrument, language, translation_texts(instrument, language), actor_label="system"
    )


@transaction.atomic
def ensure_spanish_demo_study() -> Study:
    endpoints = ensure_demo_endpoints()
    study = get_or_create_study(
        SPANISH_DEMO_SLUG,
        title="Estudio de demostración (datos sintéticos)",
        status=StudyStatus.RECRUITING,
        consent_text=(
            "Este es un estudio de demostración. Las respuestas proceden de un modelo de "
            "demostración sin conexión, no de una IA real."
        ),
        consent_version="demo-es-1",
        topics=[
            *({"category": category, "subtopics": list(subs)} for category, subs in TOPICS),
            {"category": "something else", "other": True},
        ],
        languages=["es", "en"],
        default_language="es",
        translations={
            "es": {"topic_labels": SPANISH_TOPIC_LABELS},
            "en": {
                "title": "Demo study in Spanish (synthetic data)",
                "consent_text": "This is a demonstration study. Replies come from an offline "
                "demo model, not a real AI.",
            },
        },
        completion_code="DEMO-ES-COMPLETE",
        screenout_code="DEMO-ES-SCREENOUT",
        safety_contacts="researcher@localhost",
        is_synthetic=True,
        publish_system_prompts=True,
        recruitment=Recruitment.LINK,
    )
    ensure_instrument_translation(study.instrument, "es")
    if study.improver_endpoint_id is None:
        study.improver_endpoint = next(e for e in endpoints if e.model_name == "improver")
    pool = [e for e in endpoints if e.model_name != "improver"]
    return save_setup(study, actor_label="system", many_to_many={"model_pool": pool})
