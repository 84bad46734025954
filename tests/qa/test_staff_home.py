"""The admin's home links to QA and the study monitoring, and "View site" opens a page that
lists what the signed-in staff member can open (never the participant app's 404)."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_admin_home_links_to_qa_and_view_site_to_the_staff_page(client, researcher):
    client.force_login(researcher)
    page = client.get(reverse("admin:index")).text
    assert f'href="{reverse("qa:queue")}"' in page
    assert f'href="{reverse("qa:staff_home")}"' in page
    assert 'href="/qa/home/">View site' in page


def test_the_staff_page_lists_queue_and_monitoring(client, researcher, study):
    client.force_login(researcher)
    response = client.get(reverse("qa:staff_home"))
    assert response.status_code == 200
    assert f'href="{reverse("qa:queue")}"' in response.text
    assert f'href="{reverse("qa:monitoring", args=[study.slug])}"' in response.text
    assert f'href="{reverse("admin:index")}"' in response.text


def test_the_staff_page_needs_a_staff_login(client, outsider):
    client.force_login(outsider)
    response = client.get(reverse("qa:staff_home"))
    assert response.status_code == 302 and "/login/" in response["Location"]
