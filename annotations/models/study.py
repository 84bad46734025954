"""Studies: what participants are recruited into and under which instrument and model pool."""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import models

from annotations.models.endpoint import ModelEndpoint
from annotations.models.instrument import Instrument
from annotations.models.quota import validate_quotas


def contact_addresses(text: str) -> list[str]:
    """The addresses of a ``safety_contacts`` text: one per line or separated by commas."""
    return [part.strip() for part in text.replace("\n", ",").split(",") if part.strip()]


def validate_contact_addresses(text: str) -> None:
    bad = []
    for address in contact_addresses(text):
        try:
            validate_email(address)
        except ValidationError:
            bad.append(address)
    if bad:
        raise ValidationError(f"Not an email address: {', '.join(bad)}.")


def _non_empty_string(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _topic_problem(index: int, topic: object) -> str | None:
    """What is wrong with one entry of a study's topics, or None.

    The participant pages and ``choose_topic`` read ``category`` as a string, ``subtopics`` as
    a list of strings and ``other`` as a flag; any other shape fails there, after a
    participant has started, so it is refused here instead."""
    where = f"topics[{index}]"
    if not isinstance(topic, dict) or not _non_empty_string(topic.get("category")):
        return f"{where}: expected an object with a category (a non-empty string)."
    subtopics = topic.get("subtopics", [])
    if not isinstance(subtopics, list):
        return f"{where}.subtopics: expected a list of strings."
    for position, subtopic in enumerate(subtopics):
        if not _non_empty_string(subtopic):
            return f"{where}.subtopics[{position}]: expected a non-empty string."
    if "other" in topic and not isinstance(topic["other"], bool):
        return f"{where}.other: expected true or false."
    return None


def validate_topics(topics: object) -> None:
    """Refuse a topics value that is not a list of well-formed topic objects, naming the entry."""
    if not isinstance(topics, list):
        raise ValidationError("topics: expected a list of topic objects.")
    problems = [p for i, t in enumerate(topics) if (p := _topic_problem(i, t))]
    if problems:
        raise ValidationError(problems)


# Languages the participant app has message catalogs for (frontend/src/i18n/locales/); a
# study can only enable these, or its pages would fall back to English mid-study.
PARTICIPANT_LANGUAGES: tuple[str, ...] = ("en", "es", "ar", "de")
# The study texts a translation in Study.translations may carry.
STUDY_TEXT_FIELDS: tuple[str, ...] = ("title", "consent_text", "support_resources")


def default_languages() -> list[str]:
    return ["en"]


def validate_languages(languages: object) -> None:
    if not isinstance(languages, list) or not languages:
        raise ValidationError("languages: expected a non-empty list of language codes.")
    unknown = [code for code in languages if code not in PARTICIPANT_LANGUAGES]
    if unknown:
        raise ValidationError(
            f"languages: no participant app catalog for {unknown}; "
            f"choose among {list(PARTICIPANT_LANGUAGES)}."
        )


# The instructed answer of an attention check in the annotation step is one of these (the
# participant app's catalogs word them: frontend/src/i18n/locales, ``attention.<option>``).
ATTENTION_OPTIONS: tuple[str, ...] = (
    "strongly_agree",
    "agree",
    "neutral",
    "disagree",
    "strongly_disagree",
)
MAX_COMPREHENSION_QUESTIONS = 10
MAX_COMPREHENSION_OPTIONS = 8


def _comprehension_problem(index: int, question: object, seen: set[str]) -> str | None:
    """What is wrong with one comprehension question, or None (the participant page and
    ``comprehension.submit_comprehension`` read exactly this shape)."""
    where = f"comprehension_questions[{index}]"
    if not isinstance(question, dict):
        return f"{where}: expected an object with id, question, options and answer."
    extra = set(question) - {"id", "question", "options", "answer"}
    if extra:
        return f"{where}: unknown keys {sorted(extra)}."
    qid = question.get("id")
    if not isinstance(qid, str) or not re.fullmatch(r"[a-z0-9_-]{1,40}", qid) or qid in seen:
        return (
            f"{where}.id: expected a unique id of 1 to 40 lower-case letters, digits, '_' or '-'."
        )
    seen.add(qid)
    if not _non_empty_string(question.get("question")):
        return f"{where}.question: expected a non-empty string."
    options = question.get("options")
    if not isinstance(options, list) or not 2 <= len(options) <= MAX_COMPREHENSION_OPTIONS:
        return f"{where}.options: expected 2 to {MAX_COMPREHENSION_OPTIONS} options."
    ids = []
    for position, option in enumerate(options):
        if (
            not isinstance(option, dict)
            or set(option) != {"id", "text"}
            or not isinstance(option["id"], str)
            or not re.fullmatch(r"[a-z0-9_-]{1,40}", option["id"])
            or not _non_empty_string(option["text"])
        ):
            return f'{where}.options[{position}]: expected {{"id": "...", "text": "..."}}.'
        ids.append(option["id"])
    if len(set(ids)) != len(ids):
        return f"{where}.options: two options share an id."
    if question.get("answer") not in ids:
        return f"{where}.answer: expected the id of one of its options."
    return None


def validate_comprehension_questions(questions: object) -> None:
    """A list of multiple-choice questions about the task, each with its right answer."""
    if not isinstance(questions, list) or len(questions) > MAX_COMPREHENSION_QUESTIONS:
        raise ValidationError(
            f"comprehension_questions: expected a list of at most {MAX_COMPREHENSION_QUESTIONS}."
        )
    seen: set[str] = set()
    problems = [p for i, q in enumerate(questions) if (p := _comprehension_problem(i, q, seen))]
    if problems:
        raise ValidationError(problems)


def validate_attention_check_turns(turns: object) -> None:
    if (
        not isinstance(turns, list)
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1 for n in turns)
        or len(set(turns)) != len(turns)
    ):
        raise ValidationError(
            "attention_check_turns: expected a list of distinct turn numbers (1, 2, ...)."
        )


def _comprehension_translation_problem(language: str, value: object) -> str | None:
    where = f"translations.{language}.comprehension"
    if not isinstance(value, dict):
        return f"{where}: expected an object keyed by question id."
    for qid, texts in value.items():
        if not isinstance(texts, dict) or set(texts) - {"question", "options"}:
            return f'{where}.{qid}: expected {{"question": "...", "options": {{id: text}}}}.'
        if not isinstance(texts.get("question", ""), str):
            return f"{where}.{qid}.question: expected a string."
        options = texts.get("options", {})
        if not isinstance(options, dict) or not all(isinstance(v, str) for v in options.values()):
            return f"{where}.{qid}.options: expected option id -> text."
    return None


def validate_translations(translations: object) -> None:
    """{language: {title?, consent_text?, support_resources?, topic_labels?, comprehension?,
    base_hash?}}."""
    if not isinstance(translations, dict):
        raise ValidationError("translations: expected an object keyed by language code.")
    allowed = set(STUDY_TEXT_FIELDS) | {"topic_labels", "comprehension", "base_hash"}
    for language, texts in translations.items():
        if language not in PARTICIPANT_LANGUAGES or not isinstance(texts, dict):
            raise ValidationError(f"translations.{language}: expected a known language's object.")
        extra = set(texts) - allowed
        if extra:
            raise ValidationError(f"translations.{language}: unknown keys {sorted(extra)}.")
        labels = texts.get("topic_labels", {})
        if not isinstance(labels, dict) or not all(isinstance(v, str) for v in labels.values()):
            raise ValidationError(f"translations.{language}.topic_labels: expected strings.")
        if any(not isinstance(texts.get(k, ""), str) for k in (*STUDY_TEXT_FIELDS, "base_hash")):
            raise ValidationError(f"translations.{language}: texts must be strings.")
        if "comprehension" in texts and (
            problem := _comprehension_translation_problem(language, texts["comprehension"])
        ):
            raise ValidationError(problem)


def validate_country_resources(resources: object) -> None:
    """{country: text}: the crisis resources of a country, by the profile's country answer."""
    if not isinstance(resources, dict) or not all(
        isinstance(k, str) and k.strip() and isinstance(v, str) for k, v in resources.items()
    ):
        raise ValidationError(
            "support_resources_by_country: expected an object of country answers to texts."
        )


class StudyStatus(models.TextChoices):
    DRAFT = "draft", "Draft"
    RECRUITING = "recruiting", "Recruiting"
    PAUSED = "paused", "Paused"
    CLOSED = "closed", "Closed"


class ReturningLinkPolicy(models.TextChoices):
    """What a study link does when its PROLIFIC_PID already started but nothing proves it is the
    same person (no token of theirs, another SESSION_ID): Prolific ids are not secrets."""

    BLOCK = "block", "Refuse, asking them to continue in the browser they started in"
    SCREEN_OUT = "screen_out", "Send them back to Prolific with the screen-out code"
    FRESH = "fresh", "Start a fresh session for them, showing nothing of the earlier one"


class Recruitment(models.TextChoices):
    """Where a study's participants come from, which says what a PROLIFIC_PID looks like."""

    PROLIFIC = "prolific", "Prolific: a PROLIFIC_PID must be Prolific's (24 lowercase hex digits)"
    LINK = "link", "Another link: any id of 1 to 64 letters, digits, '-' or '_'"


class WithdrawalPolicy(models.TextChoices):
    EXCLUDE = "exclude", "Keep the data, left out of every release"
    ERASE = "erase", "Erase what they wrote and answered"


class Study(models.Model):
    slug = models.SlugField(max_length=80, unique=True)
    title = models.CharField(max_length=200)
    status = models.CharField(max_length=16, choices=StudyStatus.choices, default=StudyStatus.DRAFT)
    instrument = models.ForeignKey(Instrument, on_delete=models.PROTECT, related_name="studies")
    consent_text = models.TextField(blank=True)
    consent_version = models.CharField(max_length=40, default="1")
    topics = models.JSONField(
        default=list, blank=True, help_text='[{"category": "...", "subtopics": ["..."]}]'
    )
    model_pool = models.ManyToManyField(ModelEndpoint, blank=True, related_name="studies")
    improver_endpoint = models.ForeignKey(
        ModelEndpoint,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="improver_for",
        help_text="Writes the 'improved' alternate reply participants compare against.",
    )
    moderation_endpoint = models.ForeignKey(
        ModelEndpoint,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="moderator_for",
        help_text="Optional second risk signal: this endpoint's model classifies each "
        "participant message in the background (never delaying the reply), beside the word "
        "match. Empty: off. An attune-demo endpoint answers offline.",
    )
    min_turns = models.PositiveSmallIntegerField(default=3)
    max_turns = models.PositiveSmallIntegerField(default=12)
    behaviour_questions_per_turn = models.PositiveSmallIntegerField(default=6)
    pairwise_questions_per_turn = models.PositiveSmallIntegerField(default=2)
    completion_code = models.CharField(max_length=64, blank=True)
    screenout_code = models.CharField(max_length=64, blank=True)
    target_participants = models.PositiveIntegerField(default=100)
    # Columns added after the table existed carry db_default beside default: the previous
    # release's code, still running during a rolling deploy, inserts rows that name no such column.
    quotas = models.JSONField(
        default=list,
        db_default=[],
        blank=True,
        validators=[validate_quotas],
        help_text="Quotas per stratum of the profile's traits, checked when a participant submits "
        'the profile, e.g. [{"id": "diagnosed", "trait": "diagnosis:", "at_most": 20}, '
        '{"id": "undiagnosed", "trait": "diagnosis:", "without": true, "at_least": 30}] '
        "(docs/prolific.md, Quotas).",
    )
    # The quotas whose ``quota.reached`` webhook was sent: once per quota id, ever.
    quotas_reached = models.JSONField(default=list, db_default=[], blank=True, editable=False)
    conversations_per_participant = models.PositiveSmallIntegerField(default=1)
    support_resources = models.TextField(
        blank=True,
        help_text="Shown to a participant whose message signals risk (who to call, where to go); "
        "left empty, the instrument's default text is shown.",
    )
    safety_contacts = models.TextField(
        blank=True,
        validators=[validate_contact_addresses],
        help_text="Email addresses told within a minute when a participant's message signals "
        "risk (a link to the conversation in QA, never the message), one per line or "
        "separated by commas.",
    )
    is_synthetic = models.BooleanField(
        default=False, help_text="Generated demo data, never real participants."
    )
    publish_system_prompts = models.BooleanField(
        default=False,
        help_text="Releases may publish the text of the system prompts this study's conversations "
        "ran under (the model_configs table). Off: only each prompt's sha256 is released.",
    )
    returning_link_policy = models.CharField(
        max_length=16,
        choices=ReturningLinkPolicy.choices,
        default=ReturningLinkPolicy.BLOCK,
        help_text="A link whose PROLIFIC_PID already started, from another browser and session.",
    )
    recruitment = models.CharField(
        max_length=16,
        choices=Recruitment.choices,
        default=Recruitment.PROLIFIC,
        help_text="A Prolific study refuses a link whose PROLIFIC_PID Prolific cannot have "
        "written (a bot's made-up id) before it takes a place.",
    )
    withdrawal_policy = models.CharField(
        max_length=16,
        choices=WithdrawalPolicy.choices,
        default=WithdrawalPolicy.EXCLUDE,
        help_text="What happens to a participant's data when they withdraw.",
    )
    languages = models.JSONField(
        default=default_languages,
        db_default=default_languages(),
        help_text=f"Languages participants may take the study in, from {list(PARTICIPANT_LANGUAGES)}: "
        "the study link's lang parameter or the browser picks one of them.",
    )
    default_language = models.CharField(
        max_length=16,
        default="en",
        db_default="en",
        help_text="The language of a participant whose link and browser name none of the "
        "enabled ones. The study's own texts (title, consent, support) are in this language.",
    )
    translations = models.JSONField(
        default=dict,
        db_default={},
        blank=True,
        help_text='The study\'s texts in its other languages: {"es": {"title": "...", '
        '"consent_text": "...", "support_resources": "...", "topic_labels": {"work": "trabajo"}, '
        '"base_hash": "<the texts\' hash when translated>"}}. A missing text shows the default '
        "language's.",
    )
    support_resources_by_country = models.JSONField(
        default=dict,
        db_default={},
        blank=True,
        help_text='Crisis resources per country: {"germany": "Telefonseelsorge 0800 111 0 111 '
        '...", "united_kingdom": "Samaritans 116 123 ..."}, keyed by the answer to the profile\'s '
        '"country" question. A participant who named a country listed here sees its text in '
        "the support notice (write it in the languages people there take the study in); "
        "anyone else sees the support resources in their language.",
    )
    comprehension_questions = models.JSONField(
        default=list,
        db_default=[],
        blank=True,
        help_text="Questions about the task asked right after consent, two attempts, as "
        "Prolific's policy asks; a second failure ends the session with the screen-out code. "
        '[{"id": "task", "question": "What will you do?", "options": [{"id": "chat", "text": '
        '"Chat and rate replies"}, {"id": "video", "text": "Watch videos"}], "answer": "chat"}]. '
        "Translations: translations.<lang>.comprehension.<id> = "
        '{"question": "...", "options": {"chat": "..."}}. Empty: no check.',
    )
    attention_check_turns = models.JSONField(
        default=list,
        db_default=[],
        blank=True,
        help_text="The turns whose annotation step carries an attention check (an instructed "
        "answer: \"For this question, choose 'Disagree'\"), e.g. [2]; a wrong answer raises "
        "the 'Failed attention check' QA flag. Empty: none.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["slug"]
        verbose_name_plural = "studies"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(min_turns__gte=1), name="study_min_turns_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(max_turns__gte=models.F("min_turns")),
                name="study_max_turns_ge_min",
            ),
            models.CheckConstraint(
                condition=models.Q(behaviour_questions_per_turn__lte=36),
                name="study_behaviour_per_turn_le_36",
            ),
            models.CheckConstraint(
                condition=models.Q(conversations_per_participant__gte=1),
                name="study_conversations_per_participant_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        # Checked here rather than as a field validator: full_clean (the admin form and
        # save_setup) runs it, and it needs no migration.
        try:
            validate_topics(self.topics)
        except ValidationError as error:
            raise ValidationError({"topics": error.messages}) from error
        for name, check in (
            ("languages", validate_languages),
            ("translations", validate_translations),
            ("support_resources_by_country", validate_country_resources),
            ("comprehension_questions", validate_comprehension_questions),
            ("attention_check_turns", validate_attention_check_turns),
        ):
            try:
                check(getattr(self, name))
            except ValidationError as error:
                raise ValidationError({name: error.messages}) from error
        if isinstance(self.languages, list) and self.default_language not in self.languages:
            raise ValidationError(
                {"default_language": "The default language must be one of the study's languages."}
            )
