"""The library of the check that re-simulates stored runs and compares them bit for bit (``verify``).  Its entry
point is ``reproduce/verify.py``; the comparison with the authors' own code is a study
(``reproduce.studies.authors_agreement``)."""
