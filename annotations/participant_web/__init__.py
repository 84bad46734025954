"""Serves the participant web app (frontend/, built by Vite) at /s/<study-slug>/."""
