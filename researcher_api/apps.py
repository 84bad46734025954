from django.apps import AppConfig


class ResearcherApiConfig(AppConfig):
    name = "researcher_api"
    verbose_name = "Researcher API"
    default_auto_field = "django.db.models.BigAutoField"
