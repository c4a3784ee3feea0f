"""References generated from the code and the data: rule docs, authoring docs, schemas, explanations."""
