"""Computer players. Every bot implements :class:`Bot`; :func:`make_bot` builds one by name."""

from parlour.bots.base import Bot, bot_names, make_bot, register_bot
from parlour.bots.greedy import GreedyBot
from parlour.bots.random_bot import RandomBot

register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)

__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
