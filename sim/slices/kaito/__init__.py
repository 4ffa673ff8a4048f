"""The kaito slice: its adapters to the physics, the view and the environments."""
