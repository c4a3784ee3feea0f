"""``cardgen tune``: search a game's declared tunable numbers for balance (Optuna), re-measure
the best proposal on fresh seeds, report it, and apply it to the sources on request."""
