"""An endpoint's URL: http or https with a host, no credentials in it."""

import pytest

from webhooks.services import WebhookError, check_url


@pytest.mark.parametrize(
    "url", ["ftp://example.org/x", "file:///etc/passwd", "javascript:alert(1)", "http://", "x"]
)
def test_other_schemes_and_hostless_urls_are_refused(url):
    with pytest.raises(WebhookError):
        check_url(url)


def test_credentials_in_the_url_are_refused():
    with pytest.raises(WebhookError):
        check_url("https://user:pass@example.org/hook")


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/hook", "https://example.org/a?b=c"])
def test_http_and_https_are_taken(url):
    assert check_url(url) == url
