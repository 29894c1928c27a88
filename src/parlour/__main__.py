"""``python -m parlour``: the same as the ``parlour`` command."""

from parlour.cli import main

if __name__ == "__main__":  # not when imported (pytest's doctest collection imports it)
    raise SystemExit(main())
