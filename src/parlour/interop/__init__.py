"""parlour's games in other frameworks.

- :mod:`parlour.interop.openspiel`: every variant as an OpenSpiel game
  (``pip install 'parlour[openspiel]'``); importing it registers them with ``pyspiel``.
- :mod:`parlour.interop.gymnasium`: every variant's environment id, ``parlour/<Variant>-v0``
  (``pip install 'parlour[rl]'``); importing it registers them with Gymnasium.

Importing this package imports nothing beyond it: each framework is imported by its own module.
"""
