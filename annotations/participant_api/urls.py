"""Routes of the participant API, included under /api/study/ by attune_collect/urls.py."""

from django.urls import path

from annotations.participant_api import streaming, views
from annotations.participant_api.stream_schema import (
    FollowStreamDocs,
    MessageStreamDocs,
    RetryStreamDocs,
    documented_by,
)

urlpatterns = [
    path("session", views.SessionView.as_view(), name="study-session"),
    path("instrument", views.InstrumentView.as_view(), name="study-instrument"),
    path("consent", views.ConsentView.as_view(), name="study-consent"),
    path("comprehension", views.ComprehensionView.as_view(), name="study-comprehension"),
    path("profile", views.ProfileView.as_view(), name="study-profile"),
    path("panas/<str:phase>", views.PanasView.as_view(), name="study-panas"),
    path("topic", views.TopicView.as_view(), name="study-topic"),
    path(
        "messages", documented_by(streaming.send_message, MessageStreamDocs), name="study-messages"
    ),
    path("turns/<int:number>", views.TurnView.as_view(), name="study-turn"),
    path(
        "turns/<int:number>/retry",
        documented_by(streaming.retry_turn, RetryStreamDocs),
        name="study-turn-retry",
    ),
    path(
        "turns/<int:number>/stream",
        documented_by(streaming.follow_turn, FollowStreamDocs),
        name="study-turn-stream",
    ),
    path("turns/<int:number>/annotation", views.AnnotationView.as_view(), name="study-annotation"),
    path("finish", views.FinishView.as_view(), name="study-finish"),
    path("post-survey", views.PostSurveyView.as_view(), name="study-post-survey"),
    path("withdraw", views.WithdrawView.as_view(), name="study-withdraw"),
    path("drafts", views.DraftListView.as_view(), name="study-drafts"),
    path("drafts/<str:key>", views.DraftView.as_view(), name="study-draft"),
    # Last: a study slug could otherwise shadow the fixed paths above.
    path("<slug:slug>/start", views.StartView.as_view(), name="study-start"),
    path("<slug:slug>/client-errors", views.ClientErrorView.as_view(), name="study-client-errors"),
]
