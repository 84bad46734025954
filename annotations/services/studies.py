"""Creating studies."""

from __future__ import annotations

from django.db import transaction

from annotations.models import Study
from annotations.services.instruments import ensure_default_instrument
from annotations.services.setup import save_setup


@transaction.atomic
def get_or_create_study(
    slug: str, *, title: str | None = None, actor_label: str = "system", **fields
) -> Study:
    """The study with this slug, created on the default instrument if it does not exist."""
    study = Study.objects.filter(slug=slug).first()
    if study is not None:
        return study
    study = Study(
        slug=slug,
        title=title or slug.replace("-", " ").title(),
        instrument=ensure_default_instrument(),
        **fields,
    )
    return save_setup(study, actor_label=actor_label)
