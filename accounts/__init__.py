"""Accounts: the custom user, sign-up, profile and preferences, on Django's auth views."""
