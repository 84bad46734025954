"""Fixtures shared by the whole suite: the personas and a study to work in.

Personas: ``researcher`` (runs studies: staff in the ``researcher`` group), ``reviewer`` (QA:
staff in the ``qa_reviewer`` group), ``viewer`` (staff in the read-only ``viewer`` group),
``outsider`` (a logged-in account with no role) and ``participant`` (a study participant;
participants have no Django account). The groups and their permissions come from the QA
app's migration (``annotations/qa/roles.py``).
"""

from __future__ import annotations

import pytest

from attune_collect.llm._litellm import apply_offline_environment

# No test may let litellm reach the internet, whatever settings module the run uses.
apply_offline_environment()

PASSWORD = "correct-horse-battery-staple"


def _staff_in_role(django_user_model, username: str, role: str):
    from django.contrib.auth.models import Group

    user = django_user_model.objects.create_user(
        username, f"{username}@example.org", PASSWORD, is_staff=True
    )
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def researcher(django_user_model):
    return _staff_in_role(django_user_model, "researcher", "researcher")


@pytest.fixture
def reviewer(django_user_model):
    return _staff_in_role(django_user_model, "reviewer", "qa_reviewer")


@pytest.fixture
def viewer(django_user_model):
    return _staff_in_role(django_user_model, "viewer", "viewer")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("outsider", "outsider@example.org", PASSWORD)


@pytest.fixture
def study(db):
    from tests.factories import make_study

    return make_study(slug="wellbeing-2026", title="Wellbeing chats 2026")


@pytest.fixture
def participant(study):
    from tests.factories import make_participant

    return make_participant(study, prolific_pid="PID-PARTICIPANT", consent_version="1")


@pytest.fixture
def researcher_client(client, researcher):
    client.force_login(researcher)
    return client
