"""The model endpoint for a name given on the command line: a registry alias, or a litellm
model string (an endpoint is found or created for it, so runs always reference the registry)."""

from __future__ import annotations

from django.db import transaction
from django.utils.text import slugify

from annotations.models import ModelEndpoint
from annotations.services.setup import save_setup
from evaluation.services.errors import EvaluationError


@transaction.atomic
def endpoint_for_model(name: str, *, actor_label: str) -> ModelEndpoint:
    name = name.strip()
    found = (
        ModelEndpoint.objects.filter(alias=name).first()
        or ModelEndpoint.objects.filter(litellm_model=name).order_by("pk").first()
    )
    if found is not None:
        return found
    if "/" not in name:  # most likely a mistyped alias: creating it would fail at the first call
        raise EvaluationError(
            f"no model endpoint with the alias {name!r}; give a registry alias or a litellm "
            "model string such as openai/gpt-4o-mini"
        )
    provider, _, model_name = name.partition("/")
    endpoint = ModelEndpoint(
        alias=_free_alias(slugify(name.replace("/", "-"))[:56] or "model"),
        provider=provider[:80],
        model_name=model_name[:200],
        litellm_model=name,
        active=False,  # made for evaluations: never offered to study participants
    )
    return save_setup(endpoint, actor_label=actor_label)


def _free_alias(base: str) -> str:
    alias, number = base, 1
    while ModelEndpoint.objects.filter(alias=alias).exists():
        number += 1
        alias = f"{base}-{number}"
    return alias
