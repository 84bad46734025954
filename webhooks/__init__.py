"""Signed webhooks: a user's endpoints, the events of the studies they may see, and their
deliveries (docs/webhooks.md)."""
