"""Prompt templates (module constants filled with ``str.format``), Chinese and English."""
