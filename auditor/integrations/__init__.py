"""Helpers that make other frameworks write audit-ready traces."""
