"""
=====================================================
Type I error of the tests on the epsilon data set
=====================================================

How often does a test declare a difference between two algorithms that are
equally good? Dietterich's *epsilon* data set answers without training
anything: the 0-1 losses of two algorithms A and B are drawn directly, A
wrong with probability ε/2 on the first half of the records and 3ε/2 on the
second half, B the other way round, so both have error rate ε and every
rejection is a type I error.

This example re-estimates the epsilon column of Table V of the 5×2 BCV
McNemar paper (Yang et al. 2023) with
:func:`~sklearn_bcv.simulation.simulate_loss_vectors`, which builds the
contingency tables of all repetitions as arrays and calls every test once,
and plots them beside the published numbers. ``benchmarks/reproduce_table5.py``
runs the full-size version (10,000 repetitions, plus learners on the
"simple" data set).
"""

# %%
# The data: 2,000 simulated pairs of loss vectors
# -----------------------------------------------
# The paper uses n = 300 records and ε = 0.1.
from sklearn_bcv.datasets import make_epsilon_losses

n_repetitions = 2000
loss_a, loss_b = make_epsilon_losses(
    300, epsilon=0.1, n_datasets=n_repetitions, random_state=0
)
print(loss_a.shape, "error rates:", loss_a.mean().round(3), loss_b.mean().round(3))

# %%
# The designs and tests of Table V
# --------------------------------
# Each test runs on the design the paper used: 15 repeated hold-outs, one
# hold-out with 2/3 of the records for training, 10-fold CV, 10×10 CV, a
# random 5×2 CV and the block-regularized 3×2 and 5×2 CV. The last number of
# each row is the paper's type I error.
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

from sklearn_bcv import BlockRegularized5x2CV, BlockRegularizedMx2CV

designs = {
    "RHO (15 × 2/3)": ShuffleSplit(15, test_size=1 / 3, random_state=0),
    "RHO (15 × 9/10)": ShuffleSplit(15, test_size=0.1, random_state=0),
    "hold-out 2/3": ShuffleSplit(1, test_size=1 / 3, random_state=0),
    "10-fold CV": KFold(10, shuffle=True, random_state=0),
    "10×10 CV": RepeatedKFold(n_splits=10, n_repeats=10, random_state=0),
    "5×2 CV": RepeatedKFold(n_splits=2, n_repeats=5, random_state=0),
    "3×2 BCV": BlockRegularizedMx2CV(n_repeats=3, random_state=0),
    "5×2 BCV": BlockRegularized5x2CV(random_state=0),
}
table5 = [
    ("RHO paired t", "paired_t", "RHO (15 × 2/3)", 0.478),
    ("K-fold CV paired t", "paired_t", "10-fold CV", 0.043),
    ("5×2 CV paired t", "paired_t_5x2cv", "5×2 CV", 0.034),
    ("Corrected RHO t", "corrected_t", "RHO (15 × 9/10)", 0.053),
    ("Corrected 10×10 CV t", "corrected_t", "10×10 CV", 0.035),
    ("Combined 5×2 CV t", "combined_t_5x2cv", "5×2 CV", 0.291),
    ("Blocked 3×2 CV t", "blocked_t_3x2cv", "3×2 BCV", 0.087),
    ("Combined 5×2 CV F", "combined_f_5x2cv", "5×2 CV", 0.028),
    ("Calibrated 5×2 BCV F", "calibrated_f_5x2bcv", "5×2 BCV", 0.035),
    ("Proportional z", "proportion_z", "hold-out 2/3", 0.056),
    ("K-fold CV-CI z", "cv_ci_z", "10-fold CV", 0.046),
    ("HO McNemar", "mcnemar", "hold-out 2/3", 0.031),
    ("Naïve K-fold McNemar", "kfold_mcnemar", "10-fold CV", 0.000),
    ("5×2 BCV McNemar", "bcv_mcnemar", "5×2 BCV", 0.025),
]

# %%
# One simulation per design
# -------------------------
# All tests of a design share the same repetitions.
from sklearn_bcv.simulation import simulate_loss_vectors

results = {}
for design, cv in designs.items():
    tests = sorted({test for _, test, d, _ in table5 if d == design})
    results[design] = simulate_loss_vectors(
        loss_a, loss_b, cv, tests=tests, random_state=1
    )
print(results["5×2 BCV"])

# %%
# Side by side with the paper
# ---------------------------
for label, test, design, paper in table5:
    rate = results[design].rates[test]
    low, high = results[design].ci[test]
    print(f"{label:<22} ours {rate:.3f} [{low:.3f}, {high:.3f}]   paper {paper:.3f}")

# %%
# The picture
# -----------
# Dots are our rates with 95% Wilson intervals, crosses the paper's numbers;
# the dotted line is the nominal level 0.05. The McNemar family and the
# F tests stay below it; the RHO paired t and the combined 5×2 CV t test
# reject a true null hypothesis far too often.
import matplotlib.pyplot as plt
import numpy as np

labels = [label for label, *_ in table5]
rates = np.array([results[d].rates[t] for _, t, d, _ in table5])
bounds = np.array([results[d].ci[t] for _, t, d, _ in table5])
paper = np.array([p for *_, p in table5])
positions = np.arange(len(table5))[::-1]

fig, ax = plt.subplots(figsize=(7, 5.5), layout="constrained")
ax.errorbar(
    rates, positions, xerr=[rates - bounds[:, 0], bounds[:, 1] - rates],
    fmt="o", capsize=3, label=f"sklearn_bcv ({n_repetitions} repetitions)",
)  # fmt: skip
ax.scatter(paper, positions, marker="x", color="C3", zorder=3, label="Table V")
ax.axvline(0.05, color="grey", linestyle=":")
ax.set_yticks(positions, labels)
ax.set_xscale("symlog", linthresh=0.1)
ax.set_xlim(0, 0.6)
ticks = [0, 0.025, 0.05, 0.1, 0.2, 0.3, 0.5]
ax.set_xticks(ticks, [f"{tick:g}" for tick in ticks])
ax.minorticks_off()
ax.set_xlabel("type I error (rejection rate under the null), symlog scale beyond 0.1")
ax.set_title("Epsilon data set (n = 300, ε = 0.1), α = 0.05")
ax.legend(loc="lower right")
plt.show()
