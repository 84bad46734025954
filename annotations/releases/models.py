"""Frozen, versioned benchmark releases.

A release is built once by a Celery task into ``ATTUNE_RELEASES_DIR/<name>/<version>/`` and
then frozen: its row and files never change again (the files are made read-only, and ``save``
and ``delete`` refuse). A change in the data is a new version, whose number must say what kind
of change it is (Croissant's meaning of semantic versions).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models

from annotations.releases.licenses import LicenseError, check_license, hub_license

SEMVER = r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$"


def validate_hub_license(value: str) -> None:
    try:
        hub_license(value)
    except LicenseError as exc:
        raise ValidationError(str(exc), code="license") from None


class ReleaseFrozenError(ValidationError):
    """A frozen release can never change; build a new version instead."""


class ReleaseState(models.TextChoices):
    DRAFT = "draft", "Draft (queued)"
    BUILDING = "building", "Building"
    FROZEN = "frozen", "Frozen"
    FAILED = "failed", "Failed"


class QaRule(models.TextChoices):
    APPROVED = "approved", "QA-approved conversations only"
    NON_EXCLUDED = "non_excluded", "Every conversation not excluded"


class AnnotationLayer(models.TextChoices):
    PARTICIPANT = "participant", "The participant's own answers"
    CORRECTED = "corrected", "With the QA correction layer applied"


class Redaction(models.TextChoices):
    REVIEWED = "reviewed", "Reviewed findings only (refused while any is unreviewed)"
    AUTO = "auto", "Automatic: every finding above the threshold, reviewed or not"


class Release(models.Model):
    name = models.SlugField(max_length=80, help_text="Dataset name, e.g. attunebench")
    version = models.CharField(
        max_length=32, validators=[RegexValidator(SEMVER, "Use MAJOR.MINOR.PATCH, e.g. 1.2.0")]
    )
    studies = models.ManyToManyField("annotations.Study", related_name="releases")
    completed_only = models.BooleanField(default=True)
    qa_rule = models.CharField(max_length=16, choices=QaRule.choices, default=QaRule.NON_EXCLUDED)
    layer = models.CharField(
        max_length=16, choices=AnnotationLayer.choices, default=AnnotationLayer.PARTICIPANT
    )
    # How personal details found in the texts are redacted (annotations/qa/services/personal_details.py).
    # A column added after the table existed, so db_default beside default: the previous
    # release's code, still running during a rolling deploy, inserts rows that name no such column.
    redaction = models.CharField(
        max_length=10,
        choices=Redaction.choices,
        default=Redaction.REVIEWED,
        db_default=Redaction.REVIEWED,
    )
    subsample_sizes = models.JSONField(default=list, blank=True, help_text="e.g. [100, 50, 25, 20]")
    subsample_seed = models.PositiveIntegerField(default=2026)
    license = models.CharField(
        max_length=60,
        default="cc-by-4.0",
        validators=[validate_hub_license],
        help_text="A Hugging Face Hub license identifier (e.g. cc-by-4.0), or other with a license name",
    )
    license_name = models.CharField(
        max_length=200, blank=True, help_text="The license's name, for license other"
    )
    description = models.TextField(blank=True)
    state = models.CharField(
        max_length=10, choices=ReleaseState.choices, default=ReleaseState.DRAFT
    )
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    counts = models.JSONField(default=dict, blank=True)
    manifest = models.JSONField(default=dict, blank=True)
    content_hash = models.CharField(max_length=64, blank=True, help_text="sha256 of MANIFEST.json")
    archive_sha256 = models.CharField(max_length=64, blank=True)
    archive_bytes = models.PositiveBigIntegerField(default=0)
    folder = models.CharField(max_length=500, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    # A build is claimed like an evaluation unit: ``attempts`` is the claim, the lease is
    # renewed at every chunk; the workers' sweep sends a lapsed or unclaimed build again.
    queued_at = models.DateTimeField(null=True, blank=True)
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    created_at = models.DateTimeField(auto_now_add=True)
    build_started_at = models.DateTimeField(null=True, blank=True)
    frozen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["name", "version"], name="release_unique_name_version"),
            models.CheckConstraint(
                condition=models.Q(version__regex=SEMVER), name="release_version_semver"
            ),
            models.CheckConstraint(
                condition=~models.Q(state="frozen") | ~models.Q(content_hash=""),
                name="release_frozen_has_hash",
            ),
        ]
        permissions = [
            ("build_release", "Can build releases"),
            ("download_release", "Can download release files"),
        ]

    def __str__(self) -> str:
        return f"{self.name}@{self.version}"

    def save(self, *args, **kwargs) -> None:
        # The only write a frozen row ever gets is the one that freezes it (state stored != frozen).
        if self.pk is not None:
            stored_state = (
                type(self).objects.filter(pk=self.pk).values_list("state", flat=True).first()
            )
            if stored_state == ReleaseState.FROZEN:
                raise ReleaseFrozenError(
                    f"Release {self} is frozen and cannot change; build a new version instead."
                )
        super().save(*args, **kwargs)

    def clean(self) -> None:
        try:
            hub_license(self.license)
        except LicenseError:
            return  # the field's validator reports it
        try:
            check_license(self.license, self.license_name)
        except LicenseError as exc:
            raise ValidationError({"license_name": str(exc)}) from None

    def delete(self, *args, **kwargs):
        if self.state == ReleaseState.FROZEN:
            raise ReleaseFrozenError(f"Release {self} is frozen and cannot be deleted.")
        return super().delete(*args, **kwargs)

    @property
    def version_tuple(self) -> tuple[int, int, int]:
        major, minor, patch = (int(part) for part in self.version.split("."))
        return major, minor, patch

    @property
    def progress_percent(self) -> int:
        return round(100 * self.progress_done / self.progress_total) if self.progress_total else 0
