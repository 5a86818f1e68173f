"""Quality measurements of stylized video (temporal coherence)."""
