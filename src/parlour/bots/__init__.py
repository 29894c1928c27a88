"""Computer players. Every bot implements :class:`Bot`; :func:`make_bot` builds one by name:
``random``, ``greedy``, the levels ``easy``, ``medium``, ``hard``, ``expert``
(:mod:`parlour.bots.levels`) and ``learned`` (:mod:`parlour.bots.learned`)."""

from parlour.bots.base import Bot, bot_names, make_bot, register_bot
from parlour.bots.greedy import GreedyBot
from parlour.bots.learned import LearnedBot
from parlour.bots.levels import EasyBot, register_levels
from parlour.bots.random_bot import RandomBot
from parlour.bots.search import SearchBot

register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)
register_levels()
register_bot("learned", LearnedBot)

__all__ = [
    "Bot", "EasyBot", "GreedyBot", "LearnedBot", "RandomBot", "SearchBot", "bot_names", "make_bot",
    "register_bot",
]
