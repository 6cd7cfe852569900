"""What outlives one event: FIBS ratings, series points, exports and their pages."""
