"""Personal API tokens of staff users.

A token is shown once, when it is issued; the database keeps only its SHA-256 (a token is 256
random bits, so a fast hash is enough: nobody can guess a preimage) and a short public prefix
to tell tokens apart in the admin. What a token may do is the intersection, at every request,
of its own studies and scope with what its user holds now (``access.py``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from annotations.models import Study


class TokenScope(models.TextChoices):
    READ = "read", "Read"
    WRITE = "write", "Read and write"


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What the token is for (a script, a lab).")
    prefix = models.CharField(max_length=16, unique=True, editable=False)
    digest = models.CharField(max_length=64, unique=True, editable=False)
    studies = models.ManyToManyField(Study, related_name="api_tokens")
    scope = models.CharField(max_length=8, choices=TokenScope.choices, default=TokenScope.READ)
    # A user without memberships works in every study (annotations/qa/access.py). A token issued
    # while its user was limited must not widen when their last membership is removed.
    issued_lab_wide = models.BooleanField(default=False, editable=False)
    expires_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(scope__in=TokenScope.values), name="api_token_scope_valid"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and self.expires_at > timezone.now()

    @property
    def can_write(self) -> bool:
        return self.scope == TokenScope.WRITE
