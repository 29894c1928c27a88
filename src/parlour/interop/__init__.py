"""parlour's games in other frameworks.

- :mod:`parlour.interop.openspiel`: every variant as an OpenSpiel game
  (``pip install 'parlour[openspiel]'``); importing it registers them with ``pyspiel``.

Importing this package imports nothing beyond it: each framework is imported by its own module.
"""
