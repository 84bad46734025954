"""Keep an open chat stream alive while the model is silent.

A proxy in front of the platform (nginx's default ``proxy_read_timeout`` is 60 s) cuts a
response that sends nothing for too long, and a slow provider may take that long to its first
token. Whenever an open chat stream has sent nothing for ``ATTUNE_SSE_KEEPALIVE_S`` seconds, an
SSE comment goes out (``: keep-alive``), which every SSE reader ignores (the participant app's
included). ``sse_send.py`` sends it, beside the stream's events: waiting for the model's next
token is never interrupted (cancelling a pending ``anext`` of the gateway's stream would break
the model call), and the events themselves pay nothing for it.
"""

from __future__ import annotations

KEEPALIVE_COMMENT = b": keep-alive\n\n"
