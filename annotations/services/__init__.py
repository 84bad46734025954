"""Service functions: the one write path for every state change (validate, write, audit)."""
