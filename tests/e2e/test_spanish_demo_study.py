"""The Spanish demo study (``make demo``'s /s/demo-es/) in a real browser on a phone, from the
study link to the completion code: every page is in Spanish (no text of the English catalog or
of the English instrument is left on it), <html lang="es">, and axe finds nothing serious.
The browser speaks Spanish; the demo models answer offline, the improved reply comes from a
real Celery worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from annotations.demo_languages import ensure_spanish_demo_study, translation_texts
from annotations.models import PanasResponse, Participant
from annotations.services.instrument_translations import text_paths
from tests.e2e import participant as act
from tests.e2e.languages import english_left, english_texts
from tests.e2e.steps import PHONE, Steps
from tests.factories import unique

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def spanish_phone(browser, platform) -> Page:
    context = browser.new_context(viewport=PHONE, locale="es-ES")
    context.route(
        "https://app.prolific.com/**",
        lambda route: route.fulfill(body="<title>Prolific</title>", content_type="text/html"),
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def test_the_spanish_demo_study_from_link_to_completion_code(
    spanish_phone: Page, platform: str, screenshots
):
    page, steps = spanish_phone, Steps(screenshots)
    study = ensure_spanish_demo_study()
    study.min_turns, study.max_turns = 1, 2  # one reply is enough to see every screen
    study.save()
    es = translation_texts(study.instrument, "es")
    english = english_texts(text_paths(study.instrument), es)
    instrument = study.instrument.parsed()

    def spanish_page(name: str) -> None:
        expect(page.locator("html")).to_have_attribute("lang", "es")
        assert english_left(page, english) == [], name
        steps.capture(page, name)

    pid = unique("PIDES").replace("-", "")
    page.goto(f"{platform}/s/{study.slug}/?PROLIFIC_PID={pid}")
    expect(page.get_by_role("heading", name="Te damos la bienvenida")).to_be_visible()
    spanish_page("landing")
    page.get_by_role("button", name="Empezar").click()

    expect(page.get_by_role("heading", name="Información y consentimiento")).to_be_visible()
    spanish_page("consent")
    page.get_by_role("button", name="Acepto participar").click()

    expect(page.get_by_role("heading", name="Sobre ti")).to_be_visible()
    page.get_by_label("Tu edad en años").fill("29")
    page.get_by_role("radio", name="Mujer").check()
    spanish_page("profile")
    page.get_by_role("button", name="Continuar").click()

    expect(
        page.get_by_role("heading", name="Cómo te sientes antes de la conversación")
    ).to_be_visible()
    labels = [es[f"panas_items.{item}.label"] for item in instrument.panas_ids]
    act.answer_panas(page, dict.fromkeys(labels, 3))
    spanish_page("pre-panas")
    page.get_by_role("button", name="Continuar").click()

    expect(page.get_by_role("heading", name="Elige un tema")).to_be_visible()
    page.get_by_role("radio", name="Trabajo").check()
    page.get_by_role("radio", name="Agotamiento (burnout)").check()
    spanish_page("topic")
    page.get_by_role("button", name="Empezar la conversación").click()

    expect(page.get_by_role("heading", name="Conversación")).to_be_visible()
    page.get_by_label("Tu mensaje").fill("Últimamente el trabajo me deja agotada y no desconecto.")
    page.get_by_role("button", name="Enviar").click()
    expect(page.get_by_role("heading", name="Sobre esta respuesta")).to_be_visible(timeout=20_000)
    page.get_by_role("checkbox", name="Ningún cambio claro").check()
    for question in act.behaviour_questions(page):
        group = page.get_by_role("group", name=question, exact=True)
        for part in ("¿Lo hizo?", "¿Debería haberlo hecho?"):
            group.get_by_role("radiogroup", name=part).get_by_role(
                "radio", name="No aplica"
            ).check()
    expect(page.get_by_role("figure", name="Respuesta A")).to_be_visible(timeout=act.REPLY_WAIT_MS)
    for question in act.comparison_questions(page):
        group = page.get_by_role("group", name=question, exact=True)
        group.get_by_role("radio", name="Sin preferencia", exact=True).check()
    spanish_page("annotation")
    page.get_by_role("button", name="Guardar mis respuestas").click()
    expect(
        page.get_by_text("Tus respuestas sobre la respuesta del asistente están guardadas.")
    ).to_be_visible()
    spanish_page("chat-answered")

    page.get_by_role("button", name="Terminar la conversación").click()
    page.get_by_role("button", name="Sí, terminar la conversación").click()
    expect(
        page.get_by_role("heading", name="Cómo te sientes después de la conversación")
    ).to_be_visible()
    act.answer_panas(page, dict.fromkeys(labels, 4))
    page.get_by_role("button", name="Continuar").click()

    expect(page.get_by_role("heading", name="Sobre la conversación completa")).to_be_visible()
    q1 = page.get_by_role("group", name=es["conversation_wide.q1_looking_for.prompt"])
    q1.get_by_role(
        "checkbox", name=es["conversation_wide.q1_looking_for.options.vent.label"]
    ).check()
    page.get_by_role(
        "radio", name=es["conversation_wide.q2_emotion_clarity.options.clear.label"]
    ).check()
    page.get_by_role(
        "radio", name=es["conversation_wide.q3_model_fit.options.very_well.label"]
    ).check()
    for branch in instrument.branch_ids:
        act.answer_scale(page, es[f"four_branches.{branch}.participant_wording"], 5)
    spanish_page("post-survey")
    page.get_by_role("button", name="Enviar mis respuestas").click()

    expect(page.get_by_role("heading", name="¡Gracias!")).to_be_visible()
    expect(page.get_by_text("DEMO-ES-COMPLETE", exact=True)).to_be_visible()
    spanish_page("complete")
    steps.check()

    person = Participant.objects.get(study=study, prolific_pid=pid)
    assert person.language == "es"
    # The answers name the instrument's ids, as in English.
    assert set(person.responses) >= {"gender"} and person.responses["gender"] == "woman"
    pre = PanasResponse.objects.get(conversation__participant=person, phase="pre")
    assert set(pre.items) == set(instrument.panas_ids)
