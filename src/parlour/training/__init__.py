"""Training the bots' networks: a client of the bots (:mod:`parlour.bots`) and the environments
(:mod:`parlour.envs`), above both. :mod:`parlour.training.dmc` is the self-play loop that made
the ``learned`` bot's weights (the commands are in ``training/README.md``)."""
