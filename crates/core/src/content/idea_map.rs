//! The chapter's ideas in the order they build on each other, with the lab
//! where each one can be tried.

/// One stop on the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Idea {
    pub title: &'static str,
    pub question: &'static str,
    pub ideas: &'static [&'static str],
    /// One line on what its lab will show (or, for the first stop, where it is seen).
    pub shows: &'static str,
    pub lab: Option<(&'static str, &'static str)>,
}

pub const IDEA_MAP: [Idea; 5] = [
    Idea {
        title: "The partition",
        question: "What is the unit I process, rebuild and replace?",
        ideas: &["partition", "partition key", "partition independence", "partition overwrite", "idempotent"],
        shows: "every lab draws its tables as a row of daily boxes; a run's work is the boxes it reads and rewrites.",
        lab: None,
    },
    Idea {
        title: "Doing only the new work",
        question: "How does a run know where the last one stopped, and what happens when it crashes half-way?",
        ideas: &["processing state", "watermark", "partition list", "commit order", "append", "overwrite partition", "merge", "full refresh"],
        shows: "four pipelines replay one week with a late order and a crashed run: one of them loses orders while every usual check passes.",
        lab: Some(("/lab/state-write", "State x Write lab")),
    },
    Idea {
        title: "Data that arrives late",
        question: "How long do I keep a day open, and what does waiting cost?",
        ideas: &["event time vs processing time", "lateness window", "allowed lateness", "finalisation", "adjustments table"],
        shows: "one slider for how long a day stays open, and what it changes: how much of the month arrives in time, how many partitions each night rebuilds, when finance can close.",
        lab: Some(("/lab/lateness", "Allowed-lateness lab")),
    },
    Idea {
        title: "Redoing old work on purpose",
        question: "Which days did the bug really damage, what has to be rebuilt before what, and how many days can run at once without hurting anyone?",
        ideas: &["backfill", "blast radius", "backfill range", "completion marker", "restatement"],
        shows: "the drift query finds the days a currency bug damaged; then a backfill you plan runs, can be interrupted, and ends with the note finance receives.",
        lab: Some(("/lab/backfill", "Currency-bug backfill lab")),
    },
    Idea {
        title: "Designing it yourself",
        question: "Can I put the pieces together so that a real week of faults cannot break them?",
        ideas: &["append-style incremental", "merge-style incremental", "reconcile vs bronze", "historical correctness"],
        shows: "six realistic stretches of data with their faults; you design the pipeline on a canvas and the lab runs it and checks every requirement.",
        lab: Some(("/scenarios", "Six graded scenarios")),
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::glossary::GLOSSARY;

    #[test]
    fn every_idea_on_the_map_is_explained_in_the_glossary() {
        for stop in IDEA_MAP {
            for idea in stop.ideas {
                assert!(
                    GLOSSARY.iter().any(|t| t.term == *idea),
                    "{idea} is on the map but not in the glossary"
                );
            }
        }
    }
}
