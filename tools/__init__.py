"""tools: development tooling that nothing shipped imports."""
