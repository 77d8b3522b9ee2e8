"""Offline language tools: segmentation, entity typing, fact extraction, question analysis."""
