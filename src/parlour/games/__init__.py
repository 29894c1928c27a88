"""The game families. Importing this package registers every variant, in the order of RULES.md."""

from parlour.games import climbing  # noqa: F401
from parlour.games import trump  # noqa: F401
