"""The core: problems, the one file resolver, YAML with positions, typed options, units, atomic writes."""
