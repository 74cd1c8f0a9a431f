"""The asymptotic study (``reproduce/asymptotic.py``; docs/asymptotic.md): every file of the study in one package."""
