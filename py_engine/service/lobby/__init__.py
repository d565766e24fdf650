"""Meeting strangers with no server (docs/online.md, "The lobby"): signed results, ratings, offers.

The page talks to the public Nostr relays; the engine decides what an offer,
a signed result and a rating are, and what counts.
"""
