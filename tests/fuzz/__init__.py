"""A seeded generator of malformed and adversarial trace files (independent of ``auditor``)."""
