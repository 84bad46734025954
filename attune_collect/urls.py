"""URL routes: the admin, the API and its schema, and a health check for load balancers."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from attune_collect.favicon import favicon
from attune_collect.health import health

admin.site.site_header = "Attune administration"
admin.site.site_title = "Attune"
admin.site.index_title = "Studies, annotations, releases and evaluations"
# "View site" leads staff to what they can open (the root is the participant app), and the
# admin's home links to QA and the monitoring (annotations/qa/staff_home.py).
admin.site.site_url = "/qa/home/"
admin.site.index_template = "admin/attune_index.html"

urlpatterns = [
    path("qa/", include("annotations.qa.urls")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/study/", include("annotations.participant_api.urls")),
    path("api/v1/", include("researcher_api.urls")),
    path("healthz", health, name="health"),
    path("favicon.ico", favicon, name="favicon"),
    path("", include("annotations.participant_web.urls")),
]
# The participant API answers in its JSON error shape even before a view runs.
handler404 = "annotations.participant_api.error_pages.page_not_found"
handler400 = "annotations.participant_api.error_pages.bad_request"
