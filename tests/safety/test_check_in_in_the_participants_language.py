"""The gentler check-in of a borderline score is written in the participant's language (the
app's catalogs are; a language without its own words falls back to English)."""

from __future__ import annotations

import pytest

from annotations.services import safety
from tests.safety.test_borderline_asks_qa_only import _artefact_around, _checked_turn

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["es", "ar", "de"])
def test_the_check_in_speaks_the_participants_language(
    study, tiny_model, use_risk_artefact, language
):
    use_risk_artefact(_artefact_around(tiny_model, borderline=True))
    turn = _checked_turn(study)
    participant = turn.conversation.participant
    participant.language = language
    participant.save(update_fields=["language"])
    safety.check_message(turn, study, actor_label="test")

    notice = safety.notice_for_turn(turn, study)
    assert notice is not None and notice.gentle
    expected = safety.CHECK_IN_TEXTS.get(language, safety.CHECK_IN_TEXT)
    assert notice.resources.startswith(expected)
    assert safety.latest_notice(turn.conversation_id, study, language) == notice
