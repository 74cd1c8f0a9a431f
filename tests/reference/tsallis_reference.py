"""Tsallis-INF (Zimmert & Seldin, JMLR 2021, Algorithms 1 and 2; core/tsallis.py) transcribed in plain Python, on
lists: the distribution w_i = 4 (eta (L_i - x))^-2 normalised by Newton's method with the same start and stopping rule
(x_0 = min L - 2 / eta; stop once sum w - 1 <= 1e-12, when a step no longer moves x, or after 100 steps), and the
importance-weighted and reduced-variance loss estimates."""


def tsallis_distribution(losses, eta, tolerance=1e-12, max_steps=100):
    """(w, x): the Tsallis-INF distribution of the cumulative losses at learning rate eta and its normaliser x."""
    x = min(losses) - 2.0 / eta
    for _ in range(max_steps):
        roots = [2.0 / (eta * (loss - x)) for loss in losses]  # sqrt(w_i) = 2 / (eta (L_i - x))
        weights = [root * root for root in roots]
        total = sum(weights)
        if total - 1.0 <= tolerance:
            break
        # Newton on f(x) = sum_i w_i(x) - 1, f'(x) = eta sum_i w_i^(3/2).
        derivative = eta * sum(weight * root for weight, root in zip(weights, roots, strict=True))
        moved = x - (total - 1.0) / derivative
        if moved >= x:
            break
        x = moved
    return [weight / total for weight in weights], x


def loss_estimate(weights, eta, arm, loss, reduced_variance):
    """The estimated loss vector of a slot in which ``arm`` was played from ``weights`` and lost ``loss``:
    loss / w_arm on the arm (importance-weighted), or B_i = 1/2 [w_i >= eta^2] on every arm i plus
    (loss - B_arm) / w_arm on the arm (reduced-variance)."""
    baselines = [0.5 if reduced_variance and weight >= eta * eta else 0.0 for weight in weights]
    estimate = list(baselines)
    estimate[arm] += (loss - baselines[arm]) / weights[arm]
    return estimate
