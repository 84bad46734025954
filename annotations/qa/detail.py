"""The conversation page's data: every turn side by side, flags, corrections, reviews, history.

Everything is loaded in a fixed number of queries whatever the conversation's length, and
shaped into small view objects so the template only lays out. Double review is blind here:
until a conversation is decided, a reviewer sees only their own review and verdicts.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db.models import Prefetch, Q

from annotations.models import (
    AuditEntry,
    BehaviourJudgement,
    Conversation,
    MoodTag,
    PairwiseChoice,
    SignalKind,
    Turn,
    TurnSignal,
)
from annotations.qa.correction_fields import judgement_field, turn_field
from annotations.qa.flags import flag_label
from annotations.qa.flags.loading import annotation_seconds
from annotations.qa.models import (
    ConversationReview,
    Correction,
    Flag,
    FlagVerdict,
    Review,
    ReviewStatus,
)
from attunebench.instrument import Instrument as InstrumentDefinition
from attunebench.vocabulary import FOUR_BRANCHES, PANAS_ITEMS

LABELS = {"original": "Original", "alternate": "Improved", "human": "Participant's edit"}


@dataclass(frozen=True)
class Cell:
    """One correctable value: the participant's answer and the correction over it, if any."""

    path: str
    value: Any
    correction: Correction | None = None

    @property
    def shown(self) -> Any:
        return self.correction.corrected_value if self.correction else self.value


@dataclass(frozen=True)
class JudgementRow:
    question_id: str
    wording: str
    observed: Cell
    preferred: Cell
    llm_value: str | None


@dataclass(frozen=True)
class PairwiseRow:
    question_id: str
    wording: str
    response_a: str
    response_b: str
    winner: Cell


@dataclass(frozen=True)
class SignalView:
    """One safety check on a turn, as the reviewer reads it: which check, whether it fired,
    and what it saw (the word match's phrases, the moderation model's verdict)."""

    check: str
    fired: bool
    detail: str


@dataclass(frozen=True)
class TurnView:
    number: int
    status: str
    user_message: Cell
    model_reply: Cell
    improved_reply: str | None
    edited_reply: Cell | None
    edit_unchanged: bool
    tags: list[tuple[Cell, Cell]]
    judgements: list[JudgementRow]
    pairwise: list[PairwiseRow]
    annotation_seconds: float | None
    latency_ms: int | None
    flags: list[Flag] = field(default_factory=list)
    signals: list[SignalView] = field(default_factory=list)


@dataclass(frozen=True)
class FlagView:
    flag: Flag
    label: str
    verdicts: list[FlagVerdict]


@dataclass(frozen=True)
class ConversationDetail:
    conversation: Conversation
    qa: ConversationReview | None
    turns: list[TurnView]
    panas: list[tuple[str, Cell | None, Cell | None]]
    panas_totals: dict[str, tuple[int, int] | None]
    wide: dict[str, Any]
    flags: list[FlagView]
    corrections: list[Correction]
    reviews: list[Review]
    history: list[AuditEntry]
    reviewed_by_user: bool
    blind: bool  # this user may not see the other reviewer's decision yet

    @property
    def blind_pending(self) -> bool:
        """In a blind double review that is not decided: flags change only with a review."""
        return (
            self.qa is not None
            and self.qa.double_review
            and self.qa.status in (ReviewStatus.PENDING, ReviewStatus.AWAITING_SECOND)
        )


_PARSED_INSTRUMENTS: dict[str, InstrumentDefinition] = {}


def instrument_of(conversation: Conversation) -> InstrumentDefinition:
    """The parsed instrument, parsed once per version (a version never changes in place)."""
    instrument = conversation.study.instrument
    parsed = _PARSED_INSTRUMENTS.get(instrument.content_hash)
    if parsed is None:
        parsed = _PARSED_INSTRUMENTS[instrument.content_hash] = instrument.parsed()
    return parsed


def conversation_detail(
    conversation_id: int, user, *, sees_all_reviews: bool
) -> ConversationDetail:
    conversation = _load(conversation_id)
    qa = _one_to_one(conversation, "qa_review")
    flags = list(conversation.qa_flags.all())
    corrections = list(conversation.qa_corrections.select_related("created_by", "withdrawn_by"))
    active = {c.field_path: c for c in corrections if c.withdrawn_at is None}
    reviews = list(conversation.qa_reviews.select_related("reviewer"))
    decided = qa is not None and qa.status in (ReviewStatus.APPROVED, ReviewStatus.EXCLUDED)
    blind = qa is not None and qa.double_review and not decided and not sees_all_reviews
    visible = [r for r in reviews if not blind or r.reviewer_id == user.pk]
    verdicts: dict[int, list[FlagVerdict]] = defaultdict(list)
    for verdict in FlagVerdict.objects.filter(review__in=visible).select_related(
        "review__reviewer"
    ):
        verdicts[verdict.flag_id].append(verdict)
    instrument = instrument_of(conversation)
    flags_by_turn: dict[int, list[Flag]] = defaultdict(list)
    for flag in flags:
        for number in flag.turn_numbers or ():
            flags_by_turn[number].append(flag)
    hidden = {r.pk for r in reviews} - {r.pk for r in visible}
    return ConversationDetail(
        conversation=conversation,
        qa=qa,
        turns=[
            _turn(t, instrument, active, flags_by_turn[t.number]) for t in conversation.turns.all()
        ],
        panas=_panas_rows(conversation, active),
        panas_totals=_panas_totals(conversation),
        wide=_wide(conversation, active),
        flags=[FlagView(f, flag_label(f.flag_type), verdicts.get(f.pk, [])) for f in flags],
        corrections=corrections,
        reviews=visible,
        history=_history(conversation, qa, flags, corrections, reviews, hidden),
        reviewed_by_user=any(r.reviewer_id == user.pk for r in reviews),
        blind=blind,
    )


def _load(conversation_id: int) -> Conversation:
    turns = Turn.objects.select_related("annotation").prefetch_related(
        "signals",
        Prefetch("annotation__mood_tags", queryset=MoodTag.objects.order_by("position")),
        Prefetch(
            "annotation__behaviour_judgements",
            queryset=BehaviourJudgement.objects.order_by("position"),
        ),
        Prefetch(
            "annotation__pairwise_choices", queryset=PairwiseChoice.objects.order_by("position")
        ),
    )
    return (
        Conversation.objects.select_related(
            "study__instrument", "participant", "model_endpoint", "wide_answers", "qa_review"
        )
        .prefetch_related(
            Prefetch("turns", queryset=turns.order_by("number")),
            "panas_responses",
            Prefetch("qa_flags", queryset=Flag.objects.select_related("created_by", "resolved_by")),
        )
        .get(pk=conversation_id)
    )


def _one_to_one(obj, name: str):
    """The related row of a reverse one-to-one, or None where there is none."""
    try:
        return getattr(obj, name)
    except ObjectDoesNotExist:
        return None


def _cell(active: dict[str, Correction], path: str, value: Any) -> Cell:
    return Cell(path=path, value=value, correction=active.get(path))


def _turn(
    turn: Turn, instrument: InstrumentDefinition, active: dict[str, Correction], flags: list[Flag]
) -> TurnView:
    n = turn.number
    annotation = _one_to_one(turn, "annotation")
    tags, judgements, pairwise = [], [], []
    if annotation is not None:
        for i, tag in enumerate(annotation.mood_tags.all()):
            tags.append(
                (
                    _cell(active, turn_field(n, f"moodShiftTags[{i}].emotion"), tag.emotion),
                    _cell(active, turn_field(n, f"moodShiftTags[{i}].intensity"), tag.intensity),
                )
            )
        for j in annotation.behaviour_judgements.all():
            question = instrument.behaviour_question(j.question_id)
            judgements.append(
                JudgementRow(
                    question_id=j.question_id,
                    wording=question.participant_wording if question else "",
                    observed=_cell(
                        active, judgement_field(n, j.question_id, "observedBehavior"), j.observed
                    ),
                    preferred=_cell(
                        active, judgement_field(n, j.question_id, "preferredBehavior"), j.preferred
                    ),
                    llm_value=j.llm_value,
                )
            )
        wordings = {q.id: q.participant_wording for q in instrument.pairwise_questions}
        for i, choice in enumerate(annotation.pairwise_choices.all()):
            pairwise.append(
                PairwiseRow(
                    question_id=choice.question_id,
                    wording=wordings.get(
                        choice.question_id, choice.question_id.removeprefix("custom:")
                    ),
                    response_a=LABELS.get(choice.response_a, choice.response_a),
                    response_b=LABELS.get(choice.response_b, choice.response_b),
                    winner=_cell(
                        active,
                        turn_field(n, f"annotations.pairwiseComparisons[{i}].winner"),
                        choice.winner,
                    ),
                )
            )
    edited = annotation.human_edited_reply if annotation else None
    return TurnView(
        number=n,
        status=turn.status,
        user_message=_cell(active, turn_field(n, "userMessage"), turn.user_message),
        model_reply=_cell(active, turn_field(n, "llmResponse"), turn.model_reply),
        improved_reply=annotation.llm_improved_reply if annotation else None,
        edited_reply=(
            _cell(active, turn_field(n, "annotations.alternateResponses.humanEdited"), edited)
            if annotation
            else None
        ),
        edit_unchanged=edited is not None
        and " ".join(edited.split()) == " ".join(turn.model_reply.split()),
        tags=tags,
        judgements=judgements,
        pairwise=pairwise,
        annotation_seconds=annotation_seconds(annotation) if annotation else None,
        latency_ms=turn.latency_ms,
        flags=flags,
        signals=[_signal(s) for s in turn.signals.all()],
    )


_WORD_CHECKS: dict[str, str] = {
    SignalKind.RISK: "Risk words",
    SignalKind.IDENTITY_LEAK: "Vendor or model named",
}


def _signal(signal: TurnSignal) -> SignalView:
    evidence = signal.evidence or {}
    if signal.kind != SignalKind.MODERATION:
        where = signal.get_source_display().lower()
        phrases = ", ".join(f"“{p}”" for p in evidence.get("phrases", ()))
        if evidence.get("signal") == "model":  # the learned risk check fired alone
            return SignalView("Risk model", True, f"{where}: {_model_seen(evidence)}")
        seen = f"{where}: {phrases}"
        if evidence.get("score") is not None:
            seen += f" (model: {_model_seen(evidence)})"
        return SignalView(_WORD_CHECKS.get(signal.kind, signal.kind), True, seen)
    model = evidence.get("model") or evidence.get("endpoint") or "?"
    if evidence.get("error"):
        return SignalView("Moderation", False, f"no verdict ({model}): {evidence['error']}")
    if evidence.get("flagged") is True:
        categories = ", ".join(evidence.get("categories") or ()) or "no category"
        return SignalView("Moderation", True, f"flagged by {model}: {categories}")
    if "flagged" not in evidence:  # emptied when a withdrawn participant's data was erased
        return SignalView("Moderation", False, "erased")
    return SignalView("Moderation", False, f"not flagged by {model}")


def _model_seen(evidence: dict[str, Any]) -> str:
    """The learned risk check's score, whether it was borderline, and its nearest message."""
    seen = f"score {evidence.get('score')}"
    if evidence.get("borderline"):
        seen += ", borderline"
    if evidence.get("neighbour"):
        seen += f", nearest “{evidence['neighbour']}” ({evidence.get('category') or '?'})"
    return seen


def _panas_rows(
    conversation: Conversation, active: dict[str, Correction]
) -> list[tuple[str, Cell | None, Cell | None]]:
    by_phase = {p.phase: p for p in conversation.panas_responses.all()}
    rows = []
    for item in PANAS_ITEMS:
        cells = []
        for phase, name in (("pre", "prePanas"), ("post", "postPanas")):
            response = by_phase.get(phase)
            value = response.items.get(item) if response else None
            cells.append(
                _cell(active, f"{name}.items.{item}", value) if value is not None else None
            )
        rows.append((item, cells[0], cells[1]))
    return rows


def _panas_totals(conversation: Conversation) -> dict[str, tuple[int, int] | None]:
    by_phase = {p.phase: p for p in conversation.panas_responses.all()}
    return {
        phase: (r.total_positive, r.total_negative) if (r := by_phase.get(phase)) else None
        for phase in ("pre", "post")
    }


def _wide(conversation: Conversation, active: dict[str, Correction]) -> dict[str, Any]:
    answers = _one_to_one(conversation, "wide_answers")
    if answers is None:
        return {}
    prefix = "conversationWideQuestions"
    return {
        "looking_for": answers.looking_for,
        "emotion_clarity": _cell(active, f"{prefix}.q2_emotionClarity", answers.emotion_clarity),
        "model_fit": _cell(active, f"{prefix}.q3_modelFit", answers.model_fit),
        "what_felt_off": answers.what_felt_off,
        "branches": [
            (name, _cell(active, f"{prefix}.fourBranchScores.{name}", getattr(answers, name)))
            for name in FOUR_BRANCHES
        ]
        if answers.has_four_branch
        else [],
    }


def _history(
    conversation: Conversation,
    qa: ConversationReview | None,
    flags: list[Flag],
    corrections: list[Correction],
    reviews: list[Review],
    hidden_reviews: set[int],
) -> list[AuditEntry]:
    """Audit entries of the conversation and of its QA rows, newest first, in one query."""
    targets = Q(target_type="annotations.conversation", target_id=str(conversation.pk))
    for model_label, rows in (
        ("qa.flag", flags),
        ("qa.correction", corrections),
        ("qa.review", [r for r in reviews if r.pk not in hidden_reviews]),
    ):
        if rows:
            targets |= Q(target_type=model_label, target_id__in=[str(r.pk) for r in rows])
    if qa is not None:
        targets |= Q(target_type="qa.conversationreview", target_id=str(qa.pk))
    return list(AuditEntry.objects.filter(targets).order_by("-created_at", "-id")[:200])
