"""A study's topics are validated where a study is saved: a malformed entry (a bare string, a
subtopics string shown letter by letter, a category that is not a string and can never be
chosen) is refused with a message naming the entry, and nothing is written."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.forms.models import model_to_dict
from django.urls import reverse

from annotations.models import AuditEntry, Study
from annotations.services.setup import save_setup
from tests.factories import make_study

pytestmark = pytest.mark.django_db

BAD_TOPICS = [
    (["relationships", "work"], "topics[0]: expected an object with a category"),
    ({"category": "work"}, "a list"),
    ([{"category": "work", "subtopics": "stress"}], "topics[0].subtopics"),
    ([{"category": 5}], "topics[0]: expected an object with a category"),
    ([{"category": "  "}], "topics[0]: expected an object with a category"),
    ([{"category": "work", "subtopics": ["stress", ""]}], "topics[0].subtopics[1]"),
    ([{"category": "work"}, {"category": "else", "other": "yes"}], "topics[1].other"),
]


@pytest.mark.parametrize(("topics", "message"), BAD_TOPICS)
def test_malformed_topics_are_refused_by_the_write_path(topics, message):
    study = make_study()
    before = study.topics
    study.topics = topics
    with pytest.raises(ValidationError) as raised:
        save_setup(study, actor_label="test")
    assert message in str(raised.value.message_dict["topics"])
    study.refresh_from_db()
    assert study.topics == before


def test_well_formed_topics_are_saved():
    study = make_study()
    study.topics = [
        {"category": "work", "subtopics": ["stress", "colleagues"]},
        {"category": "Something else", "other": True},
    ]
    save_setup(study, actor_label="test")
    study.refresh_from_db()
    assert study.topics[1]["other"] is True


def _form_data(study: Study) -> dict:
    data = {k: v for k, v in model_to_dict(study).items() if v is not None}
    data["topics"] = json.dumps(data["topics"])
    data["languages"], data["translations"] = json.dumps(data["languages"]), "{}"
    data["model_pool"] = []
    return data


def test_the_admin_refuses_topics_given_as_strings(researcher_client):
    study = make_study(title="Unchanged")
    before = study.topics
    url = reverse("admin:annotations_study_change", args=[study.pk])
    data = {**_form_data(study), "title": "Changed", "topics": '["relationships", "work"]'}
    response = researcher_client.post(url, data)
    assert response.status_code == 200  # the form again, with the error
    assert "topics[0]: expected an object with a category" in response.text
    study.refresh_from_db()
    assert (study.title, study.topics) == ("Unchanged", before)
    assert not AuditEntry.objects.filter(action="annotations.study.update").exists()
