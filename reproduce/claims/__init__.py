"""What the paper claims and how a claim is decided: ``verdict`` (the rule that turns two estimates into a
verdict, and a claims-table row), ``intervals`` (the bootstrap interval of a mean over runs), ``registry`` (every
claim C1-C19, its statement and figures), ``paper_checks`` (the checks the paper's figures share), ``c19`` (the
summary claim, from the figures' final regrets) and ``reasons`` (why a verdict is what it is).  A study's own
claims live with the study (``reproduce.studies``)."""
