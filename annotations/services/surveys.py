"""The questionnaires around the chat: pre- and post-PANAS, the topic, and the post-chat
questions (Q1-Q3, the Q3 follow-up, four-branch ratings) whose submit completes a conversation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils import timezone

from annotations import dispatch
from annotations.models import (
    Conversation,
    ConversationState,
    ConversationWideAnswers,
    PanasPhase,
    PanasResponse,
    Participant,
    Study,
)
from annotations.services.assignment import open_conversation
from annotations.services.audit import record_audit
from annotations.services.conversation_states import move
from annotations.services.drafts import clear_drafts
from annotations.services.errors import FlowError, invalid
from annotations.services.participants import actor_for, current_conversation, require_active
from annotations.services.scale_values import on_scale
from annotations.services.study_instrument import instrument_of
from attune_collect.dispatch import resend_bound
from attunebench.instrument import ChoiceQuestion
from attunebench.instrument import Instrument as InstrumentDefinition
from attunebench.other_text import (
    TOPIC_OTHER_KEY,
    WIDE_OTHER_KEYS,
    OtherTextError,
    clean_other_texts,
)

MAX_TOPIC_CHARS = 200
MAX_FOLLOW_UP_ITEMS = 10
MAX_FOLLOW_UP_CHARS = 2000
# Which conversation state each PANAS phase belongs to.
_PANAS_STATE: dict[str, ConversationState] = {
    PanasPhase.PRE: ConversationState.PROFILED,
    PanasPhase.POST: ConversationState.POST_SURVEY,
}


def _open_conversation_in(participant: Participant, state: str, step: str) -> Conversation:
    require_active(participant)
    conversation = current_conversation(participant, lock=True)
    if conversation is None or conversation.state != state:
        raise FlowError("wrong_step", f"The {step} is not open now.")
    return conversation


@transaction.atomic
def submit_panas(participant: Participant, phase: str, items: Mapping[str, Any]) -> PanasResponse:
    """All PANAS items of the instrument, each on its intensity scale."""
    conversation = _open_conversation_in(participant, _PANAS_STATE[phase], f"{phase}-chat PANAS")
    if conversation.panas_responses.filter(phase=phase).exists():
        raise FlowError("already_submitted", "This questionnaire is already saved.")
    instrument = instrument_of(conversation.study)
    values = _panas_items(instrument, items)
    positive = sum(values[p.id] for p in instrument.positive_items)
    negative = sum(values[p.id] for p in instrument.negative_items)
    response = PanasResponse.objects.create(
        conversation=conversation,
        phase=phase,
        items=values,
        total_positive=positive,
        total_negative=negative,
        submitted_at=timezone.now(),
    )
    record_audit(
        f"annotations.panas.{phase}",
        target=conversation,
        actor_label=actor_for(participant),
        data={"positive": positive, "negative": negative},
    )
    clear_drafts(participant, f"panas:{phase}")
    return response


def _panas_items(instrument: InstrumentDefinition, items: Mapping[str, Any]) -> dict[str, int]:
    scale = instrument.intensity_scale
    values: dict[str, int] = {}
    for name, value in items.items():
        item = instrument.panas_item(name)
        if item is None:
            raise invalid(f"items.{name}", "is not one of the questionnaire's items")
        values[item.id] = on_scale(f"items.{name}", value, scale)
    for item_id in instrument.panas_ids:
        if item_id not in values:
            raise invalid(f"items.{item_id}", "please answer this item")
    return {item_id: values[item_id] for item_id in instrument.panas_ids}


@transaction.atomic
def choose_topic(
    participant: Participant,
    category: str,
    subtopic: str = "",
    other_text: Mapping[str, str] | None = None,
) -> Conversation:
    """The conversation's topic (one of the study's, when it lists any); the chat opens.

    A study topic with ``"other": true`` ("Something else") asks for the participant's own
    words (``other_text["category"]``), stored beside the category as the conversation's
    ``category_other`` metadata (exported with the record's metadata)."""
    conversation = _open_conversation_in(participant, ConversationState.PROFILED, "topic choice")
    if not conversation.panas_responses.filter(phase=PanasPhase.PRE).exists():
        raise FlowError("wrong_step", "Please answer the questionnaire about your feelings first.")
    category, subtopic = category.strip(), subtopic.strip()
    topics = conversation.study.topics or []
    match = None
    if topics:
        match = next((t for t in topics if t.get("category") == category), None)
        if match is None:
            raise invalid("category", "is not one of this study's topics")
        if subtopic and subtopic not in match.get("subtopics", []):
            raise invalid("subtopic", f"is not one of the topics under {category!r}")
    elif not category or len(category) > MAX_TOPIC_CHARS:
        raise invalid("category", f"must be 1 to {MAX_TOPIC_CHARS} characters")
    if len(subtopic) > MAX_TOPIC_CHARS:
        raise invalid("subtopic", f"at most {MAX_TOPIC_CHARS} characters")
    texts = _other_texts({"category": bool(match and match.get("other") is True)}, other_text)
    metadata = dict(conversation.metadata_other)
    if texts:
        metadata[TOPIC_OTHER_KEY] = texts["category"]
    move(
        conversation,
        ConversationState.CHATTING,
        actor_label=actor_for(participant),
        fields={
            "topic_category": category,
            "topic_subtopic": subtopic,
            "metadata_other": metadata,
            "started_at": timezone.now(),
        },
    )
    clear_drafts(participant, "topic")
    return conversation


@transaction.atomic
def submit_post_survey(
    participant: Participant,
    *,
    looking_for: list[str],
    emotion_clarity: str,
    model_fit: str,
    what_felt_off: list[str],
    four_branch: Mapping[str, Any],
    other_text: Mapping[str, str] | None = None,
) -> Conversation:
    """Q1-Q3, the follow-up and the four-branch ratings; completes the conversation and opens
    the next one when the study asks for more than one per participant. An option with
    ``"other": true`` ("Something else") asks for text (``other_text[<field>]``), stored in
    the answers' ``other`` under the format's key plus ``_other`` (``q1_lookingFor_other``)."""
    conversation = _open_conversation_in(
        participant, ConversationState.POST_SURVEY, "post-chat survey"
    )
    if not conversation.panas_responses.filter(phase=PanasPhase.POST).exists():
        raise FlowError("wrong_step", "Please answer the questionnaire about your feelings first.")
    instrument = instrument_of(conversation.study)
    looking_for = _choices("looking_for", instrument.q1_looking_for, looking_for)
    clarity = _choices("emotion_clarity", instrument.q2_emotion_clarity, [emotion_clarity])[0]
    fit = _choices("model_fit", instrument.q3_model_fit, [model_fit])[0]
    follow_up = _follow_up(instrument, fit, what_felt_off)
    ratings = _four_branch(instrument, four_branch)
    # API field -> (the instrument's question id, the question, the options chosen)
    chosen = {
        "looking_for": ("q1_looking_for", instrument.q1_looking_for, looking_for),
        "emotion_clarity": ("q2_emotion_clarity", instrument.q2_emotion_clarity, [clarity]),
        "model_fit": ("q3_model_fit", instrument.q3_model_fit, [fit]),
    }
    texts = _other_texts(
        {field: _asks_text(q, ids) for field, (_, q, ids) in chosen.items()}, other_text
    )
    ConversationWideAnswers.objects.create(
        conversation=conversation,
        looking_for=looking_for,
        emotion_clarity=clarity,
        model_fit=fit,
        what_felt_off=follow_up,
        has_four_branch=True,
        submitted_at=timezone.now(),
        other={WIDE_OTHER_KEYS[chosen[field][0]]: text for field, text in texts.items()},
        **ratings,
    )
    actor = actor_for(participant)
    now = timezone.now()
    move(
        conversation,
        ConversationState.COMPLETED,
        actor_label=actor,
        # Owed from now on: the workers' sweep asks again if they are not computed by then.
        fields={"completed_at": now, "flags_resend_at": now + resend_bound()},
    )
    # QA's automatic flags, computed by a worker after commit (a broker error is logged, never
    # an error for the participant; the sweep sends what it lost, qa/services/flagging.py).
    dispatch.compute_flags(conversation.pk)
    # Personal details in its texts, for the release review (qa/services/personal_details.py).
    dispatch.scan_personal_details(conversation.pk)
    clear_drafts(participant, "post_survey")
    done = Conversation.objects.filter(
        participant=participant, state=ConversationState.COMPLETED
    ).count()
    if done < conversation.study.conversations_per_participant:
        # Under the study's row lock, as consent opens the first (assignment.py): two
        # participants finishing at once must not both see the counts without the other's.
        study = Study.objects.select_for_update().get(pk=conversation.study_id)
        open_conversation(study, participant, state=ConversationState.PROFILED, actor_label=actor)
    return conversation


def _choices(field: str, question: ChoiceQuestion, chosen: list[str]) -> list[str]:
    if not chosen or (not question.multi and len(chosen) != 1):
        raise invalid(
            field, "choose one option" if not question.multi else "choose at least one option"
        )
    if len(set(chosen)) != len(chosen):
        raise invalid(field, "an option is chosen twice")
    for value in chosen:
        if value not in question.option_ids:
            raise invalid(field, f"{value!r} is not one of {', '.join(question.option_ids)}")
    return list(chosen)


def _asks_text(question: ChoiceQuestion, chosen: list[str]) -> bool:
    return any(option.other for option in question.options if option.id in chosen)


def _other_texts(wants_text: dict[str, bool], texts: Mapping[str, str] | None) -> dict[str, str]:
    try:
        return clean_other_texts(wants_text, texts or {})
    except OtherTextError as error:
        raise invalid(error.field, error.message) from None


def _follow_up(instrument: InstrumentDefinition, fit: str, answers: list[str]) -> list[str]:
    """ "What felt off" is asked only for the Q3 answers the instrument lists."""
    if fit not in instrument.q3_follow_up.shown_when:
        if answers:
            raise invalid("what_felt_off", "is only asked when the fit was not good")
        return []
    if len(answers) > MAX_FOLLOW_UP_ITEMS:
        raise invalid("what_felt_off", f"at most {MAX_FOLLOW_UP_ITEMS} entries")
    for i, text in enumerate(answers):
        if len(text) > MAX_FOLLOW_UP_CHARS:
            raise invalid(f"what_felt_off[{i}]", f"at most {MAX_FOLLOW_UP_CHARS} characters")
    return [text for text in answers if text.strip()]


def _four_branch(instrument: InstrumentDefinition, ratings: Mapping[str, Any]) -> dict[str, int]:
    scale = instrument.intensity_scale
    for key in ratings:
        if key not in instrument.branch_ids:
            raise invalid(f"four_branch.{key}", "is not one of the four branches")
    values = {}
    for branch in instrument.branch_ids:
        values[branch] = on_scale(f"four_branch.{branch}", ratings.get(branch), scale)
    return values
