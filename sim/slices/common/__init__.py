"""What several games' slices share (split per game in a later step)."""
