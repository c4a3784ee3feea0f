"""cardgen: a print-and-play studio — YAML games in, validated printable PDFs out."""

__version__ = "0.1.0"
