"""The game core: cards, actions, rules and presets, one deal's state machine, scoring, events, what a seat knows.

Nothing here knows of matches, tables, JSON or the computer player.
"""
