"""Rules engines and game-specific hooks, one module per game (see cardgen.gamehooks)."""
