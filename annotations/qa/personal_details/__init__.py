"""Personal details in participant and model texts: find them, and redact them in releases.

Pure modules (no Django): ``patterns`` (the pattern detector, presidio-analyzer's recognizers and
phonenumbers, no model; presidio itself in ``presidio_engine``, loaded at the first scan), ``texts`` (the texts of an AttuneBench record, by path), ``redaction``
(consistent placeholders within a conversation). The write paths live in
``annotations/qa/services/personal_details.py``.
"""

import logging

# presidio logs its device at import and every analysis at INFO; a worker scanning thousands
# of texts needs none of it (set here, before ``presidio_engine`` imports presidio).
logging.getLogger("presidio-analyzer").setLevel(logging.WARNING)
