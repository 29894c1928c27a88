"""The game families. Importing this package registers every variant, in the order of RULES.md."""

# The import order is the registration order, which `parlour.variants()` follows.
from parlour.games import climbing  # noqa: F401, I001
from parlour.games import trump  # noqa: F401
from parlour.games import rummy  # noqa: F401
