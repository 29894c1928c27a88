"""Rating over games as a PNG: one panel per variant, a line per bot (mu, with a band of
± sigma). matplotlib is an optional dependency (``pip install 'parlour[plot]'``), imported only
when a plot is drawn."""

from __future__ import annotations

from pathlib import Path

from parlour.errors import ParlourError, RecordError


def plot_ratings(history: dict[str, dict[str, list[tuple[float, float]]]], path: str | Path) -> None:
    """Draw ``history`` (from :func:`parlour.arena.results.rating_history`) into ``path``.

    The x axis counts each bot's rated deals, so bots that joined later start at 1 too.
    """
    if not history:
        raise ParlourError("no ratings to plot: the results file has no rated deal of that variant")
    try:
        # The object API, not pyplot: no global figure state, no GUI backend, safe in any thread.
        from matplotlib.figure import Figure
        from matplotlib.ticker import MaxNLocator
    except ImportError:
        raise ParlourError("plotting needs matplotlib: pip install 'parlour[plot]'") from None
    fig = Figure(figsize=(8, 3.5 * len(history)), layout="constrained")
    axes = fig.subplots(len(history), 1, squeeze=False)[:, 0]
    for ax, (variant, bots) in zip(axes, sorted(history.items()), strict=True):
        for bot, points in sorted(bots.items()):
            games = range(1, len(points) + 1)
            mu = [m for m, _ in points]
            line = ax.plot(games, mu, label=bot)[0]
            ax.fill_between(games, [m - s for m, s in points], [m + s for m, s in points],
                            color=line.get_color(), alpha=0.15, linewidth=0)
        ax.set_title(f"{variant}: openskill rating")
        ax.set_xlabel("rated deals")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_ylabel("mu (band: ± sigma)")
        ax.grid(alpha=0.3)
        ax.legend()
    try:
        fig.savefig(path, format="png", dpi=100)
    except OSError as e:
        raise RecordError(f"cannot write the plot to {path}: {e.strerror or e}") from None
