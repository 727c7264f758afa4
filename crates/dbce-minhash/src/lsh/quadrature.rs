//! Gauss–Legendre quadrature, for the integrals of
//! [`LshParams::optimal`](crate::LshParams::optimal).

use std::f64::consts::PI;

/// An `n`-point Gauss–Legendre rule on `[-1, 1]`: exact for polynomials of degree `< 2n`.
pub(crate) struct GaussLegendre {
    nodes: Vec<f64>,
    weights: Vec<f64>,
}

impl GaussLegendre {
    /// The rule with `points` nodes (at least 1), found by Newton's method on the Legendre
    /// polynomial `P_points` from Tricomi's initial guesses.
    pub(crate) fn new(points: u32) -> Self {
        let points = points.max(1);
        let n = f64::from(points);
        let (mut nodes, mut weights) = (Vec::new(), Vec::new());
        // Nodes are symmetric about 0; compute the non-negative half, largest first.
        for i in 0..points.div_ceil(2) {
            let guess = (PI * (f64::from(i) + 0.75) / (n + 0.5)).cos();
            let (x, derivative) = newton_root(points, guess);
            let weight = 2.0 / ((1.0 - x * x) * derivative * derivative);
            nodes.push(x);
            weights.push(weight);
            if x.abs() > f64::EPSILON {
                nodes.push(-x);
                weights.push(weight);
            }
        }
        Self { nodes, weights }
    }

    /// `∫ f` over `[lo, hi]`.
    pub(crate) fn integrate(&self, lo: f64, hi: f64, f: impl Fn(f64) -> f64) -> f64 {
        let (half, mid) = ((hi - lo) / 2.0, (hi + lo) / 2.0);
        let sum: f64 = self
            .nodes
            .iter()
            .zip(&self.weights)
            .map(|(&x, &w)| w * f(half * x + mid))
            .sum();
        half * sum
    }
}

/// The root of `P_n` near `guess`, with `P_n'` there.
fn newton_root(n: u32, guess: f64) -> (f64, f64) {
    let mut x = guess;
    for _ in 0..100 {
        let (value, derivative) = legendre(n, x);
        let step = value / derivative;
        x -= step;
        if step.abs() < 1e-15 {
            break;
        }
    }
    (x, legendre(n, x).1)
}

/// `(P_n(x), P_n'(x))` by the three-term recurrence.
fn legendre(n: u32, x: f64) -> (f64, f64) {
    let (mut current, mut previous) = (1.0, 0.0);
    for j in 1..=n {
        let j = f64::from(j);
        (current, previous) = (
            ((2.0 * j - 1.0) * x * current - (j - 1.0) * previous) / j,
            current,
        );
    }
    (
        current,
        f64::from(n) * (x * current - previous) / (x * x - 1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integrates_polynomials_up_to_degree_2n_minus_1_exactly() {
        for points in [1, 2, 5, 64, 129] {
            let rule = GaussLegendre::new(points);
            let degree = 2 * points - 1;
            let exact = 1.0 / f64::from(degree + 1); // ∫₀¹ s^degree
            let got = rule.integrate(0.0, 1.0, |s| s.powi(degree as i32));
            assert!(
                (got - exact).abs() < 1e-14,
                "{points} points: {got} vs {exact}"
            );
        }
    }

    #[test]
    fn weights_sum_to_interval_length() {
        let rule = GaussLegendre::new(2049);
        assert!((rule.integrate(0.25, 0.75, |_| 1.0) - 0.5).abs() < 1e-12);
        assert_eq!(rule.nodes.len(), 2049);
    }
}
