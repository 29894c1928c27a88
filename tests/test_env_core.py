"""The environments' compiled parts (``parlour._core.EnvCore``, ``parlour.encoding.compiled``):
they read only what a seat may see, and refuse what does not fit them without changing
anything. (That they reproduce the Python encoders exactly is ``test_encoding_fixtures.py``.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from parlour.encoding import compiled
from parlour.envs import action_index, aec, aec_env, encoder
from parlour.envs.batched import BatchedEnv, sample_legal
from parlour.errors import IllegalAction

SEATINGS = [(v.name, n) for v in parlour.variants() for n in v.players]


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_hidden_cards_never_change_the_compiled_encoding(variant: str, players: int) -> None:
    game = parlour.new_game(variant, players=players)
    fast = compiled(game)
    assert fast is not None
    rng = random.Random(players)
    differed = 0
    for d in range(3):
        state = game.new_deal(seed=100 * players + d)
        step = 0
        while True:
            if step % 7 == 0:
                seat = rng.randrange(players)
                x = fast.encode_state(state, seat)
                assert np.array_equal(x, encoder(game).encode(state.observation(seat)))
                other = state.observation(seat).sample_state(rng)  # hidden cards dealt anew
                assert np.array_equal(fast.encode_state(other, seat), x)
                zones, other_zones = state.zones(), other.zones()
                differed += any(zones[f"P{p}"] != other_zones[f"P{p}"] for p in range(players))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    assert differed  # the samples did move hidden cards


def test_the_compiled_parts_refuse_what_does_not_fit() -> None:
    game = parlour.new_game("big-two-4card")
    fast = compiled(game)
    assert fast is not None
    state = game.new_deal(seed=1)
    x = fast.encode_state(state, 0)
    for seat in (4, -1, 10**30):
        with pytest.raises((ValueError, OverflowError)):
            fast.encode_state(state, seat)
    with pytest.raises(ValueError, match="entries"):
        fast.encode_state(state, 0, np.empty(fast.size + 1, dtype=np.float32))
    with pytest.raises(TypeError):
        fast.encode_state(state, 0, np.empty(fast.size, dtype=np.float64))  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # another family's deal
        fast.core.encode(parlour.new_game("forty-five").new_deal(seed=1)._e, 0,
                         np.empty(fast.size, dtype=np.float32))
    three = compiled(parlour.new_game("spoil-five", players=3))
    assert three is not None
    with pytest.raises(ValueError, match="seats"):  # another player count's deal
        three.encode_state(parlour.new_game("spoil-five", players=5).new_deal(seed=1), 0)
    with pytest.raises(ValueError, match="entries"):
        fast.legal_mask(state, np.zeros(10, dtype=np.int8))
    # Another variant's deal with as many seats: its cards read by this game's index would be
    # other moves, so it is refused (by every part that reads a deal).
    big_two = compiled(parlour.new_game("big-two"))
    assert big_two is not None
    pusoy = parlour.new_game("pusoy-dos").new_deal(seed=1)
    for read in (lambda: big_two.encode_state(pusoy, 0), lambda: big_two.legal(pusoy),
                 lambda: big_two.legal_mask(pusoy, np.zeros(big_two.core.action_count,
                                                            dtype=np.int8))):
        with pytest.raises(ValueError, match="another game"):
            read()
    assert np.array_equal(fast.encode_state(state, 0), x)  # nothing changed
    trump = parlour.new_game("forty-five")
    t = compiled(trump)
    assert t is not None
    with pytest.raises(ValueError, match="scores"):
        t.core.encode(trump.new_deal(seed=1)._e, 0, np.empty(t.size, dtype=np.float32), [1.0])
    with pytest.raises(ValueError, match="another game"):
        t.core.legal(parlour.new_game("spoil-five", players=4).new_deal(seed=1)._e)
    rummy = parlour.new_game("rummy")
    r = compiled(rummy)
    assert r is not None
    with pytest.raises(ValueError, match="discard"):
        r.core.encode(rummy.new_deal(seed=1)._core, 0, np.empty(r.size, dtype=np.float32), [0])
    with pytest.raises(ValueError, match="another game"):  # the same game, other options
        r.core.legal(parlour.new_game("rummy", score_melds=False).new_deal(seed=1)._core)


# -- the batched environment's compiled core -------------------------------------------------

@pytest.mark.parametrize("variant", ["big-two", "spoil-five", "rummy"])
def test_states_made_late_are_the_rows_and_stay_in_step(variant: str) -> None:
    env = BatchedEnv(variant, 5, seed=3)
    enc = encoder(env.game)
    step = env.reset()
    rng = np.random.default_rng(4)
    for _ in range(60):  # no Python state exists yet: the rows are only in the core
        step = env.step(sample_legal(step, rng))
    for call in range(60):
        states = env.states  # replayed from the seeds on the first call, then kept in step
        for row, state in enumerate(states):
            assert state.current_player == step.player[row]
            assert np.array_equal(step.obs[row], enc.encode(state.observation(state.current_player)))
            assert step.legal[step.offsets[row]:step.offsets[row + 1]].tolist() == (
                action_index(env.game).indices(state.legal_actions(), state))
        before = list(states)
        step = env.step(sample_legal(step, rng))
        for row in np.flatnonzero(step.done):
            assert before[row].is_over and env.states[row] is not before[row]
        if call == 30:
            step = env.reset(seed=8)  # new deals: new states, made again when asked for


def test_reset_with_a_seed_deals_as_a_new_environment_with_it() -> None:
    env = BatchedEnv("forty-five", 6, seed=1)
    env.reset()
    env.step(sample_legal(env.reset(), np.random.default_rng(0)))
    again = env.reset(seed=2)
    fresh = BatchedEnv("forty-five", 6, seed=2).reset()
    for name in ("obs", "legal", "offsets", "player", "rewards", "done"):
        assert np.array_equal(getattr(again, name), getattr(fresh, name)), name
    other = BatchedEnv("forty-five", 6, seed="a text seed").reset()  # any seed random takes
    assert not np.array_equal(other.obs, fresh.obs)


def test_bad_actions_are_refused_and_change_nothing() -> None:
    env = BatchedEnv("big-two-4card", 3, seed=5)
    step = env.reset()
    with pytest.raises(IllegalAction, match="reset"):
        BatchedEnv("big-two-4card", 3).step([0, 0, 0])
    good = sample_legal(step, np.random.default_rng(1))
    seeds = env._rows.seeds()
    for bad, match in [(good.astype(np.float64), "expected 3"), (good[:2], "expected 3"),
                       (np.array([good[0], good[1], 2**64 - 1], dtype=np.uint64),
                        f"action {2**64 - 1} of deal 2"),
                       (np.array([good[0], -1, good[2]]), "action -1 of deal 1")]:
        with pytest.raises(IllegalAction, match=match):
            env.step(bad)
    assert env._rows.seeds() == seeds and all(not env._rows.played(r) for r in range(3))
    after = env.step(good)  # the same deals, unchanged: the good actions still apply
    assert all(len(env._rows.played(r)) == 1 for r in range(3))
    assert after.obs.shape == step.obs.shape


def test_a_batch_step_reads_as_the_named_tuple_it_was() -> None:
    step = BatchedEnv("spoil-five", 4, seed=2).reset()
    obs, mask, legal, offsets, player, rewards, done = step
    fields = (step.obs, step.mask, step.legal, step.offsets, step.player, step.rewards,
              step.done)
    assert all(a is b for a, b in zip((obs, mask, legal, offsets, player, rewards, done), fields,
                                      strict=True))
    assert step[0] is obs and step[1] is mask is step.mask and len(step) == 7
    assert list(step._asdict()) == list(step._fields)
    assert mask.dtype == np.int8 and mask.shape == (4, 108)
    assert (mask.sum(axis=1) == np.diff(offsets)).all()


# -- the AEC environment on the compiled parts -------------------------------------------------

def _aec_run(variant: str, players: int, seed: int) -> list[tuple[bytes, bytes]]:
    """Every agent's observation and mask at every step of two seeded deals, as bytes."""
    env = aec_env(variant, players=players)
    rng = random.Random(seed)
    seen = []
    for deal in range(2):
        env.reset(seed=seed + deal)
        for _agent in env.agent_iter():
            for other in env.possible_agents:
                o = env.observe(other)
                seen.append((o["observation"].tobytes(), o["action_mask"].tobytes()))
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
            else:
                env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize(("variant", "players"), [("big-two-4card", 4), ("pusoy-dos", 4),
                                                  ("spoil-five", 3), ("rummy", 3)])
def test_aec_observations_are_the_same_with_or_without_the_compiled_parts(
        variant: str, players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _aec_run(variant, players, 11)
    monkeypatch.setattr(aec, "compiled", lambda game: None)  # observations encoded in Python
    assert _aec_run(variant, players, 11) == fast
    assert len(fast) > 100


def test_aec_masks_of_seats_not_to_move_are_zero_and_read_only() -> None:
    env = aec_env("forty-five", players=4)
    env.reset(seed=1)
    mover = env.agent_selection
    for agent in env.possible_agents:
        mask = env.observe(agent)["action_mask"]
        if agent == mover:
            assert mask.any() and mask.flags.writeable
        else:
            assert not mask.any() and not mask.flags.writeable
            with pytest.raises(ValueError):
                mask[0] = 1
