"""URL routes: the admin, the API and its schema, and a health check for load balancers."""

from django.contrib import admin
from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from attune_collect.health import health

admin.site.site_header = "Attune administration"
admin.site.site_title = "Attune"
admin.site.index_title = "Studies, annotations, releases and evaluations"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("healthz", health, name="health"),
]
