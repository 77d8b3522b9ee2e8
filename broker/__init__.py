"""Configuration, model and embedding providers, shared resources and the CLI."""
