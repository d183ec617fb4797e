//! How many cases a property suite runs: its own number, or
//! `PROPTEST_CASES` when set, so one run can go far deeper than CI's
//! (`PROPTEST_CASES=20000 cargo test --no-default-features --test engine_properties`).
//! `ProptestConfig::with_cases` alone would ignore the variable.

use proptest::test_runner::Config;

pub fn cases(default: u32) -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default);
    // Properties that assume a fault can bite reject many cases; a deep
    // run must be allowed as many more rejects as it runs more cases.
    Config {
        max_global_rejects: (cases.saturating_mul(4)).max(Config::default().max_global_rejects),
        ..Config::with_cases(cases)
    }
}
