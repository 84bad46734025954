"""The researcher API (/api/v1/): scripted access to studies, QA, releases and evaluations,
with personal, study-scoped tokens. Views are thin; writes go through the admin's services."""
