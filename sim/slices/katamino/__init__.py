"""The katamino slice: its adapters to the physics, the view and the environments."""
