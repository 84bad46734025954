"""Release write paths: create a release, build it (the Celery task body), diff two releases.

The build writes into a temporary folder of its own next to the final one and renames it at the
end, so a worker killed at any point leaves no half release; running the build again finishes the
job. A worker holds the build by a claim (the row's attempt number, under a lease it renews); one
that lost it (its lease lapsed and another worker took over) stops at its next renewal or at the
rename, which is checked against the claim in the same locked step, and touches nothing but its
own temporary files (``_publish``).
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import shutil
import stat
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from annotations import dispatch
from annotations.interchange.to_records import iter_id_chunks, load_records
from annotations.models import Conversation, ConversationState, ModelConfig, Participant, Study
from annotations.qa.corrections import apply_corrections
from annotations.qa.selectors import agreement_summary, approved_conversations, exclusion_reasons
from annotations.qa.services.personal_details import (
    RedactionLayer,
    erasure_dates,
    scan_queryset,
    unreviewed_findings,
)
from annotations.qa.services.personal_details import (
    detector_versions as personal_detail_versions,
)
from annotations.releases.archive import SUFFIX, write_archive
from annotations.releases.cards import ReleaseInfo, StudyInfo, Translation
from annotations.releases.configurations import ConfigSnapshot, read_configurations
from annotations.releases.folder import FolderResult, ReleaseFolderWriter, ReleaseItem
from annotations.releases.manifest import MANIFEST_NAME, sha256_file
from annotations.releases.models import (
    SEMVER,
    AnnotationLayer,
    QaRule,
    Redaction,
    Release,
    ReleaseFrozenError,
    ReleaseState,
)
from annotations.releases.retractions import RETRACTIONS_NAME
from annotations.releases.signals import build_chunk_written
from annotations.releases.versioning import (
    ReleaseDiff,
    diff_configurations,
    diff_hashes,
    parse_version,
    version_problem,
)
from annotations.services.audit import record_audit
from annotations.services.languages import BASE_LANGUAGE
from attune_collect.config import attune_config
from attune_collect.dispatch import resend_bound
from attune_collect.errors import ServiceError
from attunebench.writer import conversation_filename
from webhooks.event_types import EventType
from webhooks.events import emit

logger = logging.getLogger(__name__)
DEFAULT_SUBSAMPLES = [100, 50, 25, 20]


class ReleaseError(ServiceError):
    """A release request that cannot be carried out; the message says why and what to do."""

    default_code = "release_refused"


class BuildClaimLost(ReleaseError):
    """This worker's claim on a build is gone (its lease lapsed and the build was sent again or
    taken over): it stops, publishes nothing and removes only its own temporary files."""

    default_code = "release_claim_lost"


def release_pseudonym(internal_pseudonym: str) -> str:
    """Keyed hash of the internal pseudonym: stable across releases, useless without the salt."""
    digest = hmac.new(
        settings.PSEUDONYM_SALT.encode(), internal_pseudonym.encode(), hashlib.sha256
    ).hexdigest()
    return f"p_{digest[:20]}"


def releases_root() -> Path:
    return attune_config().releases_dir


def chunk_size() -> int:
    return attune_config().release_chunk_size


# --- create -----------------------------------------------------------------------------------


def check_release_request(*, name: str, version: str, studies: Sequence[Study]) -> None:
    """Refuse a release that cannot be created, naming the field to change (``ReleaseError``).

    Reads only, so a form may ask before anything is written (the releases admin does);
    ``create_release`` asks again inside its transaction.
    """
    if not re.match(SEMVER, version):
        raise ReleaseError(
            f"version {version!r} is not MAJOR.MINOR.PATCH (e.g. 1.0.0)", field="version"
        )
    if not studies:
        raise ReleaseError("choose at least one study", field="studies")
    if len({study.instrument_id for study in studies}) > 1:
        raise ReleaseError(
            "the studies use different instruments; a release holds one instrument version",
            field="studies",
        )
    existing = Release.objects.filter(name=name, version=version).first()
    if existing is not None:
        raise ReleaseError(
            f"{existing} already exists ({existing.get_state_display()})", field="version"
        )
    previous = latest_frozen(name)
    if previous is not None and parse_version(version) <= previous.version_tuple:
        raise ReleaseError(
            f"version {version} is not higher than the latest release {previous}", field="version"
        )


@transaction.atomic
def create_release(
    *,
    name: str,
    version: str,
    studies: list[Study],
    completed_only: bool = True,
    qa_rule: str = QaRule.NON_EXCLUDED,
    layer: str = AnnotationLayer.PARTICIPANT,
    redaction: str = Redaction.REVIEWED,
    subsample_sizes: list[int] | None = None,
    subsample_seed: int = 2026,
    license: str = "cc-by-4.0",
    license_name: str = "",
    description: str = "",
    actor: User | None = None,
    actor_label: str | None = None,
) -> Release:
    """Validate the request and store a draft release. Enqueue it with ``enqueue_build``."""
    check_release_request(name=name, version=version, studies=studies)
    release = Release(
        name=name,
        version=version,
        completed_only=completed_only,
        qa_rule=qa_rule,
        layer=layer,
        redaction=redaction,
        subsample_sizes=DEFAULT_SUBSAMPLES if subsample_sizes is None else subsample_sizes,
        subsample_seed=subsample_seed,
        license=license,
        license_name=license_name,
        description=description,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    try:
        release.full_clean(exclude=["studies"])
    except ValidationError as exc:  # a field's value (e.g. an unknown license): say which
        raise ReleaseError.from_validation_error(exc) from None
    release.save()
    release.studies.set(studies)
    record_audit(
        "releases.create",
        target=release,
        actor=actor,
        actor_label=actor_label,
        data={"name": name, "version": version, "studies": [s.slug for s in studies]},
    )
    return release


def enqueue_build(
    release: Release, *, actor: User | None = None, actor_label: str | None = None
) -> None:
    """Queue the export on a Celery worker once the surrounding transaction has committed.

    Refused while a worker holds the build under a live lease: queuing again would reset its
    claim, and the second build would delete the first one's temporary folder under it. A
    build whose worker died is queued again once its lease lapses (the sweep does it anyway).
    """
    if release.state == ReleaseState.FROZEN:
        raise ReleaseFrozenError(f"{release} is frozen; build a new version instead")
    now = timezone.now()
    queued = (
        Release.objects.filter(pk=release.pk)
        .exclude(state=ReleaseState.FROZEN)
        .filter(
            ~Q(state=ReleaseState.BUILDING)
            | Q(lease_expires_at__isnull=True)
            | Q(lease_expires_at__lte=now)
        )
        .update(state=ReleaseState.DRAFT, error="", queued_at=now, lease_expires_at=None)
    )
    if not queued:  # the check and the update are one statement: two retries cannot both pass
        release.refresh_from_db()
        if release.state == ReleaseState.FROZEN:
            raise ReleaseFrozenError(f"{release} is frozen; build a new version instead")
        raise ReleaseError(building_message(release))
    record_audit("releases.enqueue", target=release, actor=actor, actor_label=actor_label)
    dispatch.build_release(release.pk)


def building_message(release: Release) -> str:
    """Why a second build of a release a worker is building is refused."""
    lease = release.lease_expires_at
    until = f" (its claim runs until {timezone.localtime(lease):%H:%M:%S} unless renewed)"
    return (
        f"{release} is being built by a worker{until if lease else ''}; "
        "wait for the build to finish, or retry once it has stopped"
    )


def build_lease() -> timedelta:
    return timedelta(seconds=attune_config().release_build_lease_s)


def sweep_release_builds() -> list[int]:
    """Send again the builds a killed worker held (building under a lapsed lease) and those
    queued but claimed by nobody past the bound (their message was lost with a worker).
    A build sent twice is harmless: only one claim wins (``build_release``)."""
    now = timezone.now()
    stuck = Release.objects.filter(
        Q(state=ReleaseState.BUILDING, lease_expires_at__lt=now)
        | Q(state=ReleaseState.DRAFT, queued_at__lt=now - resend_bound())
    )
    sent = []
    for release in stuck:
        changed = Release.objects.filter(
            pk=release.pk, state=release.state, attempts=release.attempts
        ).update(state=ReleaseState.DRAFT, queued_at=now, lease_expires_at=None)
        if changed:
            record_audit(
                "releases.build.requeued",
                target=release,
                actor_label="worker",
                data={"was": release.state, "attempts": release.attempts},
            )
            dispatch.build_release(release.pk)
            sent.append(release.pk)
    return sent


def latest_frozen(name: str) -> Release | None:
    frozen = [r for r in Release.objects.filter(name=name, state=ReleaseState.FROZEN)]
    return max(frozen, key=lambda r: r.version_tuple) if frozen else None


# --- select -----------------------------------------------------------------------------------


def selected_conversations(release: Release) -> tuple[QuerySet[Conversation], dict[str, int]]:
    """The conversations the rules include, and how many were left out for each reason."""
    base = Conversation.objects.filter(study__in=release.studies.all())
    left_out = base.aggregate(
        withdrawn=Count("pk", filter=Q(participant__withdrawn=True)),
        preview=Count("pk", filter=Q(participant__is_preview=True, participant__withdrawn=False)),
        excluded=Count(
            "pk",
            filter=Q(
                state=ConversationState.EXCLUDED,
                participant__withdrawn=False,
                participant__is_preview=False,
            ),
        ),
    )
    chosen = base.filter(participant__withdrawn=False, participant__is_preview=False).exclude(
        state=ConversationState.EXCLUDED
    )
    if release.completed_only:
        left_out["not_completed"] = chosen.exclude(state=ConversationState.COMPLETED).count()
        chosen = chosen.filter(state=ConversationState.COMPLETED)
    if release.qa_rule == QaRule.APPROVED:
        approved = approved_conversations(chosen)
        left_out["not_qa_approved"] = chosen.count() - approved.count()
        chosen = approved
    return chosen, left_out


# --- build ------------------------------------------------------------------------------------


def build_release(release_id: int) -> Release:
    """Build and freeze a release. Idempotent: a frozen release is returned as it is.

    Raises ``BuildClaimLost`` when another worker took the build over before this one froze it.
    """
    with transaction.atomic():
        release = Release.objects.select_for_update().get(pk=release_id)
        if release.state == ReleaseState.FROZEN:
            return release
        now = timezone.now()
        if release.state == ReleaseState.BUILDING and (release.lease_expires_at or now) > now:
            return release  # a live worker holds the build: this message is a duplicate
        # The claim: the next attempt number, taken by an update conditional on the one read.
        claimed = (
            Release.objects.filter(pk=release.pk, attempts=release.attempts)
            .exclude(state=ReleaseState.FROZEN)
            .update(
                state=ReleaseState.BUILDING,
                attempts=release.attempts + 1,
                error="",
                build_started_at=now,
                progress_done=0,
                lease_expires_at=now + build_lease(),
            )
        )
        if not claimed:
            return release  # another worker claimed it first (only where the lock is a no-op)
    release.refresh_from_db()
    root = releases_root() / release.name
    root.mkdir(parents=True, exist_ok=True)
    # Left by earlier attempts, whose workers died or lost their claim to this one: none of
    # them can publish any more (``_publish``), so their files are garbage even if one still
    # writes; a stalled worker finds its folder gone and stops as having lost its claim.
    _remove_leftovers(root, release.version)
    # Named by this claim and a random part, so no other worker ever writes or removes it.
    own = f".tmp-{release.version}-a{release.attempts}-{uuid.uuid4().hex[:8]}"
    temporary, staged_archive = root / own, root / f"{own}{SUFFIX}"
    try:
        return _build_into(release, root, temporary, staged_archive)
    except Exception as exc:
        _discard(temporary)
        _discard(staged_archive)
        if isinstance(exc, BuildClaimLost):
            logger.warning("%s", exc.message)
            raise
        if not _holds_claim(release):  # it failed after its claim was lost: say that
            lost = _claim_lost(release)
            logger.warning("%s (%s: %s)", lost.message, type(exc).__name__, exc)
            raise lost from exc
        if isinstance(exc, ServiceError):
            message = exc.message
        elif isinstance(exc, ValidationError):  # a model's own guard (e.g. a frozen release)
            message = exc.messages[0]
        else:
            message = f"{type(exc).__name__}: {exc}"
        # Under our claim only: a build another worker took over is theirs to finish.
        failed = Release.objects.filter(
            pk=release.pk, state=ReleaseState.BUILDING, attempts=release.attempts
        ).update(state=ReleaseState.FAILED, error=message, lease_expires_at=None)
        if failed:
            emit(EventType.RELEASE_FAILED, _study_ids(release), {"release_id": release.pk})
        record_audit(
            "releases.build.failed", target=release, actor_label="worker", data={"error": message}
        )
        raise


def _refuse_unreviewed(release: Release, queryset: QuerySet[Conversation]) -> None:
    if release.redaction == Redaction.AUTO:
        return
    pending = unreviewed_findings(queryset)
    count = pending.count()
    if count:
        conversations = pending.values("conversation").distinct().count()
        raise ReleaseError(
            f"{count} personal-detail finding(s) in {conversations} conversation(s) are not "
            "reviewed: review them in QA (personal details queue), or build with redaction "
            "auto (build_release --redaction auto) to redact every finding above the threshold"
        )


def _write_retractions(release: Release, folder: Path, queryset: QuerySet[Conversation]) -> None:
    """The conversations of the previous version that this one no longer carries (erased on
    request, withdrawn, excluded): ids and dates only, so holders of the old release can drop
    them. Written by every release that has a previous version."""
    previous = latest_frozen(release.name)
    if previous is None or previous.pk == release.pk:
        return
    kept = {
        conversation_filename(external)
        for external in queryset.values_list("external_id", flat=True)
    }
    erased = erasure_dates(release.studies.values_list("pk", flat=True))
    today = _published(release).date().isoformat()
    removed = []
    for filename in sorted(set(conversation_hashes(previous)) - kept):
        external = filename.removeprefix("conversation_").removesuffix(".json")
        removed.append({"conversationId": external, "retractedAt": erased.get(external, today)})
    text = json.dumps(
        {"previousVersion": previous.version, "retractions": removed}, ensure_ascii=False, indent=1
    )
    (folder / RETRACTIONS_NAME).write_text(text + "\n", encoding="utf-8")


def _study_ids(release: Release) -> list[int]:
    return list(release.studies.values_list("pk", flat=True))


def _claim_lost(release: Release) -> BuildClaimLost:
    return BuildClaimLost(
        f"{release}: the build was taken over by another worker (this worker's claim, attempt "
        f"{release.attempts}, lapsed); it stopped and published nothing"
    )


def _holds_claim(release: Release) -> bool:
    return Release.objects.filter(
        pk=release.pk, state=ReleaseState.BUILDING, attempts=release.attempts
    ).exists()


def _renew(release: Release, **progress: int) -> None:
    """Record progress and extend the build's lease, under this worker's claim only; a worker
    whose claim is gone stops here (``BuildClaimLost``) instead of building on for nothing."""
    renewed = Release.objects.filter(
        pk=release.pk, state=ReleaseState.BUILDING, attempts=release.attempts
    ).update(lease_expires_at=timezone.now() + build_lease(), **progress)
    if not renewed:
        raise _claim_lost(release)


def _build_into(release: Release, root: Path, temporary: Path, staged_archive: Path) -> Release:
    studies = list(release.studies.select_related("instrument").order_by("slug"))
    instrument = studies[0].instrument.parsed()
    queryset, left_out = selected_conversations(release)
    _renew(release, progress_total=queryset.count())
    # Never a text the current detectors have not read: imports, texts stored while no worker
    # ran, and texts scanned by an older detector version are scanned now.
    scan_queryset(queryset, chunk_size=chunk_size(), after_chunk=lambda: _renew(release))
    _refuse_unreviewed(release, queryset)
    writer = ReleaseFolderWriter(temporary, instrument)
    done = 0
    redacted: Counter[str] = Counter()  # placeholders written, by kind
    try:
        for ids in iter_id_chunks(queryset, chunk_size()):
            writer.add_chunk(_release_items(release, ids, redacted))
            done += len(ids)
            _renew(release, progress_done=done)
            build_chunk_written.send(sender=Release, release=release, done=done)
        info = _release_info(release, studies, instrument, left_out, queryset, redacted)
        _write_retractions(release, temporary, queryset)
        _renew(release)
        result = writer.close(info, list(release.subsample_sizes), release.subsample_seed)
    except BaseException:
        writer.abort()
        raise
    archive = root / f"{release.name}-{release.version}{SUFFIX}"
    # Finished in this worker's own files, so all that is left to publish is two renames.
    _make_read_only(temporary)
    write_archive(temporary, archive, staged_archive)
    frozen = _frozen_fields(result, staged_archive)
    os.chmod(staged_archive, stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
    new_hashes = {
        conversation_filename(cid): sha for cid, sha in result.conversation_hashes.items()
    }
    previous = latest_frozen(release.name)
    if previous is not None:
        configurations = diff_configurations(
            read_configurations(Path(previous.folder)), read_configurations(temporary)
        )
        problem = version_problem(
            previous.version,
            release.version,
            diff_hashes(conversation_hashes(previous), new_hashes, configurations),
        )
        if problem:
            raise ReleaseError(problem)
    return _publish(release, temporary, staged_archive, root / release.version, archive, frozen)


def _frozen_fields(result: FolderResult, archive: Path) -> dict[str, object]:
    """What the frozen row records of its folder and archive."""
    return {
        "counts": result.counts,
        "manifest": {
            "schema_version": result.manifest["schema_version"],
            "files": len(result.manifest["files"]),
            "bytes": sum(entry["bytes"] for entry in result.manifest["files"]),
            "tables": {
                e["path"]: e["rows"]
                for e in result.manifest["files"]
                if e["path"].startswith("tables/")
            },
        },
        "content_hash": result.content_hash,
        "archive_sha256": sha256_file(archive),
        "archive_bytes": archive.stat().st_size,
    }


def _publish(
    release: Release,
    temporary: Path,
    staged_archive: Path,
    final: Path,
    archive: Path,
    frozen: dict[str, object],
) -> Release:
    """The fence: check the claim, rename the folder and the archive into place and freeze the
    row, as one step no other worker can come between.

    The row stays locked from the check to the commit, across the renames. On PostgreSQL,
    ``select_for_update`` is SELECT ... FOR UPDATE, and a worker's claim locks the same row
    first, so it waits until this step has committed (and then finds the release frozen). On
    SQLite ``select_for_update`` does nothing, but every transaction begins IMMEDIATE (settings:
    ``transaction_mode``), taking the database's single write lock at its start: no other
    worker's claim, a write, can run between this check and this commit either. A worker whose
    claim is gone raises ``BuildClaimLost`` before it touches ``final`` or ``archive``.
    """
    aside: Path | None = None
    with transaction.atomic():
        release_now = Release.objects.select_for_update().get(pk=release.pk)
        if release_now.state != ReleaseState.BUILDING or release_now.attempts != release.attempts:
            raise _claim_lost(release)
        if os.path.lexists(final):
            # The row is ours and not frozen, so this folder is what a build killed between its
            # rename and its commit left: moved aside in one rename (removed after the commit),
            # never deleted in place. A frozen release's folder is never reached here.
            aside = final.with_name(f"{temporary.name}-stale")
            os.rename(final, aside)
        os.rename(temporary, final)  # a directory rename refuses a folder already in place
        os.replace(staged_archive, archive)  # a file: replaces a killed build's stale archive
        release = release_now
        release.state = ReleaseState.FROZEN
        release.lease_expires_at = None
        for name, value in frozen.items():
            setattr(release, name, value)
        release.folder = str(final)
        release.progress_done = release.progress_total
        release.frozen_at = timezone.now()
        release.save()
        emit(EventType.RELEASE_FROZEN, _study_ids(release), {"release_id": release.pk})
        record_audit(
            "releases.freeze",
            target=release,
            actor_label="worker",
            data={
                "content_hash": release.content_hash,
                "conversations": release.counts["conversations"],
            },
        )
    if aside is not None:
        _discard(aside)
    return release


def _release_items(
    release: Release, ids: list[int], redacted: Counter[str]
) -> Iterator[ReleaseItem]:
    rows = Conversation.objects.filter(pk__in=ids).values_list(
        "pk", "participant__pseudonym", "is_synthetic", "model_config__config_hash"
    )
    who = {pk: (pseudonym, synthetic, config) for pk, pseudonym, synthetic, config in rows}
    apply = apply_corrections if release.layer == AnnotationLayer.CORRECTED else None
    redaction = RedactionLayer.for_conversations(ids, release.redaction, redacted)
    for pk, record in zip(ids, load_records(ids), strict=True):
        pseudonym, synthetic, config = who[pk]
        if apply is not None:
            # A corrected text was never scanned: the layer detects it on the fly.
            record = redaction.apply(apply(record, pk), pk, stored=record)
        else:
            record = redaction.apply(record, pk)
        yield ReleaseItem(
            record=record,
            participant=release_pseudonym(pseudonym),
            synthetic=synthetic,
            model_config_id=config,
        )


def _config_snapshots(queryset: QuerySet[Conversation]) -> tuple[ConfigSnapshot, ...]:
    """The configurations the selected conversations ran under. A prompt's text may be
    published only when every study whose released conversations ran under it allows it."""
    allowed: dict[int, bool] = {}
    pairs = (
        queryset.exclude(model_config=None)
        .order_by()
        .values_list("model_config_id", "study__publish_system_prompts")
    )
    for config_pk, publish in pairs.distinct():
        allowed[config_pk] = allowed.get(config_pk, True) and publish
    return tuple(
        ConfigSnapshot(
            config_id=config.config_hash,
            definition=config.definition,
            system_prompt_sha256=config.system_prompt_sha256,
            publish_prompt=allowed[config.pk],
        )
        for config in ModelConfig.objects.filter(pk__in=allowed).order_by("config_hash")
    )


def _published(release: Release) -> datetime:
    published = release.frozen_at or release.build_started_at  # a build sets its start first
    if published is None:
        raise ReleaseError(f"{release} has not started building")
    return published


def _release_info(
    release: Release,
    studies: list[Study],
    instrument,
    left_out: dict[str, int],
    queryset: QuerySet[Conversation],
    redacted: Counter[str],
) -> ReleaseInfo:
    exclusions = exclusion_reasons(Conversation.objects.filter(study__in=studies))
    agreement = {study.slug: agreement_summary(study) for study in studies}
    return ReleaseInfo(
        name=release.name,
        version=release.version,
        description=release.description,
        license=release.license,
        license_name=release.license_name,
        # The freeze date, kept by a rebuild of a frozen release so its bytes stay the same.
        date_published=_published(release).date().isoformat(),
        instrument=instrument,
        studies=[_study_info(study) for study in studies],
        rules={
            "studies": ", ".join(study.slug for study in studies),
            "completed conversations only": release.completed_only,
            "QA rule": release.get_qa_rule_display(),
            "annotation layer": release.get_layer_display(),
        },
        counts={"left_out": {k: v for k, v in left_out.items() if v}},
        exclusions_by_reason=exclusions,
        qa_agreement={k: v for k, v in agreement.items() if v},
        synthetic=all(study.is_synthetic for study in studies),
        model_configs=_config_snapshots(queryset),
        personal_details={
            "redaction": release.redaction,
            "detectors": personal_detail_versions(),
            "redacted_spans": dict(sorted(redacted.items())),
        },
        translations=_translations(studies[0]),
    )


def _translations(study: Study) -> dict[str, Translation]:
    """The translations of the release's instrument (one for every study: ``check_release_request``)
    by language: what a participant in that language answered (``languages.instrument_for``;
    the base language shows the base even if a translation into it exists)."""
    return {
        translation.language: Translation(translation.content_hash, translation.base_hash)
        for translation in study.instrument.translations.exclude(language=BASE_LANGUAGE)
    }


def _study_info(study: Study) -> StudyInfo:
    participants = Participant.objects.filter(study=study, is_preview=False)
    conversations = Conversation.objects.filter(study=study, participant__is_preview=False)
    recruitment = {
        "participants": participants.count(),
        "consented": participants.exclude(consented_at=None).count(),
        "withdrawn": participants.filter(withdrawn=True).count(),
        "conversations completed": conversations.filter(state=ConversationState.COMPLETED).count(),
        "conversations abandoned": conversations.filter(state=ConversationState.ABANDONED).count(),
    }
    return StudyInfo(
        slug=study.slug,
        title=study.title,
        consent_version=study.consent_version,
        recruitment=recruitment,
        model_pool=sorted(study.model_pool.values_list("alias", flat=True)),
    )


def _remove_leftovers(root: Path, version: str) -> None:
    for leftover in root.glob(f".tmp-{version}-*"):
        _discard(leftover)


def _discard(path: Path) -> None:
    """Remove a temporary folder or file, read-only or not, if it is (still) there."""
    if path.is_dir() and not path.is_symlink():
        with contextlib.suppress(OSError):  # removed meanwhile, or partly: rmtree does the rest
            _make_writable(path)
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def _make_read_only(folder: Path) -> None:
    for path in folder.rglob("*"):
        os.chmod(path, 0o555 if path.is_dir() else 0o444)
    os.chmod(folder, 0o555)


def _make_writable(folder: Path) -> None:
    os.chmod(folder, 0o755)
    for path in folder.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)


# --- compare ----------------------------------------------------------------------------------


def conversation_hashes(release: Release) -> dict[str, str]:
    """conversation file name -> sha256, read from the release's MANIFEST.json."""
    manifest = json.loads((Path(release.folder) / MANIFEST_NAME).read_text(encoding="utf-8"))
    return {
        entry["path"].removeprefix("conversations/"): entry["sha256"]
        for entry in manifest["files"]
        if entry["path"].startswith("conversations/")
    }


@dataclass(frozen=True)
class ReleaseComparison:
    old: Release
    new: Release
    diff: ReleaseDiff


def compare_releases(old: Release, new: Release) -> ReleaseComparison:
    for release in (old, new):
        if release.state != ReleaseState.FROZEN:
            raise ReleaseError(f"{release} is not frozen: only frozen releases can be compared")
    configurations = diff_configurations(
        read_configurations(Path(old.folder)), read_configurations(Path(new.folder))
    )
    return ReleaseComparison(
        old, new, diff_hashes(conversation_hashes(old), conversation_hashes(new), configurations)
    )


def unreviewed_count(studies: QuerySet[Study]) -> int:
    """Completed conversations of these studies (as a release would take them) that QA has not
    approved: what "every conversation not excluded" adds to "QA-approved only"."""
    chosen = Conversation.objects.filter(
        study__in=studies,
        participant__withdrawn=False,
        participant__is_preview=False,
        state=ConversationState.COMPLETED,
    )
    return chosen.count() - approved_conversations(chosen).count()
