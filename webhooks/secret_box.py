"""The endpoint secrets at rest: encrypted, since signing needs the secret itself (a hash
would not do, as it does for passwords and API tokens).

Fernet (AES-128-CBC + HMAC-SHA256, from ``cryptography``) under a key derived from Django's
``SECRET_KEY`` (read from the environment; required in production) with a purpose label, so a
copy of the database alone reveals no secret. Rotating ``SECRET_KEY`` makes the stored secrets
unreadable: the endpoints must then be registered again (docs/webhooks.md).
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from cryptography.fernet import Fernet
from django.conf import settings

_PURPOSE = b"attune.webhooks.endpoint-secret.v1"


def _fernet() -> Fernet:
    raw = hmac.new(settings.SECRET_KEY.encode(), _PURPOSE, hashlib.sha256).digest()
    return Fernet(base64.urlsafe_b64encode(raw))


def seal(secret: str) -> str:
    return _fernet().encrypt(secret.encode()).decode("ascii")


def unseal(token: str) -> str:
    return _fernet().decrypt(token.encode("ascii")).decode()
