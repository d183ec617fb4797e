//! A small mutation fuzzer on the stable toolchain: every input a target
//! sees is a file of its committed corpus, a random edit of one (bytes
//! flipped, cut, repeated, spliced with another file, or a token of the
//! format put in), or bytes made up whole. proptest draws the edits and
//! shrinks a failing input to a small one; cargo-fuzz would need nightly.
//!
//! `FUZZ_CASES` sets the cases per target (the test run's default is
//! small); `FUZZ_CASES=1000000 cargo test --release -p partition-lab-core
//! --test fuzz -- --nocapture` is the long run, and prints its figures.

use std::path::PathBuf;
use std::time::Instant;

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Cases per target when `FUZZ_CASES` is not set: enough to catch a
/// regression on every run without slowing the suite.
const DEFAULT_CASES: u32 = 5_000;

/// The longest input made: edits never grow a file past it.
const MOST_BYTES: usize = 64 * 1024;

/// One edit of a corpus file.
#[derive(Clone, Debug)]
enum Edit {
    Set(Index, u8),
    Insert(Index, Vec<u8>),
    Cut(Index, usize),
    Token(Index, Index),
    Repeat(Index, usize, usize),
    Splice(Index, Index, Index),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<Index>(), any::<u8>()).prop_map(|(at, b)| Edit::Set(at, b)),
        (any::<Index>(), proptest::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(at, bytes)| Edit::Insert(at, bytes)),
        (any::<Index>(), 1usize..64).prop_map(|(at, n)| Edit::Cut(at, n)),
        (any::<Index>(), any::<Index>()).prop_map(|(at, t)| Edit::Token(at, t)),
        (any::<Index>(), 1usize..32, 1usize..200)
            .prop_map(|(at, n, times)| Edit::Repeat(at, n, times)),
        (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(at, other, from)| Edit::Splice(at, other, from)),
    ]
}

/// What a target is fed from: its corpus and the tokens of its format.
pub struct Seeds {
    pub corpus: Vec<Vec<u8>>,
    pub tokens: Vec<Vec<u8>>,
    /// The corpus is JSON: a share of the inputs replace one of a file's
    /// values (a leaf or a whole part) with another, so the reader is
    /// reached past the parser as often as at it.
    pub json: bool,
}

/// A value put in place of one of a JSON file's.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{json, Value};
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        any::<u64>().prop_map(|n| json!(n)),
        (-1e12f64..1e12).prop_map(|n| json!(n)),
        prop_oneof![
            Just(0u64),
            Just(1),
            Just(2),
            Just(6),
            Just(7),
            Just(200),
            Just(201),
            Just(u64::from(u32::MAX) + 1)
        ]
        .prop_map(|n| json!(n)),
        "\\PC{0,12}".prop_map(Value::String),
        Just(json!([])),
        Just(json!({})),
    ]
}

/// Every place in `value`, as JSON pointers, parts before their insides.
fn places(value: &serde_json::Value, at: String, out: &mut Vec<String>) {
    out.push(at.clone());
    match value {
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                places(v, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                places(
                    v,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
}

/// `file` with the value at one place replaced (or, if `copy`, by another
/// of its own parts), or unchanged if it is not JSON.
fn replace_value(
    file: &[u8],
    place: Index,
    with: serde_json::Value,
    copy: Option<Index>,
) -> Vec<u8> {
    let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(file) else {
        return file.to_vec();
    };
    let mut all = Vec::new();
    places(&value, String::new(), &mut all);
    let target = all[place.index(all.len())].clone();
    let with = match copy {
        Some(i) => value
            .pointer(&all[i.index(all.len())])
            .cloned()
            .unwrap_or(with),
        None => with,
    };
    match value.pointer_mut(&target) {
        Some(slot) => *slot = with,
        None => return file.to_vec(),
    }
    serde_json::to_vec(&value).unwrap_or_default()
}

impl Seeds {
    /// The committed files of `tests/fuzz/corpus/<target>`, plus `more`
    /// (made by the writers the lab itself uses: the editor's files, the
    /// exports, links the pages write).
    pub fn of(target: &str, tokens: &[&str], more: Vec<Vec<u8>>) -> Seeds {
        Self::read(target, tokens, more, false)
    }

    /// `of`, for a JSON format.
    pub fn json(target: &str, tokens: &[&str], more: Vec<Vec<u8>>) -> Seeds {
        Self::read(target, tokens, more, true)
    }

    fn read(target: &str, tokens: &[&str], more: Vec<Vec<u8>>, json: bool) -> Seeds {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz/corpus")
            .join(target);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a corpus entry").path())
            .collect();
        files.sort();
        let mut corpus: Vec<Vec<u8>> = files
            .iter()
            .map(|f| std::fs::read(f).unwrap_or_else(|e| panic!("{}: {e}", f.display())))
            .collect();
        assert!(!corpus.is_empty(), "{target} has a committed corpus");
        for file in more {
            if !corpus.contains(&file) {
                corpus.push(file);
            }
        }
        Seeds {
            corpus,
            tokens: tokens.iter().map(|t| t.as_bytes().to_vec()).collect(),
            json,
        }
    }

    fn apply(&self, mut bytes: Vec<u8>, edits: &[Edit]) -> Vec<u8> {
        for e in edits {
            let at = |i: &Index, len: usize| i.index(len + 1);
            match e {
                Edit::Set(i, b) => {
                    if !bytes.is_empty() {
                        let n = i.index(bytes.len());
                        bytes[n] = *b;
                    }
                }
                Edit::Insert(i, more) => {
                    let n = at(i, bytes.len());
                    bytes.splice(n..n, more.iter().copied());
                }
                Edit::Cut(i, len) => {
                    let n = at(i, bytes.len());
                    let end = (n + len).min(bytes.len());
                    bytes.drain(n..end);
                }
                Edit::Token(i, t) => {
                    let n = at(i, bytes.len());
                    let token = &self.tokens[t.index(self.tokens.len())];
                    bytes.splice(n..n, token.iter().copied());
                }
                Edit::Repeat(i, len, times) => {
                    let n = at(i, bytes.len());
                    let end = (n + len).min(bytes.len());
                    let piece = bytes[n..end].to_vec();
                    let copies = piece.repeat(*times);
                    bytes.splice(end..end, copies);
                }
                Edit::Splice(i, other, from) => {
                    let n = at(i, bytes.len());
                    let other = &self.corpus[other.index(self.corpus.len())];
                    let from = from.index(other.len() + 1);
                    bytes.truncate(n);
                    bytes.extend_from_slice(&other[from..]);
                }
            }
            bytes.truncate(MOST_BYTES);
        }
        bytes
    }

    /// Inputs: an edited corpus file (most), or made-up bytes.
    fn inputs(&self) -> BoxedStrategy<Vec<u8>> {
        let corpus = self.corpus.clone();
        let me = Seeds {
            corpus: self.corpus.clone(),
            tokens: self.tokens.clone(),
            json: self.json,
        };
        let edited = (any::<Index>(), proptest::collection::vec(edit(), 1..6)).prop_map(
            move |(pick, edits)| {
                let base = corpus[pick.index(corpus.len())].clone();
                me.apply(base, &edits)
            },
        );
        let tokens = self.tokens.clone();
        let made_of_tokens =
            proptest::collection::vec(any::<Index>(), 0..40).prop_map(move |picks| {
                picks
                    .iter()
                    .flat_map(|p| tokens[p.index(tokens.len())].clone())
                    .collect::<Vec<u8>>()
            });
        let corpus = self.corpus.clone();
        let replaced = (
            any::<Index>(),
            proptest::collection::vec(
                (
                    any::<Index>(),
                    json_value(),
                    proptest::option::weighted(0.2, any::<Index>()),
                ),
                1..4,
            ),
        )
            .prop_map(move |(pick, changes)| {
                let mut file = corpus[pick.index(corpus.len())].clone();
                for (place, with, copy) in changes {
                    file = replace_value(&file, place, with, copy);
                }
                file
            });
        let json_share = if self.json { 8 } else { 0 };
        prop_oneof![
            8 => edited,
            json_share => replaced,
            1 => made_of_tokens,
            1 => proptest::collection::vec(any::<u8>(), 0..256),
        ]
        .boxed()
    }
}

/// Cases per target for this run.
pub fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(DEFAULT_CASES)
}

/// Runs `check` on every corpus file, then on `cases()` inputs made from
/// them; prints the figures (seen with `--nocapture`).
pub fn fuzz(target: &str, seeds: &Seeds, check: impl Fn(&[u8]) -> Result<(), TestCaseError>) {
    for (i, file) in seeds.corpus.iter().enumerate() {
        if let Err(e) = check(file) {
            panic!("{target}: corpus file {i} fails: {e}");
        }
    }
    let cases = cases();
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 4096,
        ..Config::default()
    });
    let started = Instant::now();
    let result = runner.run(&seeds.inputs(), |input| {
        check(&input).map_err(|e| {
            TestCaseError::fail(format!(
                "{e}\n  input: {:?}",
                String::from_utf8_lossy(&input)
            ))
        })
    });
    let seconds = started.elapsed().as_secs_f64();
    if let Err(e) = result {
        panic!("{target}: {e}");
    }
    eprintln!(
        "fuzz {target}: {} corpus files, {cases} cases in {seconds:.1} s ({:.0} a second), nothing found",
        seeds.corpus.len(),
        f64::from(cases) / seconds.max(1e-9)
    );
}

/// Fails the case unless `ok`, with `why`.
pub fn ensure(ok: bool, why: impl FnOnce() -> String) -> Result<(), TestCaseError> {
    if ok {
        Ok(())
    } else {
        Err(TestCaseError::fail(why()))
    }
}
