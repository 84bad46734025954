"""Client errors (issue 39, item 5): the participant app reports its unexpected errors to
POST /api/study/<slug>/client-errors. Anyone with the study's page may report (an error may
come before any token); only the four bounded fields are stored, never anything else the
body holds; reports are limited per participant or address and for everyone together; staff
see them in the admin, only for the studies they may view; no participant reads them."""

import pytest
from django.urls import reverse

from annotations.models import ClientError
from annotations.models.client_error import MAX_MESSAGE_CHARS, MAX_STACK_CHARS
from tests.factories import make_staff

pytestmark = pytest.mark.django_db

REPORT = {
    "message": "TypeError: step.comparison is undefined",
    "stack": "AnnotationForm@https://study.example/assets/app.js:1:2345",
    "screen": "chat",
    "build": "abc123",
}


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}

    return set_rates


def report(client, slug: str, body: dict) -> object:
    return client.post(f"{slug}/client-errors", body)


class TestStored:
    def test_an_anonymous_report_is_stored_with_its_four_fields_only(
        self, participant_client, chat_study
    ):
        client = participant_client()
        body = {**REPORT, "values": {"message": "I feel awful"}, "text": "private words"}
        reply = report(client, chat_study.slug, body)
        assert reply.status == 204, reply.body
        stored = ClientError.objects.get()
        assert (stored.study, stored.participant) == (chat_study, None)
        assert [stored.message, stored.stack, stored.screen, stored.build] == list(REPORT.values())
        # Nothing else the body held was kept anywhere in the row.
        row = str(ClientError.objects.values().get())
        assert "private words" not in row and "I feel awful" not in row

    def test_a_participants_report_names_the_participant(self, participant_client, chat_study):
        client = participant_client()
        client.start()
        assert report(client, chat_study.slug, REPORT).status == 204
        assert ClientError.objects.get().participant.prolific_pid == client.pid

    def test_a_token_of_another_study_ties_the_report_to_no_one(
        self, participant_client, make_chat_study, chat_study
    ):
        other = make_chat_study()
        client = participant_client(other)
        client.start()
        assert report(client, chat_study.slug, REPORT).status == 204
        stored = ClientError.objects.get()
        assert (stored.study, stored.participant) == (chat_study, None)


class TestRefused:
    @pytest.mark.parametrize(
        ("field", "size"), [("message", MAX_MESSAGE_CHARS + 1), ("stack", MAX_STACK_CHARS + 1)]
    )
    def test_a_field_past_its_bound_is_refused_and_nothing_stored(
        self, participant_client, chat_study, field, size
    ):
        reply = report(participant_client(), chat_study.slug, {**REPORT, field: "x" * size})
        assert reply.status == 400 and reply.error["field"] == field
        assert not ClientError.objects.exists()

    def test_a_report_without_a_message_is_refused(self, participant_client, chat_study):
        reply = report(participant_client(), chat_study.slug, {"stack": "x"})
        assert reply.status == 400 and reply.error["field"] == "message"

    def test_a_study_that_does_not_exist_stores_nothing(self, participant_client):
        assert report(participant_client(), "no-such-study", REPORT).status == 404
        assert not ClientError.objects.exists()

    def test_nobody_reads_reports_through_the_api(self, participant_client, chat_study):
        client = participant_client()
        client.start()
        report(client, chat_study.slug, REPORT)
        assert client.get(f"{chat_study.slug}/client-errors").status == 405


class TestThrottled:
    def test_an_address_past_its_limit_is_refused(self, participant_client, chat_study, rates):
        rates(participant_client_error="2/min")
        client = participant_client()
        statuses = [report(client, chat_study.slug, REPORT).status for _ in range(3)]
        assert statuses == [204, 204, 429]
        assert ClientError.objects.count() == 2

    def test_participants_are_counted_apart(self, participant_client, chat_study, rates):
        rates(participant_client_error="1/min")
        first, second = participant_client(), participant_client()
        first.start()
        second.start()
        assert report(first, chat_study.slug, REPORT).status == 204
        assert report(first, chat_study.slug, REPORT).status == 429
        assert report(second, chat_study.slug, REPORT).status == 204  # same address

    def test_everyone_together_has_a_cap(self, participant_client, chat_study, rates):
        rates(participant_client_error="5/min", participant_client_error_all="3/min")
        clients = [participant_client() for _ in range(4)]
        for client in clients:
            client.start()
        statuses = [report(c, chat_study.slug, REPORT).status for c in clients]
        assert statuses == [204, 204, 204, 429]
        assert ClientError.objects.count() == 3


class TestAdmin:
    @pytest.fixture
    def two_reports(self, participant_client, make_chat_study, chat_study):
        other = make_chat_study()
        client = participant_client()
        report(client, chat_study.slug, {**REPORT, "message": "mine broke"})
        report(client, other.slug, {**REPORT, "message": "theirs broke"})
        return chat_study, other

    def test_a_researcher_sees_only_the_reports_of_their_studies(self, client, two_reports):
        mine, _ = two_reports
        client.force_login(make_staff("researcher", studies={mine: "researcher"}))
        page = client.get(reverse("admin:annotations_clienterror_changelist")).text
        assert "mine broke" in page and "theirs broke" not in page
        theirs = ClientError.objects.get(message="theirs broke")
        change = reverse("admin:annotations_clienterror_change", args=[theirs.pk])
        assert client.get(change).status_code == 302  # as if it did not exist

    def test_a_viewer_reads_them_and_nobody_edits_them(self, client, two_reports):
        mine, _ = two_reports
        client.force_login(make_staff("viewer", studies={mine: "viewer"}))
        row = ClientError.objects.get(message="mine broke")
        assert (
            client.get(reverse("admin:annotations_clienterror_change", args=[row.pk])).status_code
            == 200
        )
        assert client.get(reverse("admin:annotations_clienterror_add")).status_code == 403

    def test_someone_without_a_staff_account_is_sent_to_log_in(self, client, two_reports):
        page = client.get(reverse("admin:annotations_clienterror_changelist"))
        assert page.status_code == 302 and "login" in page["Location"]
