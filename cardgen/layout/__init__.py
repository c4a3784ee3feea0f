"""Layout: cards, elements, text fitting and imposition, as a backend-neutral scene."""
