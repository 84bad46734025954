"""QA pages. Views parse the request, authorise (``annotations.qa.access``) and render."""
