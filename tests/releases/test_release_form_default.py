"""The release form starts on QA-approved conversations and says how many conversations not
approved by QA the other choice would include."""

import re

import pytest
from django.urls import reverse

from annotations.qa.models import StudyQASettings
from annotations.qa.services.reviews import ReviewInput, submit_review
from tests.factories import make_conversation

pytestmark = pytest.mark.django_db


def test_the_form_defaults_to_approved_and_counts_the_unreviewed(
    client, researcher, reviewer, study
):
    StudyQASettings.objects.create(study=study, double_review_share=0)
    approved, _unreviewed, _also = (make_conversation(study) for _ in range(3))
    submit_review(approved, reviewer, ReviewInput("approve"))
    client.force_login(researcher)
    page = client.get(reverse("admin:releases_release_add")).text
    selected = re.search(r'<option value="(\w+)" selected>', page)
    assert selected and selected.group(1) == "approved"
    assert "would also include 2 completed conversations that QA has not approved" in page
