"""The participant API as its users meet it through a code generator: openapi-python-client
(pinned in requirements-dev.txt) generates a Python client from the schema the platform serves,
with no warning (a warning means a piece of the API left out), and the generated client talks
to the platform under uvicorn: it starts a session, reads it with the participant token, reads
the instrument, gives consent and reads a documented error, each answer parsed by the generated
models (enums, nullable fields, nested objects). Generators refuse OpenAPI 3.2, hence 3.1
(SPECTACULAR_SETTINGS["OAS_VERSION"]). Slow: the generator takes a few seconds."""

from __future__ import annotations

import importlib
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import httpx
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

PACKAGE = "attune_generated_client"  # a name no other module of the suite uses


@pytest.fixture
def generated(tmp_path: Path, asgi_server: str) -> Iterator[str]:
    """Generate the client from the served schema into ``tmp_path``; yields the package name."""
    schema = tmp_path / "openapi.yaml"
    schema.write_bytes(
        httpx.get(f"{asgi_server}/api/schema/", timeout=30).raise_for_status().content
    )
    config = tmp_path / "config.yaml"
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n")  # no ruff on PATH
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [generator, "generate", "--path", schema, "--meta", "none", "--config", config]
        + ["--output-path", tmp_path / PACKAGE],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "warning" not in output.lower(), output  # "some pieces may be missing"
    sys.path.insert(0, str(tmp_path))
    try:
        yield PACKAGE
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.partition(".")[0] == PACKAGE]:
            del sys.modules[name]


def _module(package: str, name: str) -> ModuleType:
    return importlib.import_module(f"{package}.{name}")


def test_a_generated_client_starts_and_reads_a_session(generated, asgi_server, chat_study):
    client = _module(generated, "client")
    models = _module(generated, "models")
    start = _module(generated, "api.study.study_start")
    session = _module(generated, "api.study.study_session")
    instrument = _module(generated, "api.study.study_instrument")
    consent = _module(generated, "api.study.study_consent")
    turn = _module(generated, "api.study.study_turn")

    anonymous = client.Client(base_url=asgi_server, raise_on_unexpected_status=True)
    started = start.sync_detailed(
        chat_study.slug,
        client=anonymous,
        body=models.StartInput(prolific_pid="0123456789abcdef01234567"),
    )
    assert started.status_code == 201
    assert isinstance(started.parsed, models.StartOutput)
    assert started.parsed.session.step == models.StepEnum.CONSENT
    assert started.parsed.session.study.slug == chat_study.slug
    assert started.parsed.session.chat is None  # a nullable field, parsed as such

    participant = client.AuthenticatedClient(
        base_url=asgi_server,
        token=started.parsed.token,
        prefix="Participant",
        raise_on_unexpected_status=True,
    )
    read = session.sync(client=participant)
    assert isinstance(read, models.SessionOutput)
    assert read.step == models.StepEnum.CONSENT and read.preview is False

    wording = instrument.sync(client=participant)
    assert isinstance(wording, models.InstrumentOutput) and wording.panas_items

    body = models.ConsentInput(consent_version=chat_study.consent_version, agree=True)
    after = consent.sync(client=participant, body=body)
    assert isinstance(after, models.SessionOutput)
    assert after.step != models.StepEnum.CONSENT

    missing = turn.sync_detailed(99, client=participant)  # a documented error, parsed
    assert missing.status_code == 404
    assert isinstance(missing.parsed, models.ErrorOutput)
    assert missing.parsed.error.code == "not_found"

    refused = session.sync_detailed(client=anonymous.with_headers({"Authorization": "x"}))
    assert refused.status_code == 401 and isinstance(refused.parsed, models.ErrorOutput)
