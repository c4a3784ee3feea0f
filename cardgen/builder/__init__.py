"""The build: load → check → lay out → write, its content-addressed cache, proofs and the log checker."""
