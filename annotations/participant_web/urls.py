"""Routes of the participant app, included at the site root by attune_collect/urls.py."""

from django.urls import path, re_path

from annotations.participant_web import views

urlpatterns = [
    path("s/<slug:slug>/", views.participant_app, name="participant-app"),
    # Deeper paths (a bookmarked step) get the same page: the app decides what to show.
    re_path(r"^s/(?P<slug>[-a-zA-Z0-9_]+)/.+$", views.participant_app),
    path("study/<slug:slug>/", views.legacy_study_link, name="participant-app-legacy"),
]
