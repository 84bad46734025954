"""Staff pages hand the services the signed-in User they record; an anonymous request is refused."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.test import RequestFactory

from annotations.staff import staff_user


def test_the_signed_in_user_is_the_one_recorded(researcher):
    request = RequestFactory().post("/qa/")
    request.user = researcher
    assert staff_user(request) is researcher


def test_an_anonymous_request_is_refused():
    request = RequestFactory().post("/qa/")
    request.user = AnonymousUser()
    with pytest.raises(PermissionDenied):
        staff_user(request)
