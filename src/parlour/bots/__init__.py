"""Computer players. Every bot implements :class:`Bot`; :func:`make_bot` builds one by name:
``random``, ``greedy``, the levels ``easy``, ``medium``, ``hard``, ``expert``
(:mod:`parlour.bots.levels`), ``learned`` (:mod:`parlour.bots.learned`) and, where OpenSpiel is
installed (``parlour[openspiel]``), ``ismcts`` (:mod:`parlour.bots.ismcts`). A bot that takes
settings has them after its name: ``make_bot("ismcts:simulations=400")`` (:func:`parse_bot`)."""

from functools import cache
from importlib.util import find_spec

from parlour.bots.base import (
    Bot,
    BotOption,
    bot_names,
    bot_options,
    bot_spec,
    make_bot,
    parse_bot,
    register_bot,
)
from parlour.bots.greedy import GreedyBot
from parlour.bots.ismcts import ISMCTS_OPTIONS, ISMCTSBot
from parlour.bots.learned import LearnedBot
from parlour.bots.levels import LEVELS, EasyBot, LevelBot, register_levels
from parlour.bots.random_bot import RandomBot
from parlour.bots.search import Inference, Opponents, SearchBot, SearchConfig
from parlour.registry import Variant, get_variant

register_bot("random", RandomBot)
register_bot("greedy", GreedyBot)
register_levels()
register_bot("learned", LearnedBot)
if find_spec("pyspiel") is not None:  # OpenSpiel, imported by the bot's first move
    register_bot("ismcts", ISMCTSBot, options=ISMCTS_OPTIONS)

#: Each computer player's level in a line short enough for a 60-column window, weakest first.
#: The searching levels deal the hidden cards in ways they may lie and play their candidate
#: moves out in those deals (hard and expert stop sooner when their ½ s or 1 s is up).
BOT_LEVELS = {
    "random": "any legal move, at random",
    "easy": "rules of thumb, half at random",
    "greedy": "rules of thumb, no lookahead",
    "medium": "tries 48 possible deals a move",
    "hard": "tries 60 to 360 deals a move",
    "expert": "tries 800 to 18,000 deals a move",
    "learned": "a network that taught itself",
    "ismcts": "OpenSpiel's search, 100 deals a move",
}


def offered_bots(variant: str, players: int | None = None) -> list[str]:
    """The computer players a table offers for ``variant`` with ``players`` seats (by default
    the variant's usual number): the levels weakest first, then ``learned`` (the network alone:
    below ``expert`` in every variant; below ``hard`` in big-two-4card and the trump games,
    level with it elsewhere), this last only where it has a network of its own for that
    many players (elsewhere it would only be ``greedy`` by another name), and ``ismcts``,
    OpenSpiel's search, where OpenSpiel is installed. The searching levels (``medium``,
    ``hard``, ``expert``) are offered only where they can play: in a family without compiled
    parts they refuse every move (:func:`searchable`).

    >>> offered_bots("big-two-4card")[:7]
    ['random', 'easy', 'greedy', 'medium', 'hard', 'expert', 'learned']
    >>> ["learned" in offered_bots("rummy", n) for n in (2, 3, 4)]
    [True, False, True]
    """
    found = get_variant(variant)
    if players is None:
        players = found.default_players
    names = bot_names()
    known = [name for name in BOT_LEVELS if name in names]
    offered = known + [name for name in names if name not in BOT_LEVELS]
    return [name for name in offered
            if (name != "learned" or players in found.weights)
            and plays(name, found)]


#: The levels that search, which need a family's compiled parts.
SEARCHING = frozenset(level.name for level in LEVELS)


def plays(name: str, variant: Variant) -> bool:
    """Whether the bot ``name`` can play ``variant``: a searching level only where the game
    can be searched (:func:`searchable`), every other bot everywhere.

    >>> plays("expert", get_variant("rummy")), plays("greedy", get_variant("rummy"))
    (True, True)
    """
    return name not in SEARCHING or searchable(variant)


@cache
def searchable(variant: Variant) -> bool:
    """Whether the searching levels can play ``variant``: its observations have compiled
    knowledge to deal worlds from (``Observation._knowledge()``), which a family without
    compiled parts does not give, and :class:`SearchBot` refuses such a family's moves.
    Looked at once per variant, in a deal dealt for it.

    >>> searchable(get_variant("rummy"))
    True
    """
    return variant.make().new_deal(seed=0).observation(0)._knowledge() is not None


__all__ = [
    "BOT_LEVELS", "Bot", "BotOption", "EasyBot", "GreedyBot", "ISMCTSBot", "Inference",
    "LearnedBot", "LevelBot", "Opponents", "RandomBot", "SearchBot", "SearchConfig",
    "bot_names", "bot_options", "bot_spec", "make_bot", "offered_bots", "parse_bot", "plays",
    "register_bot", "searchable",
]
