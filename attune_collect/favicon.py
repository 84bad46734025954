"""The site's icon at /favicon.ico, where browsers ask for it on every page: without it each
load logged a 404 (in the browser console and the server log)."""

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

# A small speech bubble in the app's accent colour; SVG, which every current browser accepts.
ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    '<path fill="#1d5c8c" d="M4 6a4 4 0 0 1 4-4h16a4 4 0 0 1 4 4v12a4 4 0 0 1-4 4H13l-7 7v-7H8'
    'a4 4 0 0 1-4-4z"/></svg>'
)


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    return HttpResponse(ICON, content_type="image/svg+xml")
