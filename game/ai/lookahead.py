"""Hard's look-ahead (placeholder while the search is built)."""
from __future__ import annotations


def search_ahead(ctx, threats, plans) -> int:
    return 0
