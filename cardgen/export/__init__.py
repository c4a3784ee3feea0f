"""Exports for print services and virtual tabletops: one image per card face (``png`` or a
print service's preset), and Tabletop Simulator deck sheets with their saved-object JSON.

Faces are rendered from the same scene as the PDF: each face becomes a one-page PDF and is
rasterised by pdfium (pypdfium2), so an exported image shows exactly what the sheets print.
"""
