"""/api/v1/: the researcher API (docs/researcher-api.md)."""

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from researcher_api.schema import SCHEMA_SETTINGS
from researcher_api.views import evaluations, releases, studies

urlpatterns = [
    path(
        "schema/",
        SpectacularAPIView.as_view(custom_settings=SCHEMA_SETTINGS),
        name="researcher-api-schema",
    ),
    path("studies/", studies.StudyListView.as_view(), name="researcher-studies"),
    path("studies/<slug:slug>/", studies.StudyDetailView.as_view(), name="researcher-study"),
    path("studies/<slug:slug>/pause/", studies.StudyPauseView.as_view()),
    path("studies/<slug:slug>/resume/", studies.StudyResumeView.as_view()),
    path("studies/<slug:slug>/monitor/", studies.StudyMonitorView.as_view()),
    path("studies/<slug:slug>/participants/", studies.StudyParticipantsView.as_view()),
    path("studies/<slug:slug>/conversations/", studies.StudyConversationsView.as_view()),
    path(
        "studies/<slug:slug>/conversations/<int:pk>/messages/",
        studies.ConversationMessagesView.as_view(),
    ),
    path("studies/<slug:slug>/qa/", studies.StudyQaView.as_view()),
    path("releases/", releases.ReleaseListView.as_view(), name="researcher-releases"),
    path("releases/<int:pk>/", releases.ReleaseDetailView.as_view()),
    path("releases/<int:pk>/manifest/", releases.ReleaseManifestView.as_view()),
    path("releases/<int:pk>/download/", releases.ReleaseDownloadView.as_view()),
    path("releases/<int:pk>/leaderboard/", releases.ReleaseLeaderboardView.as_view()),
    path("evaluations/", evaluations.RunListView.as_view(), name="researcher-evaluations"),
    path("evaluations/estimate/", evaluations.RunEstimateView.as_view()),
    path("evaluations/<int:pk>/", evaluations.RunDetailView.as_view()),
    path("evaluations/<int:pk>/cancel/", evaluations.RunCancelView.as_view()),
    path("evaluations/<int:pk>/report/", evaluations.RunReportView.as_view()),
]
