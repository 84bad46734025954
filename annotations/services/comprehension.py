"""The comprehension check right after consent: questions about the task, two attempts.

Prolific's policy allows screening out on a comprehension check only when it comes at the very
start and the participant has two attempts. A study lists its questions with their right
answers (``Study.comprehension_questions``); the participant sees them in their language
(``Study.translations[lang]["comprehension"]``, else the default language's text) and never
the answers. A first wrong attempt is counted and the questions are shown again; a second
screens the participant out with the study's screen-out code: their place is not taken
(``participants.is_full`` never counts a screened-out participant) and the conversation
opened at consent is abandoned, so nothing waits for it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.models import Conversation, ConversationState, Participant, Study
from annotations.services import languages
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.errors import FlowError, invalid
from annotations.services.participants import (
    ScreenoutReason,
    actor_for,
    require_active,
    screen_out,
)

ATTEMPTS = 2  # Prolific's policy: at least two attempts before a screen-out
COMPREHENSION_FAILED = ScreenoutReason.COMPREHENSION_FAILED  # the screen-out reason
SUBMIT_ACTION = AuditAction.PARTICIPANT_COMPREHENSION


@dataclass(frozen=True)
class ComprehensionOption:
    id: str
    text: str


@dataclass(frozen=True)
class ComprehensionQuestion:
    id: str
    question: str
    options: tuple[ComprehensionOption, ...]


@dataclass(frozen=True)
class ComprehensionCheck:
    """What the participant's screen shows: the questions (no answers) and the attempts left."""

    questions: tuple[ComprehensionQuestion, ...]
    attempts_left: int
    failed_before: bool


def applies(participant: Participant) -> bool:
    """Whether the participant still has the check to pass (a preview too: the researcher
    sees what participants see)."""
    return bool(participant.study.comprehension_questions) and (
        participant.comprehension_passed_at is None
    )


def check_for(participant: Participant) -> ComprehensionCheck:
    study = participant.study
    language = languages.language_of(participant)
    return ComprehensionCheck(
        questions=tuple(_localized(study, language)),
        attempts_left=max(0, ATTEMPTS - participant.comprehension_attempts),
        failed_before=participant.comprehension_attempts > 0,
    )


def _localized(study: Study, language: str) -> list[ComprehensionQuestion]:
    translated: Mapping[str, Any] = {}
    if language != study.default_language:
        translated = study.translations.get(language, {}).get("comprehension", {})
    questions = []
    for question in study.comprehension_questions:
        texts = translated.get(question["id"], {})
        option_texts = texts.get("options", {})
        questions.append(
            ComprehensionQuestion(
                id=question["id"],
                # A missing translation shows the default language's text, as other texts do.
                question=(texts.get("question") or "").strip() or question["question"],
                options=tuple(
                    ComprehensionOption(
                        option["id"],
                        (option_texts.get(option["id"]) or "").strip() or option["text"],
                    )
                    for option in question["options"]
                ),
            )
        )
    return questions


@transaction.atomic
def submit_comprehension(participant: Participant, answers: Mapping[str, str]) -> bool:
    """Check one attempt; returns whether it passed. Every question needs an answer among its
    options (else ``invalid``, which counts no attempt). A wrong attempt is counted; the second
    screens the participant out (``COMPREHENSION_FAILED``) and abandons the conversation."""
    participant = (
        Participant.objects.select_for_update(of=("self",), no_key=True)
        .select_related("study")
        .get(pk=participant.pk)
    )
    require_active(participant)
    conversation = (
        Conversation.objects.select_for_update(no_key=True)
        .filter(participant=participant)
        .order_by("-pk")
        .first()
    )
    if (
        not applies(participant)
        or conversation is None
        or conversation.state != ConversationState.CONSENTED
    ):
        raise FlowError("wrong_step", "The comprehension check is not open now.")
    questions = participant.study.comprehension_questions
    known = {q["id"] for q in questions}
    for qid in answers:
        if qid not in known:
            raise invalid(f"answers.{qid}", "this question was not asked")
    for question in questions:
        chosen = answers.get(question["id"])
        if chosen is None:
            raise invalid(f"answers.{question['id']}", "please answer this question")
        if chosen not in {option["id"] for option in question["options"]}:
            raise invalid(f"answers.{question['id']}", "not one of this question's options")
    wrong = [q["id"] for q in questions if answers[q["id"]] != q["answer"]]
    attempt = participant.comprehension_attempts + 1
    actor = actor_for(participant)
    record_audit(
        SUBMIT_ACTION,
        target=participant,
        actor_label=actor,
        data={"attempt": attempt, "passed": not wrong, "wrong": wrong},
    )
    if not wrong:
        participant.comprehension_passed_at = timezone.now()
        participant.save(update_fields=["comprehension_passed_at"])
        return True
    participant.comprehension_attempts = attempt
    participant.save(update_fields=["comprehension_attempts"])
    if attempt >= ATTEMPTS:
        screen_out(participant, COMPREHENSION_FAILED)
        move(
            conversation,
            ConversationState.ABANDONED,
            actor_label=actor,
            audit_data={"reason": COMPREHENSION_FAILED},
        )
    return False
