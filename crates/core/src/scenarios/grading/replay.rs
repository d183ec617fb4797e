//! Silver as it stood after each run, rebuilt from the runs' recorded
//! writes (ids added and removed per partition). Grading replays this
//! instead of asking the engine for a full snapshot after every run, which
//! keeps a check well inside the browser's time budget.

use crate::lean::sorted::SortedMap;

use rustc_hash::FxHashMap as HashMap;

use crate::engine::calendar::Day;
use crate::engine::event::Id;
use crate::engine::trace::RunTrace;

/// Row ids per partition, with multiplicity.
#[derive(Clone, Debug, Default)]
pub struct Silver {
    pub partitions: SortedMap<Day, HashMap<Id, usize>>,
}

impl Silver {
    /// Applies what `run` wrote.
    pub fn apply(&mut self, run: &RunTrace) {
        for write in &run.writes {
            let part = self.partitions.entry(write.dt).or_default();
            for id in &write.removed {
                if let Some(n) = part.get_mut(id) {
                    *n -= 1;
                    if *n == 0 {
                        part.remove(id);
                    }
                }
            }
            for id in &write.added {
                *part.entry(id.clone()).or_insert(0) += 1;
            }
        }
    }

    /// Every id in silver, counted across partitions.
    pub fn counts(&self) -> HashMap<&str, usize> {
        let mut counts = HashMap::default();
        for part in self.partitions.values() {
            for (id, n) in part {
                *counts.entry(id.as_ref()).or_insert(0) += n;
            }
        }
        counts
    }

    pub fn partition(&self, dt: Day) -> Option<&HashMap<Id, usize>> {
        self.partitions.get(&dt)
    }
}
