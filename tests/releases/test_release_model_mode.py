"""With the model mode on, a release build asks the model about every text not scanned with
it (scans by the pattern mode alone are not current), its name findings are redacted like the
others, and the manifest lists the model among the detectors."""

import json
from dataclasses import replace
from pathlib import Path

import pytest

from annotations.models import Conversation, ConversationState
from annotations.qa.models import PersonalDetailFinding, PersonalDetailScan
from annotations.qa.services.personal_details import detector_version, scan_queryset
from tests.factories import make_test_server_endpoint, unique
from tests.llm.conftest import (  # noqa: F401 - fixtures shared with the gateway tests
    KEY_ENV,
    _shared_openai_server,
    api_key,
    openai_server,
)
from tests.privacy.planting import NAME, PLANTED, plant, texts_of_release

pytestmark = pytest.mark.django_db


def test_the_build_rescans_with_the_model_and_redacts_its_names(
    build,
    demo_study,
    settings,
    openai_server,  # noqa: F811
    api_key,  # noqa: F811
):
    conversation = (
        Conversation.objects.filter(study=demo_study, state=ConversationState.COMPLETED)
        .order_by("pk")
        .first()
    )
    plant(conversation)
    # One conversation is enough (each text is one call to the model).
    Conversation.objects.filter(study=demo_study).exclude(pk=conversation.pk).delete()
    scan_queryset(Conversation.objects.filter(study=demo_study))  # the pattern mode alone
    assert not PersonalDetailFinding.objects.filter(detector="model").exists()

    endpoint = make_test_server_endpoint(
        openai_server.base_url, KEY_ENV, alias=unique("pii"), timeout_s=2.0
    )
    settings.ATTUNE = replace(settings.ATTUNE, personal_details_endpoint=endpoint.alias)
    openai_server.behaviour.reply = lambda body: json.dumps(
        {"details": [{"kind": "name", "text": NAME}]}
    )
    release = build("1.0.0", redaction="auto")

    assert set(PersonalDetailScan.objects.values_list("detector_version", flat=True)) == {
        detector_version()
    }
    assert PersonalDetailFinding.objects.filter(detector="model", kind="name").exists()
    files = texts_of_release(Path(release.folder).parent)
    for detail in PLANTED:
        assert not [name for name, text in files.items() if detail in text], detail
    manifest = json.loads(files["1.0.0/MANIFEST.json"])["personal_details"]
    assert manifest["detectors"]["model"].startswith("model-1:")
