"""Management commands of the leagues app."""
