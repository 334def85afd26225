"""The bot API: personal access tokens and the token-authenticated HTTP API under /api/v1/."""
