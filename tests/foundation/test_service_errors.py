"""One service error type (attune_collect/errors.py): every app's refusal is a ServiceError
with a code, a message and a field, mapped once to the participant API's JSON errors and once
to admin form errors."""

from __future__ import annotations

import json

import pytest
from django import forms
from rest_framework.exceptions import ValidationError as DRFValidationError

from annotations.participant_api.errors import flow_error_response, participant_exception_handler
from annotations.qa.services import QAError
from annotations.releases.services import ReleaseError, create_release
from annotations.services.errors import FlowError, invalid
from attune_collect.errors import ServiceError, add_to_form
from evaluation.services.errors import EvaluationError


@pytest.mark.parametrize(
    ("error", "code"),
    [
        (FlowError("out_of_turn", "Wait for the reply."), "out_of_turn"),
        (QAError("Say what the problem is."), "qa_refused"),
        (ReleaseError("choose at least one study", field="studies"), "release_refused"),
        (EvaluationError("choose at least one mode"), "evaluation_refused"),
    ],
)
def test_every_apps_refusal_is_a_service_error(error, code):
    assert isinstance(error, ServiceError) and not isinstance(error, ValueError)
    assert error.code == code and str(error) == error.message  # pages show the message as is


def test_the_api_shape_of_a_refusal_is_unchanged():
    response = participant_exception_handler(invalid("behaviour.B3.observed", "Pick one."), {})
    assert response is not None and response.status_code == 400
    assert response.data == {
        "error": {"code": "invalid", "message": "Pick one.", "field": "behaviour.B3.observed"}
    }
    extra = FlowError("rate_limited", "Slow down.", data={"retry_after": 3})
    response = participant_exception_handler(extra, {})
    assert response is not None and response.status_code == 429
    assert response.data == {
        "error": {"code": "rate_limited", "message": "Slow down.", "field": None, "retry_after": 3}
    }


def test_the_streaming_views_map_a_refusal_the_same_way():
    error = FlowError("out_of_turn", "Wait for the reply.")
    drf = participant_exception_handler(error, {})
    plain = flow_error_response(error)
    assert drf is not None and plain.status_code == drf.status_code == 409
    assert json.loads(plain.content) == drf.data


def test_another_apps_refusal_keeps_the_shape_as_a_conflict():
    response = participant_exception_handler(QAError("Only completed conversations."), {})
    assert response is not None and response.status_code == 409
    assert response.data["error"] == {
        "code": "qa_refused",
        "message": "Only completed conversations.",
        "field": None,
    }


def test_drfs_own_validation_errors_keep_their_shape():
    response = participant_exception_handler(DRFValidationError({"age": ["Too old."]}), {})
    assert response is not None and response.status_code == 400
    assert response.data["error"]["code"] == "invalid"
    assert response.data["error"]["field"] == "age"


class BuildForm(forms.Form):
    version = forms.CharField()


def test_a_refusal_naming_a_form_field_is_that_fields_error():
    form = BuildForm({"version": "v2"})
    assert form.is_valid()
    add_to_form(form, ReleaseError("not MAJOR.MINOR.PATCH", field="version"))
    assert form.errors == {"version": ["not MAJOR.MINOR.PATCH"]}
    assert "version" not in form.cleaned_data


def test_a_refusal_naming_no_field_of_the_form_is_above_the_form():
    form = BuildForm({"version": "1.0.0"})
    assert form.is_valid()
    add_to_form(form, ReleaseError("choose at least one study", field="studies"))
    add_to_form(form, EvaluationError("choose at least one mode"))
    assert form.non_field_errors() == ["choose at least one study", "choose at least one mode"]


@pytest.mark.django_db
def test_a_models_own_check_comes_back_as_the_services_error_naming_the_field():
    from annotations.demo import seed_demo

    study = seed_demo(2, seed=1).study
    with pytest.raises(ReleaseError) as refused:
        create_release(name="attunebench", version="1.0.0", studies=[study], license="nope")
    assert refused.value.field == "license" and refused.value.code == "invalid"
    assert "nope" in refused.value.message
