"""Render: scenes drawn as PDF or SVG, with the bundled fonts."""
