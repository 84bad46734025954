"""QA pages under /qa/. Every view runs inside ``admin_view``: staff login, CSRF, never cached."""

from django.contrib import admin
from django.urls import path

from annotations.qa.views import conversation, personal_details, queue, studies

app_name = "qa"


def _staff(view):
    return admin.site.admin_view(view)


urlpatterns = [
    path("", _staff(queue.queue), name="queue"),
    path("home/", _staff(studies.staff_home), name="staff_home"),
    path("conversations/<int:pk>/", _staff(conversation.conversation_page), name="conversation"),
    path("conversations/<int:pk>/review/", _staff(conversation.review), name="review"),
    path(
        "conversations/<int:pk>/adjudicate/", _staff(conversation.adjudication), name="adjudicate"
    ),
    path("conversations/<int:pk>/flags/", _staff(conversation.flag_raise), name="flag_raise"),
    path(
        "conversations/<int:pk>/corrections/",
        _staff(conversation.correction_add),
        name="correction_add",
    ),
    path("flags/<int:pk>/status/", _staff(conversation.flag_status), name="flag_status"),
    path(
        "corrections/<int:pk>/withdraw/",
        _staff(conversation.correction_withdraw),
        name="correction_withdraw",
    ),
    path("studies/<slug:slug>/monitoring/", _staff(studies.monitoring), name="monitoring"),
    path(
        "studies/<slug:slug>/monitoring/<slug:table>.csv",
        _staff(studies.monitoring_csv),
        name="monitoring_csv",
    ),
    path("studies/<slug:slug>/agreement/", _staff(studies.agreement), name="agreement"),
    path(
        "studies/<slug:slug>/corrections.csv",
        _staff(studies.corrections_csv),
        name="corrections_csv",
    ),
    path(
        "personal-details/",
        _staff(personal_details.personal_details_queue),
        name="personal_details",
    ),
    path(
        "personal-details/<int:pk>/decide/",
        _staff(personal_details.personal_detail_decide),
        name="personal_detail_decide",
    ),
    path(
        "personal-details/missed/",
        _staff(personal_details.personal_detail_missed),
        name="personal_detail_missed",
    ),
]
