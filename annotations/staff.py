"""The signed-in user of a staff page (the admin, the QA pages), typed for the services.

Services record who acted (``created_by``, ``reviewer``, audit entries) with a foreign key to
``User``; ``request.user`` is typed ``User | AnonymousUser``. Every staff page requires a
signed-in user before its view runs, so the anonymous case only guards a page whose login
check was forgotten.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest


def staff_user(request: HttpRequest) -> User:
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("sign in first")
    return user
