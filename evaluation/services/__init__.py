"""The write paths of evaluation runs: each validates, writes, audits and enqueues after commit."""
