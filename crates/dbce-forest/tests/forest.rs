//! Learning, determinism, serialisation and input checks of `RandomForest`.

use dbce_forest::{ForestError, ForestParams, RandomForest};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// `n` rows of `d` uniform features in [0, 1) labelled by `label`.
fn dataset(n: usize, d: usize, seed: u64, label: impl Fn(&[f32]) -> bool) -> (Vec<f32>, Vec<bool>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let features: Vec<f32> = (0..n * d).map(|_| rng.random::<f32>()).collect();
    let labels = features.chunks(d).map(label).collect();
    (features, labels)
}

fn accuracy(forest: &RandomForest, features: &[f32], labels: &[bool]) -> f64 {
    let d = forest.n_features();
    let right = features
        .chunks(d)
        .zip(labels)
        .filter(|(row, l)| forest.predict(row) == **l);
    right.count() as f64 / labels.len() as f64
}

fn xor(row: &[f32]) -> bool {
    (row[0] > 0.5) ^ (row[1] > 0.5)
}

#[test]
fn learns_xor_with_noise_features() {
    let (train_x, train_y) = dataset(3000, 4, 1, xor);
    let (test_x, test_y) = dataset(2000, 4, 2, xor);
    let params = ForestParams {
        trees: 32,
        seed: 11,
        ..ForestParams::default()
    };
    let forest = RandomForest::fit(&train_x, 4, &train_y, &params).unwrap();
    let acc = accuracy(&forest, &test_x, &test_y);
    assert!(acc > 0.95, "held-out accuracy {acc}");
    let imp = forest.feature_importances();
    assert!(
        imp[0] > imp[2] && imp[0] > imp[3] && imp[1] > imp[2] && imp[1] > imp[3],
        "{imp:?}"
    );
}

#[test]
fn learns_a_threshold_among_many_features() {
    let label = |row: &[f32]| row[7] > 0.37;
    let (train_x, train_y) = dataset(4000, 20, 3, label);
    let (test_x, test_y) = dataset(2000, 20, 4, label);
    let forest = RandomForest::fit(&train_x, 20, &train_y, &ForestParams::default()).unwrap();
    let acc = accuracy(&forest, &test_x, &test_y);
    assert!(acc > 0.95, "held-out accuracy {acc}");
    let imp = forest.feature_importances();
    assert_eq!(imp.len(), 20);
    assert!((imp.iter().sum::<f32>() - 1.0).abs() < 1e-4);
    let top = (0..20).max_by(|&a, &b| imp[a].total_cmp(&imp[b])).unwrap();
    assert_eq!(top, 7, "{imp:?}");
}

#[test]
fn one_class_input_predicts_that_class() {
    for class in [false, true] {
        let (x, _) = dataset(100, 3, 5, |_| false);
        let y = vec![class; 100];
        let forest = RandomForest::fit(&x, 3, &y, &ForestParams::default()).unwrap();
        for row in x.chunks(3).chain([[5.0, -5.0, 0.5].as_slice()]) {
            assert_eq!(forest.predict(row), class);
            assert_eq!(forest.predict_proba(row), if class { 1.0 } else { 0.0 });
        }
        assert!(forest.feature_importances().iter().all(|&v| v == 0.0));
        assert_eq!(forest.n_nodes(), forest.n_trees());
    }
}

#[test]
fn same_input_gives_identical_models() {
    let (x, y) = dataset(2000, 6, 6, |r| r[0] + r[1] * r[2] > 0.6);
    let params = ForestParams {
        trees: 12,
        seed: 99,
        ..ForestParams::default()
    };
    let a = RandomForest::fit(&x, 6, &y, &params).unwrap();
    let b = RandomForest::fit(&x, 6, &y, &params).unwrap();
    assert_eq!(a, b);
    let other = RandomForest::fit(
        &x,
        6,
        &y,
        &ForestParams {
            seed: 100,
            ..params
        },
    )
    .unwrap();
    assert_ne!(a, other, "the seed must change the model");
}

#[cfg(feature = "rayon")]
#[test]
fn thread_count_does_not_change_the_model() {
    let (x, y) = dataset(3000, 8, 7, |r| (r[0] > 0.3) ^ (r[5] < 0.6));
    let params = ForestParams {
        trees: 10,
        seed: 5,
        sample_fraction: 0.7,
        class_weight_balanced: true,
        ..ForestParams::default()
    };
    let fit_with = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| RandomForest::fit(&x, 8, &y, &params).unwrap())
    };
    let one = fit_with(1);
    let two = fit_with(2);
    assert_eq!(
        postcard::to_allocvec(&one).unwrap(),
        postcard::to_allocvec(&two).unwrap()
    );
    for row in x.chunks(8) {
        assert_eq!(
            one.predict_proba(row).to_bits(),
            two.predict_proba(row).to_bits()
        );
    }
}

#[test]
fn serde_round_trip_keeps_predictions() {
    let (x, y) = dataset(1000, 5, 8, |r| r[3] < 0.2 || r[4] > 0.9);
    let params = ForestParams {
        trees: 6,
        seed: 1,
        ..ForestParams::default()
    };
    let forest = RandomForest::fit(&x, 5, &y, &params).unwrap();

    let bytes = postcard::to_allocvec(&forest).unwrap();
    let from_postcard: RandomForest = postcard::from_bytes(&bytes).unwrap();
    assert_eq!(from_postcard, forest);

    let json = serde_json::to_string(&forest).unwrap();
    let from_json: RandomForest = serde_json::from_str(&json).unwrap();
    assert_eq!(from_json.params(), &params);
    for row in x.chunks(5) {
        assert_eq!(
            from_json.predict_proba(row).to_bits(),
            forest.predict_proba(row).to_bits()
        );
    }
}

#[test]
fn shape_errors() {
    let p = ForestParams::default();
    assert_eq!(
        RandomForest::fit(&[], 3, &[], &p).unwrap_err(),
        ForestError::Empty
    );
    assert_eq!(
        RandomForest::fit(&[], 0, &[true], &p).unwrap_err(),
        ForestError::Empty
    );
    assert_eq!(
        RandomForest::fit(&[1.0, 2.0, 3.0], 2, &[true, false], &p).unwrap_err(),
        ForestError::ShapeMismatch {
            values: 3,
            rows: 2,
            n_features: 2
        }
    );
    let ok_x = [1.0, 2.0, 3.0, 4.0];
    let ok_y = [true, false];
    let bad = |params: ForestParams| RandomForest::fit(&ok_x, 2, &ok_y, &params).unwrap_err();
    assert!(matches!(
        bad(ForestParams { trees: 0, ..p }),
        ForestError::InvalidParams(_)
    ));
    assert!(matches!(
        bad(ForestParams {
            max_features: Some(3),
            ..p
        }),
        ForestError::InvalidParams(_)
    ));
    assert!(matches!(
        bad(ForestParams {
            sample_fraction: f32::NAN,
            ..p
        }),
        ForestError::InvalidParams(_)
    ));
}

#[test]
fn non_finite_values_are_rejected_with_their_position() {
    let p = ForestParams::default();
    let mut x = vec![0.5_f32; 12];
    x[7] = f32::NAN;
    let y = [true, false, true, false];
    assert_eq!(
        RandomForest::fit(&x, 3, &y, &p).unwrap_err(),
        ForestError::NonFinite { row: 2, col: 1 }
    );
    x[7] = 0.0;
    x[2] = f32::NEG_INFINITY;
    assert_eq!(
        RandomForest::fit(&x, 3, &y, &p).unwrap_err(),
        ForestError::NonFinite { row: 0, col: 2 }
    );
}

#[test]
#[should_panic(expected = "row length")]
fn predicting_a_short_row_panics() {
    let (x, y) = dataset(50, 3, 9, |r| r[0] > 0.5);
    let forest = RandomForest::fit(&x, 3, &y, &ForestParams::default()).unwrap();
    forest.predict(&[0.5, 0.5]);
}

#[test]
fn batch_prediction_equals_row_by_row() {
    let (x, y) = dataset(5000, 4, 10, xor);
    let params = ForestParams {
        trees: 8,
        seed: 3,
        ..ForestParams::default()
    };
    let forest = RandomForest::fit(&x, 4, &y, &params).unwrap();
    let (test_x, _) = dataset(4500, 4, 11, xor);
    let batch = forest.predict_proba_batch(&test_x);
    assert_eq!(batch.len(), 4500);
    for (row, p) in test_x.chunks(4).zip(&batch) {
        assert_eq!(forest.predict_proba(row).to_bits(), p.to_bits());
    }
    assert!(forest.predict_proba_batch(&[]).is_empty());
}
