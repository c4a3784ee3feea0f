"""Content: a game as data — loaded, modelled and checked against its constraints and catalogue."""
