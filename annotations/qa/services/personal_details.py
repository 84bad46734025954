"""Personal details: scan conversations, review the findings, redact releases, erase on request.

Who may do what: scanning is the workers' (a Celery task after a conversation completes or is
imported, the release build, ``manage.py scan_personal_details``); reviewing a finding needs
``qa.review_personal_details`` in the conversation's study (researchers and QA reviewers);
erasing a participant needs ``qa.erase_participant`` there (researchers). Viewers and users
outside the study can do neither. Every decision is an audit entry.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from annotations.audit_actions import AuditAction
from annotations.interchange.to_records import iter_id_chunks, load_records
from annotations.models import Conversation, Participant
from annotations.qa.access import has_study_perm
from annotations.qa.models import (
    FindingStatus,
    ParticipantErasure,
    PersonalDetailFinding,
    PersonalDetailScan,
)
from annotations.qa.personal_details import model_spans, patterns
from annotations.qa.personal_details.kinds import DetailKind
from annotations.qa.personal_details.redaction import Span, redact_texts, repeats
from annotations.qa.personal_details.texts import record_texts, replace_texts
from annotations.qa.services import QAError, personal_detail_model
from annotations.services.audit import actor_label_for, record_audit
from annotations.services.participants import withdraw
from annotations.services.withdrawal import apply_withdrawal_policy
from attunebench import records

REVIEW_PERM = "qa.review_personal_details"
ERASE_PERM = "qa.erase_participant"
REVIEWER = "reviewer"  # the detector name of a span a reviewer marked by hand


class RedactionMode:
    """How a release treats findings: ``reviewed`` refuses a study with findings nobody
    reviewed and redacts the accepted ones; ``auto`` redacts every accepted finding and every
    unreviewed one scored at least ``AUTO_THRESHOLD`` (a dismissed one never)."""

    REVIEWED = "reviewed"
    AUTO = "auto"
    CHOICES = (REVIEWED, AUTO)


AUTO_THRESHOLD = 0.3


def detector_version() -> str:
    """The version a scan must carry to count as current: the pattern mode's, and the model
    mode's when it is on (turning it on, or changing its endpoint or prompt, makes every
    conversation due for a scan before its next release)."""
    endpoint = personal_detail_model.model_endpoint()
    if endpoint is None:
        return patterns.PATTERN_VERSION
    return f"{patterns.PATTERN_VERSION}+{personal_detail_model.model_version(endpoint)}"[:80]


def detector_versions() -> dict[str, str]:
    """The detectors and their versions, for release cards and manifests."""
    versions = patterns.versions()
    endpoint = personal_detail_model.model_endpoint()
    if endpoint is not None:
        versions["model"] = personal_detail_model.model_version(endpoint)
    return versions


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _content_sha(texts: dict[str, str]) -> str:
    return _sha("\x00".join(f"{path}\x01{text}" for path, text in texts.items()))


# --- scanning (workers) -------------------------------------------------------------------------


def scan_conversation(conversation_id: int) -> int:
    """Scan one conversation (the task's body); returns how many findings it added."""
    return scan_conversations([conversation_id])


def scan_conversations(conversation_ids: Sequence[int]) -> int:
    """Scan the texts of these conversations that the current detector has not read as they
    are now; returns how many findings were added. Idempotent."""
    ids = list(conversation_ids)
    version = detector_version()
    scans = {
        s.conversation_id: s for s in PersonalDetailScan.objects.filter(conversation_id__in=ids)
    }
    added = 0
    for conversation_id, record in zip(ids, load_records(ids), strict=True):
        texts = record_texts(record)
        content = _content_sha(texts)
        scan = scans.get(conversation_id)
        if scan is not None and scan.detector_version == version and scan.content_sha256 == content:
            continue
        # The model is asked outside the transaction (a call may take seconds).
        asked = personal_detail_model.detect_with_model(conversation_id, texts)
        stored_version = version if asked.complete else patterns.PATTERN_VERSION
        added += _scan_texts(conversation_id, texts, stored_version, content, asked.detections)
    return added


@transaction.atomic
def _scan_texts(
    conversation_id: int,
    texts: dict[str, str],
    version: str,
    content: str,
    model_detections: dict[str, list[patterns.Detection]] | None = None,
) -> int:
    # Unreviewed automatic findings are the detector's to replace; reviewed ones and a
    # reviewer's own spans stay (they apply only while their text is unchanged).
    PersonalDetailFinding.objects.filter(
        conversation_id=conversation_id, status=FindingStatus.PENDING
    ).exclude(detector=REVIEWER).delete()
    kept = set(
        PersonalDetailFinding.objects.filter(conversation_id=conversation_id).values_list(
            "field_path", "start", "end", "text_sha256"
        )
    )
    new: list[PersonalDetailFinding] = []
    for path, text in texts.items():
        text_sha = _sha(text)
        for found in model_spans.merged(
            patterns.detect(text), (model_detections or {}).get(path, [])
        ):
            if (path, found.start, found.end, text_sha) in kept:
                continue
            new.append(
                PersonalDetailFinding(
                    conversation_id=conversation_id,
                    field_path=path,
                    start=found.start,
                    end=found.end,
                    text_sha256=text_sha,
                    kind=found.kind.value,
                    detector=found.detector,
                    detector_version=found.detector_version,
                    score=found.score,
                )
            )
    PersonalDetailFinding.objects.bulk_create(new)
    PersonalDetailScan.objects.update_or_create(
        conversation_id=conversation_id,
        defaults={
            "detector_version": version,
            "content_sha256": content,
            "scanned_at": timezone.now(),
        },
    )
    return len(new)


def scan_queryset(
    queryset: QuerySet[Conversation],
    chunk_size: int = 200,
    after_chunk: Callable[[], None] | None = None,
) -> int:
    """Scan every conversation of the queryset not scanned as it is now by the current version
    (a release build and ``manage.py scan_personal_details``). ``after_chunk`` runs after each
    chunk: a build renews its lease there, so a long scan never loses the build's claim."""
    added = 0
    for ids in iter_id_chunks(queryset, chunk_size):
        added += scan_conversations(ids)
        if after_chunk is not None:
            after_chunk()
    return added


def unreviewed_findings(queryset: QuerySet[Conversation]) -> QuerySet[PersonalDetailFinding]:
    return PersonalDetailFinding.objects.filter(
        conversation__in=queryset, status=FindingStatus.PENDING
    )


# --- review (QA reviewers, researchers) ---------------------------------------------------------


def _authorise(actor: User, perm: str, study_id: int) -> None:
    if not has_study_perm(actor, perm, study_id):
        raise QAError("You may not do this in this study.", code="forbidden")


def _current_text(conversation: Conversation, path: str) -> str:
    texts = record_texts(load_records([conversation.pk])[0])
    if path not in texts:
        raise QAError(f"{path} is no text of this conversation.")
    return texts[path]


@transaction.atomic
def decide_finding(
    finding: PersonalDetailFinding,
    *,
    actor: User,
    accept: bool,
    start: int | None = None,
    end: int | None = None,
) -> PersonalDetailFinding:
    """Accept (optionally with an edited span) or dismiss a finding."""
    finding = (
        PersonalDetailFinding.objects.select_for_update()
        .select_related("conversation")
        .get(pk=finding.pk)
    )
    _authorise(actor, REVIEW_PERM, finding.conversation.study_id)
    before = {"status": finding.status, "start": finding.start, "end": finding.end}
    if accept and (start is not None or end is not None):
        text = _current_text(finding.conversation, finding.field_path)
        new_start = finding.start if start is None else start
        new_end = finding.end if end is None else end
        if not 0 <= new_start < new_end <= len(text):
            raise QAError(f"The span must lie within the text (0 to {len(text)}).")
        finding.start, finding.end, finding.text_sha256 = new_start, new_end, _sha(text)
    finding.status = FindingStatus.ACCEPTED if accept else FindingStatus.DISMISSED
    finding.reviewed_by = actor
    finding.reviewed_at = timezone.now()
    finding.save()
    action = (
        "edit"
        if accept and (finding.start, finding.end) != (before["start"], before["end"])
        else ("accept" if accept else "dismiss")
    )
    # The span's position and kind, never its text: the audit log is no place for the detail.
    record_audit(
        f"qa.personal_detail.{action}",
        target=finding,
        actor=actor,
        data={
            "conversation": finding.conversation_id,
            "field": finding.field_path,
            "kind": finding.kind,
            "before": before,
            "after": {"status": finding.status, "start": finding.start, "end": finding.end},
        },
    )
    return finding


@transaction.atomic
def mark_missed(
    conversation: Conversation, *, actor: User, field_path: str, start: int, end: int, kind: str
) -> PersonalDetailFinding:
    """A span the detectors missed, marked by a reviewer: accepted at once."""
    _authorise(actor, REVIEW_PERM, conversation.study_id)
    if kind not in DetailKind.__members__.values():
        raise QAError(f"Choose a kind from: {', '.join(DetailKind)}.")
    text = _current_text(conversation, field_path)
    if not 0 <= start < end <= len(text):
        raise QAError(f"The span must lie within the text (0 to {len(text)}).")
    finding = PersonalDetailFinding.objects.create(
        conversation=conversation,
        field_path=field_path,
        start=start,
        end=end,
        text_sha256=_sha(text),
        kind=kind,
        detector=REVIEWER,
        detector_version="",
        status=FindingStatus.ACCEPTED,
        reviewed_by=actor,
        reviewed_at=timezone.now(),
    )
    record_audit(
        AuditAction.QA_PERSONAL_DETAIL_ADD,
        target=finding,
        actor=actor,
        data={
            "conversation": conversation.pk,
            "field": field_path,
            "kind": kind,
            "span": [start, end],
        },
    )
    return finding


# --- the redaction layer (releases) -------------------------------------------------------------


@dataclass
class RedactionLayer:
    """The spans a release replaces, of a set of conversations, loaded once."""

    by_conversation: dict[int, list[PersonalDetailFinding]]
    mode: str
    # Placeholders written by kind, over every record applied (the card's and manifest's
    # redacted spans: a detail redacted at three places counts three).
    written: Counter[str] = field(default_factory=Counter)

    @classmethod
    def for_conversations(
        cls, ids: Iterable[int], mode: str, written: Counter[str] | None = None
    ) -> RedactionLayer:
        rows = (
            PersonalDetailFinding.objects.filter(conversation_id__in=list(ids))
            .exclude(status=FindingStatus.DISMISSED)
            .order_by("pk")  # a rebuild writes the same bytes
        )
        if mode != RedactionMode.AUTO:
            rows = rows.filter(status=FindingStatus.ACCEPTED)
        grouped: dict[int, list[PersonalDetailFinding]] = defaultdict(list)
        for finding in rows:
            if finding.status == FindingStatus.ACCEPTED or finding.score >= AUTO_THRESHOLD:
                grouped[finding.conversation_id].append(finding)
        return cls(dict(grouped), mode, Counter() if written is None else written)

    def apply(
        self,
        record: records.Conversation,
        conversation_id: int,
        stored: records.Conversation | None = None,
    ) -> records.Conversation:
        """``record`` as released, redacted. ``stored`` is the record the detectors scanned
        when ``record`` differs from it (the correction layer applied): a text a correction
        replaced was never scanned, so the pattern detector redacts it here, unreviewed."""
        findings = self.by_conversation.get(conversation_id, [])
        texts = record_texts(record)
        scanned = record_texts(stored) if stored is not None else texts
        # A finding of a text that changed since it was found does not fit the text (the build
        # scans every changed text first, so the new text has its own findings).
        current = [f for f in findings if _sha(scanned.get(f.field_path, "")) == f.text_sha256]
        spans = [
            Span(f.field_path, f.start, f.end, DetailKind(f.kind))
            for f in current
            if texts.get(f.field_path) == scanned.get(f.field_path)
        ]
        # What a reviewer accepted or marked once is redacted wherever else it is written in
        # the conversation (a corrected text included), with the same placeholder.
        reviewed: dict[str, DetailKind] = {}
        for f in current:
            if f.status == FindingStatus.ACCEPTED:
                reviewed.setdefault(scanned[f.field_path][f.start : f.end], DetailKind(f.kind))
        spans += repeats(texts, reviewed)
        for path, text in texts.items():
            if scanned.get(path) != text:
                spans += [Span(path, d.start, d.end, d.kind) for d in patterns.detect(text)]
        if not spans:
            return record
        return replace_texts(record, redact_texts(texts, spans, self.written))


# --- erasure on request (researchers) -----------------------------------------------------------


def erase_participant(participant: Participant, *, actor: User) -> ParticipantErasure:
    """Erase what a participant wrote and answered, on their request, whatever the study's
    withdrawal policy: withdrawn (no later release carries them), content erased (the rows stay
    as empty shells), and recorded for the retractions file of every later release.

    ``actor`` (the admin's user, or the command's ``--actor``) must be active and hold
    ``qa.erase_participant`` in the participant's study; there is no erasure without one.
    """
    _authorise(actor, ERASE_PERM, participant.study_id)
    label = actor_label_for(actor)
    with transaction.atomic():
        withdraw(participant)
        participant = Participant.objects.select_related("study").get(pk=participant.pk)
        erased = apply_withdrawal_policy(participant, policy="erase")
        conversations = list(
            Conversation.objects.filter(participant=participant)
            .order_by("pk")
            .values_list("pk", "external_id")
        )
        PersonalDetailFinding.objects.filter(
            conversation_id__in=[pk for pk, _ in conversations]
        ).delete()
        erasure = ParticipantErasure.objects.create(
            study_id=participant.study_id,
            participant=participant,
            conversation_ids=[external for _, external in conversations],
            erased_at=timezone.now(),
            erased_by=actor,
            actor_label=label,
        )
        record_audit(
            AuditAction.QA_PARTICIPANT_ERASE,
            target=participant,
            actor=actor,
            actor_label=label,
            data={**erased, "conversations": len(conversations)},
        )
    return erasure


def erasure_dates(study_ids: Iterable[int]) -> dict[str, str]:
    """Conversation external id -> the date it was erased, for a release's retractions."""
    dates: dict[str, str] = {}
    for erasure in ParticipantErasure.objects.filter(study_id__in=list(study_ids)):
        for external in erasure.conversation_ids:
            dates.setdefault(external, erasure.erased_at.date().isoformat())
    return dates
