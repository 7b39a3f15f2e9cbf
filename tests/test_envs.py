"""The Gymnasium and PettingZoo environments of `ikeda.envs` (docs/envs.md): the
libraries' own checkers, rewards against the final counts, autoreset, truncation at the
move cap, the illegal-move policies, and a short training loop."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

import ikeda  # noqa: E402
import ikeda.envs  # noqa: E402,F401  (registers ikeda/Go-v0)
from ikeda.envs import go_v0  # noqa: E402


def vec(n: int, **kwargs: object) -> object:
    return gymnasium.make_vec("ikeda/Go-v0", num_envs=n, vectorization_mode="vector_entry_point", **kwargs)


def random_actions(obs: dict[str, np.ndarray], rng: np.random.Generator) -> np.ndarray:
    """A legal action per game: the pass one time in ten (so that games end well before
    the move cap), else uniformly among the plays (the pass only without one)."""
    mask = obs["action_mask"].astype(bool)
    plays = mask.copy()
    plays[:, -1] &= ~mask[:, :-1].any(1)
    pick = np.array([rng.choice(np.flatnonzero(row)) for row in plays])
    return np.where(rng.random(len(pick)) < 0.1, mask.shape[1] - 1, pick)


def test_import_ikeda_imports_neither_gymnasium_nor_pettingzoo() -> None:
    code = "import sys, ikeda; print(any(m.split('.')[0] in ('gymnasium', 'pettingzoo') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_single_game_env_passes_gymnasiums_check_env() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("ikeda/Go-v0", size=5)
    check_env(env.unwrapped, skip_render_check=True)
    obs, _ = env.reset(seed=3)
    assert obs["observation"].shape == (20, 5, 5) and obs["action_mask"].sum() == 26


def test_the_vector_env_is_made_by_make_vec_with_next_step_autoreset() -> None:
    env = vec(4, size=9, komi=7.5, rules="area3")
    from gymnasium.vector import AutoresetMode

    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space.n == 82
    assert env.single_observation_space["observation"].shape == (20, 9, 9)
    obs, _ = env.reset(seed=1)
    assert obs["observation"].shape == (4, 20, 9, 9) and obs["action_mask"].shape == (4, 82)
    assert obs in env.observation_space


def test_rewards_are_the_movers_result_and_the_infos_hold_the_final_counts() -> None:
    env = vec(16, size=5, komi=0.5)
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    ended = truncated = 0
    for _ in range(200):
        mover = env.unwrapped.batch.to_move.copy()
        was_done = env.unwrapped.engine._done.copy()
        boards_before = env.unwrapped.batch.boards()
        obs, rewards, term, trunc, infos = env.step(random_actions(obs, rng))
        assert not (rewards[~term] != 0).any()
        truncated += trunc.sum()
        # A game that ended at the last step is back at the start, its action ignored.
        assert not obs["observation"][was_done, :16].any()
        for i in np.flatnonzero(was_done):
            assert env.unwrapped.batch.lengths[i] == 0 and not term[i] and rewards[i] == 0
        for i in np.flatnonzero(term):
            ended += 1
            score = infos["score"][i]
            winner = 1 if score > 0 else 2
            assert infos["_score"][i] and infos["winner"][i] == winner
            assert rewards[i] == (1 if winner == mover[i] else -1)
            board = env.unwrapped.batch.boards()[i]
            g = ikeda.Game(5, komi=0.5, setup={
                "B": [int(x) for x in np.flatnonzero(board.ravel() == 1)],
                "W": [int(x) for x in np.flatnonzero(board.ravel() == 2)],
            })
            assert np.array_equal(infos["ownership"][i], g.ownership())
    assert ended > 10 and truncated < ended


def test_games_are_truncated_at_the_move_cap() -> None:
    env = vec(2, size=5, max_moves=3)
    env.reset()
    for t in range(3):
        _, rewards, term, trunc, infos = env.step(np.array([t, t + 10]))
    assert trunc.all() and not term.any() and not rewards.any()
    assert infos["winner"].tolist() == [0, 0]
    obs, rewards, term, trunc, _ = env.step(np.array([7, 7]))  # ignored: the games reset
    assert not trunc.any() and env.unwrapped.batch.lengths.tolist() == [0, 0]
    assert obs["action_mask"].sum() == 2 * 26


def test_an_illegal_action_raises_by_default_and_changes_nothing() -> None:
    env = vec(2, size=5)
    env.reset()
    env.step(np.array([12, 12]))
    before = env.unwrapped.batch.boards()
    with pytest.raises(ikeda.IllegalMoveError):
        env.step(np.array([0, 12]))
    assert np.array_equal(env.unwrapped.batch.boards(), before)
    with pytest.raises(ikeda.InvalidMoveError):
        env.step(np.array([0, 26]))


def test_an_illegal_action_loses_the_game_under_the_lose_policy() -> None:
    env = vec(2, size=5, illegal="lose")
    obs, _ = env.reset()
    obs, *_ = env.step(np.array([12, 12]))
    seen = obs["observation"].copy()
    obs, rewards, term, trunc, infos = env.step(np.array([0, 12]))  # White plays on Black's stone
    assert rewards.tolist() == [0.0, -1.0] and term.tolist() == [False, True]
    assert infos["illegal"].tolist() == [False, True] and infos["winner"][1] == 1
    assert np.array_equal(obs["observation"][1], seen[1]), "the observation before the move"
    assert obs["action_mask"][1].tolist() == [0] * 25 + [1]
    env.step(np.array([1, 3]))
    assert env.unwrapped.batch.lengths.tolist() == [3, 0]


def test_reset_mask_resets_only_the_games_it_marks() -> None:
    env = vec(3, size=5)
    env.reset()
    env.step(np.array([1, 2, 3]))
    env.reset(options={"reset_mask": np.array([True, False, True])})
    assert env.unwrapped.batch.lengths.tolist() == [0, 1, 0]


# Advice api_test gives every env with a dict observation (PettingZoo's own classic envs
# are exempted by name): the layout is classic go's, a dict with the action mask.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably:UserWarning")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning")
# api_test itself imports PettingZoo's classic envs by their old names.
@pytest.mark.filterwarnings("ignore:The old environment creation API:DeprecationWarning")
def test_the_aec_env_passes_pettingzoos_api_and_seed_tests() -> None:
    from pettingzoo.test import api_test, seed_test

    api_test(go_v0.env(board_size=5), num_cycles=300)
    seed_test(lambda render_mode=None: go_v0.env(board_size=5), num_cycles=300)


def test_the_aec_env_is_zero_sum_with_each_agents_view() -> None:
    env = go_v0.env(board_size=5, komi=0.5)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    env.step(12)  # black_0 at C3
    mine, theirs = env.observe("white_0"), env.observe("black_0")
    assert mine["observation"][2, 2, 8] == 1 and mine["action_mask"][12] == 0, "White sees Black's stone as the opponent's"
    assert theirs["observation"][2, 2, 0] == 1 and not theirs["action_mask"].any()
    final: dict[str, tuple[float, dict[str, object]]] = {}
    for agent in env.agent_iter(500):
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, info)
            env.step(None)
            continue
        p = (rng.random() < 0.1) * 1.0
        env.step(25 if p else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert not env.agents and sorted(final) == ["black_0", "white_0"]
    (rb, info), (rw, _) = final["black_0"], final["white_0"]
    assert rb == -rw and abs(rb) == 1, "zero-sum, no draw with a half-point komi"
    assert rb == (1 if info["score"] > 0 else -1) and info["winner"] == (1 if rb > 0 else 2)


def test_a_numpy_policy_gradient_loop_runs_on_the_vector_env() -> None:
    """REINFORCE with a linear softmax over the planes, a few hundred steps: the loop a
    training script makes, with the weights changed by the games' results."""
    n, size = 16, 5
    env = vec(n, size=size)
    obs, _ = env.reset(seed=0)
    features = env.single_observation_space["observation"].shape[0] * size * size
    weights = np.zeros((features, size * size + 1))
    start = weights.copy()
    trajectory: list[list[tuple[np.ndarray, int, np.ndarray]]] = [[] for _ in range(n)]
    finished = 0
    for _ in range(300):
        x = obs["observation"].reshape(n, -1).astype(np.float64)
        logits = x @ weights
        actions = env.unwrapped.sample_actions(logits.astype(np.float32), logits=True)  # masked natively
        logits[obs["action_mask"] == 0] = -np.inf
        p = np.exp(logits - logits.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        for i in range(n):
            trajectory[i].append((x[i], int(actions[i]), p[i]))
        obs, rewards, term, trunc, _ = env.step(actions)
        for i in np.flatnonzero(term | trunc):
            finished += 1
            sign = rewards[i]  # the last mover's result; earlier moves alternate sides
            for k, (xi, a, pi) in enumerate(reversed(trajectory[i])):
                g = -pi
                g[a] += 1
                weights += 0.01 * (sign if k % 2 == 0 else -sign) * np.outer(xi, g)
            trajectory[i] = []  # the next step's action for it is ignored (autoreset)
        for i in np.flatnonzero(env.unwrapped.engine._done & ~(term | trunc)):
            trajectory[i] = []
    assert finished >= n and np.isfinite(weights).all() and not np.array_equal(weights, start)


def test_native_sampled_actions_are_legal_and_reproducible_from_the_seed() -> None:
    def run(seed: int, before: int = 0) -> list[int]:
        env = vec(8, size=5)
        env.reset(seed=seed + 1)
        for _ in range(before):  # steps and resets before the seeded reset change nothing
            env.step(env.unwrapped.sample_actions())
        obs, _ = env.reset(seed=seed)
        seen = []
        for _ in range(120):  # through ends and autoresets; illegal="raise" checks each
            actions = env.unwrapped.sample_actions()
            mask = obs["action_mask"].astype(bool)
            live = ~env.unwrapped.engine._done
            assert mask[np.arange(8), actions][live].all()
            seen.extend(actions.tolist())
            obs, *_ = env.step(actions)
        return seen

    assert run(3) == run(3, before=150) != run(4)  # past the move cap: autoresets


@pytest.mark.jax
def test_observations_go_to_jax_and_torch_without_a_copy() -> None:
    """The buffers are 64-byte aligned and C-contiguous: JAX's CPU client and torch take
    them in place (so the next step's observation shows through, as documented)."""
    env = vec(4, size=5)
    obs, _ = env.reset(seed=0)
    assert all(a.ctypes.data % 64 == 0 and a.flags.c_contiguous for a in obs.values())
    shared = []
    try:
        import jax

        shared.append(jax.dlpack.from_dlpack(obs["observation"]))
    except ImportError:
        pass
    try:
        import torch

        shared.append(torch.from_numpy(obs["observation"]))
    except ImportError:
        pass
    if not shared:
        pytest.skip("neither jax nor torch is installed")
    before = [float(x[0, -4, 0, 0]) for x in shared]  # Black to move: all ones
    env.step(env.unwrapped.sample_actions())
    assert before == [1.0] * len(shared) and [float(x[0, -4, 0, 0]) for x in shared] == [0.0] * len(shared)
