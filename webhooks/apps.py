from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webhooks"
    label = "webhooks"
    verbose_name = "Webhooks"

    def ready(self) -> None:
        from attune_collect.sweep import register_sweep
        from webhooks.delivery import sweep_webhook_deliveries

        register_sweep("webhook deliveries", sweep_webhook_deliveries)
