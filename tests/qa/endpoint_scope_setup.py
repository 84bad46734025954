"""Studies A and B with an endpoint each and one they share, for the endpoint scope tests."""

from __future__ import annotations

import json
from dataclasses import dataclass

from django.forms.models import model_to_dict

from annotations.models import ModelEndpoint, Study, StudyStatus
from tests.factories import make_endpoint, make_study


@dataclass(frozen=True)
class TwoStudies:
    a: Study
    b: Study
    of_a: ModelEndpoint
    of_b: ModelEndpoint
    shared: ModelEndpoint


def two_studies() -> TwoStudies:
    """Both recruiting: B's participants talk to ``of_b`` and ``shared`` right now."""
    a = make_study(slug="study-a", status=StudyStatus.RECRUITING)
    b = make_study(slug="study-b", status=StudyStatus.RECRUITING)
    of_a = make_endpoint(alias="only-a", api_key_env="A_API_KEY", system_prompt="Prompt of A.")
    of_b = make_endpoint(alias="only-b", api_key_env="B_API_KEY", system_prompt="Prompt of B.")
    shared = make_endpoint(alias="shared-ab", api_key_env="SHARED_API_KEY", system_prompt="Shared.")
    a.model_pool.set([of_a, shared])
    b.model_pool.set([of_b, shared])
    return TwoStudies(a, b, of_a, of_b, shared)


def endpoint_form(endpoint: ModelEndpoint, **changes) -> dict:
    """The admin change form's fields for ``endpoint``, with ``changes``."""
    data = {k: v for k, v in model_to_dict(endpoint).items() if v is not None}
    data["params"] = json.dumps(data.get("params", {}))
    data.pop("id", None)
    return {**data, **changes}


def takeover(endpoint: ModelEndpoint) -> dict:
    """The attack: B's participants' messages to the attacker's server."""
    return endpoint_form(
        endpoint, api_base="https://attacker.example.net/v1", api_key_env="ATTACKER_API_KEY"
    )


def unchanged(endpoint: ModelEndpoint) -> bool:
    stored = ModelEndpoint.objects.get(pk=endpoint.pk)
    return (stored.api_base, stored.api_key_env, stored.system_prompt) == (
        endpoint.api_base,
        endpoint.api_key_env,
        endpoint.system_prompt,
    )
