"""``cardgen serve``: a live preview of a game's cards in the browser (see :mod:`.app`)."""
