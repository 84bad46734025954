"""Request and response shapes of the participant API (also the OpenAPI schema's source).

Input serializers check types only; every check against the study's instrument happens in the
services, which name the offending field the same way. Output serializers read the services'
read model (annotations/services/progress.py) and never expose the hidden model: no endpoint,
provider, model name, system prompt or upstream error text reaches a participant.
"""

from __future__ import annotations

from typing import Any, TypedDict

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from annotations.models import ImprovedStatus, Turn, TurnAnnotation, TurnStatus
from annotations.models import client_error as client_error_limits
from annotations.models.study import ATTENTION_OPTIONS
from annotations.participant_api.json_limits import NOT_BLANK_PATTERN, json_size_at_most
from annotations.services import annotation_flow, languages, safety
from annotations.services.chat import MAX_MESSAGE_CHARS
from annotations.services.drafts import MAX_DRAFT_BYTES
from annotations.services.participants import MAXIMUM_AGE
from annotations.services.progress import Step
from annotations.services.surveys import MAX_FOLLOW_UP_CHARS, MAX_FOLLOW_UP_ITEMS
from attunebench.instrument import CUSTOM_PAIRWISE_PREFIX
from attunebench.other_text import MAX_OTHER_CHARS, TOPIC_OTHER_KEY
from attunebench.vocabulary import ANSWER_VALUES, WINNERS

# --- requests -----------------------------------------------------------------------------------


# min_length=1 states in the schema what DRF enforces anyway (allow_blank=False).
class _Lengths(TypedDict):
    max_length: int
    min_length: int


_NAMES: _Lengths = {"max_length": 200, "min_length": 1}
# Free JSON fields have a size of their own (the request body as a whole has Django's limit).
MAX_PROFILE_RESPONSES_BYTES = 16 * 1024
MAX_TIMINGS_BYTES = 4 * 1024


def other_text_field(keys: str = "question id", option: str = "an option with other: true") -> Any:
    """``other_text``: the participant's own words for a "Something else" option, by question
    (checked in the services: attunebench/other_text.py)."""
    return serializers.DictField(
        child=serializers.CharField(allow_blank=True, max_length=2 * MAX_OTHER_CHARS),
        required=False,
        default=dict,
        help_text=f"{keys} -> the text for {option} (1 to {MAX_OTHER_CHARS} characters once trimmed).",
    )


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false, nothing else. DRF's BooleanField also reads 0, 1, "yes", "off"...
    as booleans, so ``"agree": 0`` was taken as a refusal nobody sent as one; every boolean
    a participant sends goes through this field (tests/participant/test_strict_booleans.py)."""

    def to_internal_value(self, data: Any) -> bool:
        if data is True or data is False:
            return data
        self.fail("invalid", input=data)


class StartInput(serializers.Serializer):
    # The patterns the service enforces (participants.start_participant), stated in the schema.
    prolific_pid = serializers.RegexField(
        r"^[A-Za-z0-9_-]{1,64}$", max_length=64, help_text="PROLIFIC_PID from the study link."
    )
    study_id = serializers.RegexField(
        r"^[A-Za-z0-9_-]{0,64}$",
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="STUDY_ID from the study link.",
    )
    session_id = serializers.RegexField(
        r"^[A-Za-z0-9_-]{0,64}$",
        max_length=64,
        required=False,
        allow_blank=True,
        default="",
        help_text="SESSION_ID from the study link.",
    )
    language = serializers.RegexField(
        r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$",
        max_length=35,
        required=False,
        allow_blank=True,
        default="",
        help_text="The language the app chose (the link's lang parameter, else the browser's); "
        "the study's default language when the study does not enable it.",
    )


class ConsentInput(serializers.Serializer):
    consent_version = serializers.CharField(
        max_length=40, min_length=1, help_text="The version shown."
    )
    agree = StrictBooleanField(help_text="false screens the participant out.")


class ComprehensionInput(serializers.Serializer):
    answers = serializers.DictField(
        child=serializers.CharField(max_length=40, min_length=1),
        help_text="Question id -> the chosen option's id, for every question shown.",
    )


class ProfileInput(serializers.Serializer):
    age = serializers.IntegerField(min_value=0, max_value=MAXIMUM_AGE)
    age_confirmed = StrictBooleanField(
        default=True,
        help_text="false: an age under the "
        "minimum is refused with needs_confirmation instead "
        "of ending the study.",
    )
    answers = serializers.DictField(
        required=False,
        default=dict,
        validators=[json_size_at_most(MAX_PROFILE_RESPONSES_BYTES)],
        help_text="Question id -> option id (a list for multi-choice). No NUL character.",
    )
    other_text = other_text_field()
    traits = serializers.ListField(
        child=serializers.CharField(**_NAMES), max_length=20, default=list
    )
    goals = serializers.ListField(
        child=serializers.CharField(**_NAMES), max_length=20, default=list
    )
    diagnosis = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        **_NAMES,
        help_text="Optional self-reported diagnosis.",
    )
    responses = serializers.DictField(
        required=False,
        default=dict,
        validators=[json_size_at_most(MAX_PROFILE_RESPONSES_BYTES)],
        help_text="Free questionnaire answers (at most 16 KiB of JSON, no NUL character).",
    )


class PanasInput(serializers.Serializer):
    items = serializers.DictField(
        child=serializers.IntegerField(), help_text="Every PANAS item of the instrument -> 1..7."
    )


class TopicInput(serializers.Serializer):
    category = serializers.CharField(max_length=200, min_length=1)
    subtopic = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    other_text = other_text_field("category", "a topic with other: true")


class MessageInput(serializers.Serializer):
    # What the chat service refuses too: a message of whitespace only, or longer than the limit.
    text = serializers.RegexField(
        NOT_BLANK_PATTERN,
        max_length=MAX_MESSAGE_CHARS,
        trim_whitespace=False,
        help_text=f"The message, at most {MAX_MESSAGE_CHARS} characters, not only whitespace.",
    )
    idempotency_key = serializers.RegexField(
        r"^[A-Za-z0-9_-]{8,80}$",
        help_text="A fresh random id per message (e.g. a UUID); resending it returns the same turn.",
    )


class MoodTagInput(serializers.Serializer):
    emotion = serializers.CharField(max_length=40, min_length=1, help_text="A PANAS item.")
    intensity = serializers.IntegerField(help_text="On the instrument's scale (1..7).")


# The same values with their own labels: one choice set under two names would be a schema
# warning (drf-spectacular's check fails `check --deploy`).
OBSERVED_CHOICES = [("yes", "It did"), ("no", "It did not"), ("na", "Does not apply")]
PREFERRED_CHOICES = [
    ("yes", "It should have"),
    ("no", "It should not have"),
    ("na", "Does not apply"),
]
assert [v for v, _ in OBSERVED_CHOICES] == [v for v, _ in PREFERRED_CHOICES] == list(ANSWER_VALUES)


class BehaviourAnswerInput(serializers.Serializer):
    observed = serializers.ChoiceField(OBSERVED_CHOICES, help_text="Did the reply do it?")
    preferred = serializers.ChoiceField(PREFERRED_CHOICES, help_text="Should it have?")


class AnnotationInput(serializers.Serializer):
    mood_tags = serializers.ListField(
        child=MoodTagInput(),
        max_length=20,
        help_text="How your feelings shifted; [] for no clear shift.",
    )
    behaviour = serializers.DictField(
        child=BehaviourAnswerInput(),
        help_text="Question id -> answers, for exactly the questions shown.",
    )
    edited_reply = serializers.CharField(
        required=False,
        allow_null=True,
        allow_blank=True,
        max_length=annotation_flow.MAX_EDITED_REPLY_CHARS,
        trim_whitespace=False,
        default=None,
        help_text="The reply as you would have wanted it.",
    )
    pairwise = serializers.DictField(
        child=serializers.ChoiceField(WINNERS, allow_null=True),
        required=False,
        default=dict,
        help_text="Question id -> 'A', 'B' or null (no preference).",
    )
    timings = serializers.DictField(
        child=serializers.FloatField(min_value=0),
        required=False,
        default=dict,
        validators=[json_size_at_most(MAX_TIMINGS_BYTES)],
        help_text="Seconds spent per step (at most 4 KiB of JSON).",
    )
    attention = serializers.ChoiceField(
        list(ATTENTION_OPTIONS),
        required=False,
        allow_null=True,
        default=None,
        help_text="The answer to the step's attention check (required when it has one).",
    )


class PostSurveyInput(serializers.Serializer):
    looking_for = serializers.ListField(
        child=serializers.CharField(max_length=60, min_length=1), help_text="Q1 option ids."
    )
    emotion_clarity = serializers.CharField(max_length=60, min_length=1, help_text="Q2 option id.")
    model_fit = serializers.CharField(max_length=60, min_length=1, help_text="Q3 option id.")
    what_felt_off = serializers.ListField(
        child=serializers.CharField(
            allow_blank=True, trim_whitespace=False, max_length=MAX_FOLLOW_UP_CHARS
        ),
        max_length=MAX_FOLLOW_UP_ITEMS,
        required=False,
        default=list,
        help_text="Q3 follow-up; only when Q3 is in its shown_when list.",
    )
    four_branch = serializers.DictField(
        child=serializers.IntegerField(),
        help_text="perceiving, facilitating, understanding, managing -> 1..7.",
    )
    other_text = other_text_field("looking_for, emotion_clarity or model_fit")


class DraftInput(serializers.Serializer):
    data = serializers.JSONField(
        validators=[json_size_at_most(MAX_DRAFT_BYTES)],  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
        help_text="Anything but null the app wants back later (at most 64 KiB, no NUL character).",
    )


@extend_schema_field({"type": "boolean", "enum": [True]})
class TrueField(StrictBooleanField):
    """A confirmation: only true is accepted (the schema says so)."""


class WithdrawInput(serializers.Serializer):
    confirm = TrueField()

    def validate_confirm(self, value: bool) -> bool:
        if not value:
            raise serializers.ValidationError("must be true to withdraw")
        return value


class ClientErrorInput(serializers.Serializer):
    """An unexpected error of the app: where it happened, never what the participant typed.
    Any other key is dropped unread (``known_fields``). Kept as sent (no trimming), so the
    schema's bounds are exactly the checks."""

    message = serializers.RegexField(
        NOT_BLANK_PATTERN,
        max_length=client_error_limits.MAX_MESSAGE_CHARS,
        trim_whitespace=False,
        help_text="The error's message (the app cuts it to the bound).",
    )
    stack = serializers.CharField(
        max_length=client_error_limits.MAX_STACK_CHARS,
        allow_blank=True,
        trim_whitespace=False,
        default="",
        help_text="Where in the app's code (file names, functions, lines).",
    )
    screen = serializers.CharField(
        max_length=client_error_limits.MAX_SCREEN_CHARS,
        allow_blank=True,
        trim_whitespace=False,
        default="",
        help_text="The step the app showed (session.step), or the page before a session.",
    )
    build = serializers.CharField(
        max_length=client_error_limits.MAX_BUILD_CHARS,
        allow_blank=True,
        trim_whitespace=False,
        default="",
        help_text="The app's build id.",
    )


# --- responses ----------------------------------------------------------------------------------


class ErrorDetail(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(allow_null=True)


class ErrorOutput(serializers.Serializer):
    error = ErrorDetail()


class TurnError(serializers.Serializer):
    reason = serializers.CharField(help_text="failed: the reply could not be generated")
    message = serializers.CharField()
    retryable = serializers.BooleanField()


FAILED_REPLY_MESSAGE = "The reply could not be written. Your message is saved: please try again."
NOT_KEPT_MESSAGE = "You have withdrawn from the study, so this reply was not kept."


class TurnOutput(serializers.Serializer):
    number = serializers.IntegerField()
    status = serializers.ChoiceField(TurnStatus.choices)
    user_message = serializers.CharField()
    reply = serializers.CharField(source="model_reply")
    idempotency_key = serializers.CharField(
        allow_null=True,
        help_text="The key the message was sent with: the app knows its unsent draft was stored.",
    )
    error = serializers.SerializerMethodField()
    annotation_submitted = serializers.SerializerMethodField()

    @extend_schema_field(TurnError(allow_null=True))
    def get_error(self, turn: Turn) -> dict[str, Any] | None:
        # The stored error text names the endpoint and model: the participant gets a generic one.
        if turn.status != TurnStatus.FAILED:
            return None
        return {"reason": "failed", "message": FAILED_REPLY_MESSAGE, "retryable": True}

    def get_annotation_submitted(self, turn: Turn) -> bool:
        annotation = getattr(turn, "annotation", None)
        return annotation is not None and annotation.submitted_at is not None


class QuestionOutput(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField()


class ComparisonResponsesOutput(serializers.Serializer):
    A = serializers.CharField(help_text="The reply shown first.")
    B = serializers.CharField(help_text="The reply shown second.")


class ComparisonOutput(serializers.Serializer):
    status = serializers.ChoiceField(
        ImprovedStatus.choices,
        help_text="pending: poll again; ready: answer; failed/unavailable: skip. "
        "Pending lasts at most ATTUNE_IMPROVED_REPLY_TIMEOUT_S seconds "
        "(default 90) from the reply; then unavailable for good.",
    )
    questions = QuestionOutput(many=True)
    responses = ComparisonResponsesOutput(
        allow_null=True, help_text="The two replies once ready, else null."
    )


def _participant_instrument(annotation: TurnAnnotation) -> Any:
    """The wording in the participant's language (the ids are the instrument's in every one)."""
    conversation = annotation.turn.conversation
    return languages.instrument_for(
        conversation.study, languages.language_in(conversation)
    ).definition


class AttentionCheckOutput(serializers.Serializer):
    instructed = serializers.ChoiceField(
        list(ATTENTION_OPTIONS),
        help_text="The option the participant is told to choose (the app words the "
        "instruction and the options in the participant's language).",
    )
    options = serializers.ListField(
        child=serializers.ChoiceField(list(ATTENTION_OPTIONS)), help_text="In the order shown."
    )


class AnnotationStepOutput(serializers.Serializer):
    turn = serializers.IntegerField(source="turn.number")
    submitted = serializers.SerializerMethodField()
    answers_saved = serializers.SerializerMethodField(
        help_text="Every answer but the A/B choice is saved (while the comparison was pending); "
        "the step is submitted once the comparison is answered or skipped."
    )
    draft_key = serializers.SerializerMethodField()
    behaviour_questions = serializers.SerializerMethodField()
    attention_check = serializers.SerializerMethodField(
        help_text="An instructed-response item to answer in this step (attention), else null."
    )
    comparison = serializers.SerializerMethodField()

    def get_submitted(self, annotation: TurnAnnotation) -> bool:
        return annotation.submitted_at is not None

    def get_answers_saved(self, annotation: TurnAnnotation) -> bool:
        return annotation.answers_saved_at is not None

    def get_draft_key(self, annotation: TurnAnnotation) -> str:
        return annotation_flow.draft_key(annotation.turn.number)

    @extend_schema_field(QuestionOutput(many=True))
    def get_behaviour_questions(self, annotation: TurnAnnotation) -> list[dict[str, str]]:
        instrument = _participant_instrument(annotation)
        return [
            {"id": qid, "text": question.participant_wording}
            for qid in annotation.shown_behaviour_questions
            if (question := instrument.behaviour_question(qid)) is not None  # the instrument's own
        ]

    @extend_schema_field(AttentionCheckOutput(allow_null=True))
    def get_attention_check(self, annotation: TurnAnnotation) -> dict[str, Any] | None:
        if not annotation.attention_expected:
            return None
        return {"instructed": annotation.attention_expected, "options": list(ATTENTION_OPTIONS)}

    @extend_schema_field(ComparisonOutput)
    def get_comparison(self, annotation: TurnAnnotation) -> dict[str, Any]:
        instrument = _participant_instrument(annotation)
        wording = {q.id: q.participant_wording for q in instrument.pairwise_questions}
        questions = [
            {"id": qid, "text": wording.get(qid) or qid.removeprefix(CUSTOM_PAIRWISE_PREFIX)}
            for qid in annotation.selected_pairwise_questions
        ]
        # Past the wait for the improved reply, "pending" turns "unavailable" (annotation_flow).
        status = annotation_flow.comparison_status(annotation)
        if not questions:
            status = ImprovedStatus.UNAVAILABLE
        return {
            "status": status,
            "questions": questions,
            "responses": annotation_flow.comparison_texts(annotation),
        }


class SupportOutput(serializers.Serializer):
    resources = serializers.CharField(help_text="Show these prominently; the chat goes on.")
    turn = serializers.IntegerField(
        allow_null=True,
        help_text="The number of the latest turn whose "
        "message raised the notice: show it right under that message.",
    )


class ComprehensionOptionOutput(serializers.Serializer):
    id = serializers.CharField()
    text = serializers.CharField()


class ComprehensionQuestionOutput(serializers.Serializer):
    id = serializers.CharField()
    question = serializers.CharField()
    options = ComprehensionOptionOutput(many=True)


class ComprehensionOutput(serializers.Serializer):
    questions = ComprehensionQuestionOutput(many=True)
    attempts_left = serializers.IntegerField(
        help_text="Attempts left, this one included: a wrong answer on the last one ends the "
        "study with the screen-out code."
    )
    failed_before = serializers.BooleanField(help_text="The previous attempt was not right.")


class ExitOutput(serializers.Serializer):
    code = serializers.CharField()
    redirect_url = serializers.CharField(allow_null=True)


class TopicOption(serializers.Serializer):
    category = serializers.CharField()
    subtopics = serializers.ListField(child=serializers.CharField(), required=False)
    other = serializers.BooleanField(default=False, help_text="Asks for a text box (other_text).")


class StudyOutput(serializers.Serializer):
    """The study as one participant sees it: its texts in the participant's language."""

    slug = serializers.CharField()
    title = serializers.CharField()
    consent_text = serializers.CharField()
    consent_version = serializers.CharField()
    topics = TopicOption(many=True)
    topic_labels = serializers.DictField(
        child=serializers.CharField(),
        help_text="How to show a topic or subtopic in the participant's language, by the "
        "value stored (and sent back); a value not listed shows as it is.",
    )
    min_turns = serializers.IntegerField()
    max_turns = serializers.IntegerField()
    conversations_per_participant = serializers.IntegerField()
    message_max_chars = serializers.IntegerField()
    support_resources = serializers.CharField(
        help_text="Where to find help; worth a link on every page."
    )
    languages = serializers.ListField(
        child=serializers.CharField(), help_text="The languages the study enables."
    )
    default_language = serializers.CharField()


def study_view(participant: Any) -> dict[str, Any]:
    """The StudyOutput of ``participant``'s study, in the participant's language."""
    study = participant.study
    language = languages.language_of(participant)
    return {
        "slug": study.slug,
        "title": languages.study_text(study, "title", language),
        "consent_text": languages.study_text(study, "consent_text", language),
        "consent_version": study.consent_version,
        "topics": study.topics,
        "topic_labels": languages.topic_labels(study, language),
        "min_turns": study.min_turns,
        "max_turns": study.max_turns,
        "conversations_per_participant": study.conversations_per_participant,
        "message_max_chars": MAX_MESSAGE_CHARS,
        "support_resources": safety.support_resources(
            study, language, languages.country_of(participant)
        ),
        "languages": list(study.languages),
        "default_language": study.default_language,
    }


class ChatOutput(serializers.Serializer):
    turns = TurnOutput(many=True)
    answered = serializers.IntegerField(help_text="Turns with a reply and a submitted annotation.")
    can_send = serializers.BooleanField()
    can_finish = serializers.BooleanField()


class ConversationOutput(serializers.Serializer):
    number = serializers.IntegerField(help_text="1 for the first conversation of the participant.")
    topic_category = serializers.CharField()
    topic_subtopic = serializers.CharField()
    topic_other = serializers.CharField(
        help_text="The participant's own words for a topic that "
        "asks for them ('Something else'), or ''."
    )


class SessionOutput(serializers.Serializer):
    step = serializers.ChoiceField(
        [s.value for s in Step], help_text="The screen the app shows; the server decides it."
    )
    preview = serializers.BooleanField(source="participant.is_preview")
    language = serializers.SerializerMethodField(
        help_text="The participant's language (recorded at start): the app's texts, the "
        "study's and the instrument's all come in it."
    )
    study = serializers.SerializerMethodField()
    conversation = serializers.SerializerMethodField()
    chat = ChatOutput(allow_null=True)
    support = SupportOutput(allow_null=True)
    completion = ExitOutput(allow_null=True)
    screenout = ExitOutput(allow_null=True)
    comprehension = ComprehensionOutput(
        allow_null=True, help_text="The questions of the comprehension step (else null)."
    )

    def get_language(self, progress: Any) -> str:
        return languages.language_of(progress.participant)

    @extend_schema_field(StudyOutput)
    def get_study(self, progress: Any) -> dict[str, Any]:
        return StudyOutput(study_view(progress.participant)).data

    @extend_schema_field(ConversationOutput(allow_null=True))
    def get_conversation(self, progress: Any) -> dict[str, Any] | None:
        if progress.conversation is None:
            return None
        conversation = progress.conversation
        return ConversationOutput(
            {
                "number": progress.conversation_number,
                "topic_category": conversation.topic_category,
                "topic_subtopic": conversation.topic_subtopic,
                "topic_other": conversation.metadata_other.get(TOPIC_OTHER_KEY, ""),
            }
        ).data


class StartOutput(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Participant <token>`.")
    session = SessionOutput()


class DraftOutput(serializers.Serializer):
    key = serializers.CharField()
    data = serializers.JSONField()  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
    updated_at = serializers.DateTimeField()


# --- the instrument, as a participant sees it (no model-facing wording, no coordinates) -----------


class ScaleOutput(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()
    labels = serializers.SerializerMethodField()

    def get_labels(self, scale: Any) -> dict[str, str]:
        return {str(point): label for point, label in scale.labels}


class PanasItemOutput(serializers.Serializer):
    id = serializers.CharField(help_text="The item's id: what an answer names, in every language.")
    label = serializers.SerializerMethodField(  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
        help_text="The word shown, in the participant's language."
    )
    polarity = serializers.CharField()
    description = serializers.CharField()

    def get_label(self, item: Any) -> str:
        return str(self.context.get("panas_labels", {}).get(item.id, item.id))


class OptionOutput(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
    other = serializers.BooleanField(help_text="Asks for a text box (other_text).")


class ChoiceQuestionOutput(serializers.Serializer):
    prompt = serializers.CharField()
    multi = serializers.BooleanField()
    options = OptionOutput(many=True)


class ProfileOptionOutput(OptionOutput):
    exclusive = serializers.BooleanField(help_text="Cannot be combined with other options.")


class ProfileQuestionOutput(serializers.Serializer):
    id = serializers.CharField()
    kind = serializers.CharField(help_text="number, single or multi")
    prompt = serializers.CharField()
    required = serializers.BooleanField()  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
    min = serializers.IntegerField(allow_null=True)
    max = serializers.IntegerField(allow_null=True)
    options = ProfileOptionOutput(many=True)


class FollowUpOutput(serializers.Serializer):
    prompt = serializers.CharField()
    shown_when = serializers.ListField(child=serializers.CharField())


class BranchOutput(serializers.Serializer):
    id = serializers.CharField()
    label = serializers.CharField()  # type: ignore[assignment]  # a declared field: DRF's metaclass moves it off the class
    text = serializers.CharField(source="participant_wording")


class InstrumentOutput(serializers.Serializer):
    name = serializers.CharField()
    version = serializers.IntegerField()
    language = serializers.SerializerMethodField(
        help_text="The language of these texts (the base's when there is no translation)."
    )
    intensity_scale = ScaleOutput()
    panas_items = PanasItemOutput(many=True)
    q1_looking_for = ChoiceQuestionOutput()
    q2_emotion_clarity = ChoiceQuestionOutput()
    q3_model_fit = ChoiceQuestionOutput()
    q3_follow_up = FollowUpOutput()
    four_branches = BranchOutput(many=True)
    profile = serializers.SerializerMethodField()

    def get_language(self, instrument: Any) -> str:
        return str(self.context.get("language", "en"))

    @extend_schema_field(ProfileQuestionOutput(many=True))
    def get_profile(self, instrument: Any) -> list[dict[str, Any]]:
        """The profile questionnaire (empty when the instrument has none)."""
        questions = instrument.profile.questions if instrument.profile else ()
        # many=True makes a ListSerializer (its data a list); the stubs keep the item class.
        return ProfileQuestionOutput(questions, many=True).data  # type: ignore[return-value]  # many=True: a ListSerializer, whose data is a list
