"""The participant API (``/api/study/...``): DRF views for the study flow and plain async
Django views for the streaming chat. Views parse and authorise; services do the work."""
