"""Pictures of simulation results (``simulate --plot`` and ``compare --plot``).

matplotlib is an optional extra (``pip install 'bidwhist[plot]'``): it is imported
only when a picture is asked for, and only through its object-oriented API (a
``Figure`` saved directly), so nothing here touches pyplot's global state or the
user's backend.  The pictures are drawn from the same JSON the commands print,
so they show exactly the numbers of the report.
"""

from __future__ import annotations

import io
import os

from .common import open_output, output_problem

INSTALL = "pip install 'bidwhist[plot]'"


class PlotUnavailable(Exception):
    """matplotlib is not installed."""


def require() -> None:
    """Raise PlotUnavailable, saying what to install, when matplotlib cannot be imported."""
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure  # noqa: F401
    except ImportError:
        raise PlotUnavailable(f"--plot needs matplotlib, which is not installed: {INSTALL}") from None


def check_path(path: str) -> None:
    """Raise ValueError, in words, when a picture could not be saved to ``path``.

    Checked before a run starts, so a long simulation is never thrown away at the end
    for a misspelt file name: the format (from the extension, which must be there) must be
    one matplotlib writes, and the file must be one that can be written
    (:func:`bidcompiler.cli.common.output_problem`).
    """
    from matplotlib.backend_bases import FigureCanvasBase

    formats = FigureCanvasBase.get_supported_filetypes()
    ext = os.path.splitext(path)[1][1:].lower()
    if not ext:  # the format is never guessed: `--plot results` is more likely a slip than a PNG
        raise ValueError(f"{path} has no extension: give a name ending in one of .{', .'.join(sorted(formats))}")
    if ext not in formats:
        raise ValueError(f"cannot draw a {ext!r} file: give a name ending in one of "
                         f".{', .'.join(sorted(formats))}")
    _check_format(ext)
    problem = output_problem(path)  # too long a name, a missing folder, a read-only disk...
    if problem is not None:
        raise ValueError(f"cannot write {path}: {problem}")


def _check_format(ext: str) -> None:
    """Raise ValueError when matplotlib cannot draw a ``ext`` file on this machine.

    Some formats it lists need programs of their own (a ``.pgf`` needs xelatex), and the
    run's end was too late to find out (an internal error after the whole simulation):
    a tiny figure is drawn in memory first, in a few milliseconds.
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1))
    fig.subplots().set_title("x")
    try:
        fig.savefig(io.BytesIO(), format=ext)
    except Exception as exc:  # noqa: BLE001 -- whatever a format's backend raises, the format is unusable here
        raise ValueError(f"cannot draw a {ext!r} file here: {exc}") from None


def _figure():
    require()
    from matplotlib.figure import Figure
    fig = Figure(figsize=(12, 8), dpi=100, layout="constrained")
    return fig, fig.subplots(2, 2)


def _series_bars(ax, series, keys, labels, title, percent=True):
    """Grouped bars, one group per key and one bar per series, with 95% error bars."""
    width = 0.8 / max(1, len(series))
    for s, (name, stats, _) in enumerate(series):
        xs, heights, lows, highs = [], [], [], []
        for i, key in enumerate(keys):
            stat = stats.get(key)
            if not stat or stat["value"] is None:
                continue
            scale = 100 if percent else 1
            value = stat["value"] * scale
            xs.append(i - 0.4 + width * (s + 0.5))
            heights.append(value)
            lows.append(value - stat["low"] * scale if stat["low"] is not None else 0)
            highs.append(stat["high"] * scale - value if stat["high"] is not None else 0)
        ax.bar(xs, heights, width=width, yerr=[lows, highs], capsize=2, label=name)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=8)
    ax.set_title(title)
    if percent:
        ax.set_ylabel("%")
    if len(series) > 1:
        ax.legend(fontsize=8)


def _histogram(ax, series, name, title, xlabel):
    """Side-by-side bars of a distribution, as shares so runs of any size compare."""
    width = 0.8 / max(1, len(series))
    for s, (label, _, distributions) in enumerate(series):
        hist = {int(k): v for k, v in distributions.get(name, {}).items()}
        total = sum(hist.values())
        if not total:
            continue
        xs = sorted(hist)
        ax.bar([x - 0.4 + width * (s + 0.5) for x in xs], [100 * hist[x] / total for x in xs],
               width=width, label=label)
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("%")
    if len(series) > 1:
        ax.legend(fontsize=8)


def _contract_keys(series) -> list[str]:
    """Contracts that were bid under some series, in the order of the statistics."""
    keys = []
    for _, stats, _ in series:
        for key, stat in stats.items():
            if key.startswith("contract:") and stat["value"] and key not in keys:
                keys.append(key)
    order = list(series[0][1])
    return sorted(keys, key=lambda k: order.index(k) if k in order else len(order))


def title(data: dict) -> str:
    """The title of a report's picture, as its text header says it: what was run (each
    variant as named, house rules and every --set included), how much, the seed and
    the bots."""
    amount = f"{data['games']} games" if data["mode"] == "games" else f"{data['hands']} hands"
    bots = f"bots: {data['bots_description']}"
    if "a" in data:  # a comparison
        deals = "on the same deals" if data.get("same_deals", True) else "from the same seeds"
        return f"{data['a']['variant']} against {data['b']['variant']}: {amount} {deals}, seed {data['seed']}, {bots}"
    return f"{data['variant']}: {amount}, seed {data['seed']}, {bots}"


def _draw(series, mode: str, heading: str, path: str) -> None:
    fig, axes = _figure()
    contracts = _contract_keys(series)
    names = [k.split(":", 1)[1] for k in contracts]
    _series_bars(axes[0][0], series, contracts, names, "Contracts (share of hands, 95% intervals)")
    _series_bars(axes[0][1], series, [f"made:{n}" for n in names], names, "Make rate by contract (95% intervals)")
    _histogram(axes[1][0], series, "declarer_points", "Declarers' points per contract", "points")
    if mode == "games":
        _histogram(axes[1][1], series, "game_length", "Game length", "hands per game")
    else:
        keys = ["made", "set", "sweep", "redeal"]
        labels = ["made", "set", "sweep", "thrown in"]
        _series_bars(axes[1][1], series, keys, labels, "Hands (95% intervals)")
    fig.suptitle(heading)
    save(fig, path)


def save(fig, path: str) -> None:
    """Write the figure ``fig`` to ``path``, in the format its extension names.

    Drawn in memory, then written: some formats seek back in the file as they are
    written (a ``.png`` or ``.tiff`` named by a FIFO failed after the whole run).  Opened
    as every output is (:func:`~bidcompiler.cli.common.open_output`): a FIFO whose reader
    left during the run is an error, not a wait forever.
    """
    # The format is said outright (check_path made sure the name has an extension).
    ext = os.path.splitext(path)[1][1:].lower()
    picture = io.BytesIO()
    fig.savefig(picture, format=ext or "png")
    with os.fdopen(open_output(path), "wb") as out:
        out.write(picture.getvalue())


def plot_simulation(data: dict, path: str) -> None:
    """Draw a simulation's contracts, make rates and distributions to ``path`` (PNG)."""
    series = [(data["variant"], data["statistics"], data["distributions"])]
    _draw(series, data["mode"], title(data), path)


def plot_comparison(data: dict, path: str) -> None:
    """Draw two variants' figures side by side (``compare --plot``) to ``path`` (PNG)."""
    series = []
    for side in ("a", "b"):
        stats = {d["metric"]: {**d[side], "kind": d["kind"], "label": d["label"]} for d in data["differences"]}
        series.append((f"{side.upper()}: {data[side]['variant']}", stats, data["distributions"][side]))
    _draw(series, data["mode"], title(data), path)
