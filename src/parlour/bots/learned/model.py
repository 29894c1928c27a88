"""The learned policy and value for big-two-4card: a small network run in numpy.

The policy scores every legal action: a two-layer perceptron over (observation, action)
features (:mod:`.features`) gives each action its predicted *advantage*, in points per deal:
how much more the seat ends the deal with after that action than after the average of the
others, with the deal played on by the rule-based policy. The value is a one-layer perceptron
over the observation features alone: the seat's predicted points for the deal. Both were fitted
by ``training/train_big_two_4card.py`` (the command and seed are in the weights' metadata).

The weights file is an ``.npz`` of float32 arrays plus ``metadata``, a JSON string with
``format`` (:data:`FORMAT`), ``variant``, ``command``, ``seed`` and the training figures.

>>> model = load_model()
>>> model.metadata["variant"], model.metadata["format"] == FORMAT
('big-two-4card', True)
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from parlour.bots.learned.features import OBS_WIDTH, WIDTH, action_rows, observation_row
from parlour.errors import ParlourError
from parlour.game import Action, Observation

#: The weights format this module reads; a file of another format is refused.
FORMAT = 1
#: The shipped weights, beside this module.
WEIGHTS = Path(__file__).with_name("big_two_4card.npz")
#: The arrays a weights file holds: the policy's layers (first layer split into its observation
#: and action parts) and the value's.
ARRAYS = ("w1_obs", "w1_act", "b1", "w2", "b2", "w3", "b3", "v1", "vb1", "v2", "vb2")
#: Targets are divided by this in training (points per deal); predictions are multiplied back.
SCALE = 10.0

Array = NDArray[np.float32]


class PolicyValue:
    """The policy and value networks of one weights file."""

    def __init__(self, arrays: dict[str, Array], metadata: dict[str, Any]) -> None:
        missing = [k for k in ARRAYS if k not in arrays]
        if missing:
            raise ParlourError(f"the weights lack {', '.join(missing)}")
        if metadata.get("format") != FORMAT:
            raise ParlourError(f"weights of format {metadata.get('format')!r}; this version of "
                               f"parlour reads format {FORMAT}")
        if arrays["w1_obs"].shape[0] != OBS_WIDTH or arrays["w1_act"].shape[0] != WIDTH - OBS_WIDTH:
            raise ParlourError("the weights were made for other features than this version's")
        self.arrays = {k: np.asarray(arrays[k], dtype=np.float32) for k in ARRAYS}
        self.metadata = metadata

    def advantages(self, observation: Observation, legal: Sequence[Action],
                   greedy_choice: Action | None) -> NDArray[np.float64]:
        """Each legal action's predicted advantage in points per deal (they sum to zero)."""
        a = self.arrays
        obs = observation_row(observation)
        acts = action_rows(observation, legal, greedy_choice)
        h = np.maximum(obs @ a["w1_obs"] + acts @ a["w1_act"] + a["b1"], 0.0)
        h = np.maximum(h @ a["w2"] + a["b2"], 0.0)
        score: NDArray[np.float64] = (h @ a["w3"] + a["b3"]).astype(np.float64) * SCALE
        centred: NDArray[np.float64] = score - score.mean()
        return centred

    def value(self, observation: Observation) -> float:
        """The seat's predicted points for the deal, from its observation."""
        a = self.arrays
        h = np.maximum(observation_row(observation) @ a["v1"] + a["vb1"], 0.0)
        return float(h @ a["v2"] + a["vb2"]) * SCALE

    def save(self, path: Path | str) -> None:
        contents: dict[str, Any] = {"metadata": np.array(json.dumps(self.metadata)), **self.arrays}
        np.savez_compressed(path, **contents)


def read_model(path: Path | str) -> PolicyValue:
    """The model in a weights file, or a :class:`ParlourError` saying why it cannot be read."""
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files if k != "metadata"}
            metadata = json.loads(str(data["metadata"])) if "metadata" in data.files else {}
    except (OSError, ValueError, KeyError) as e:
        raise ParlourError(f"cannot read the weights in {path}: {e}") from None
    return PolicyValue(arrays, metadata)


@cache
def load_model() -> PolicyValue:
    """The shipped big-two-4card model, read once per process."""
    return read_model(WEIGHTS)
