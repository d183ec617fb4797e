//! Every term the chapter defines, plus the few the labs add, in our words.

/// One glossary entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    pub term: &'static str,
    pub meaning: &'static str,
    /// Where in the app the idea can be tried, if anywhere.
    pub try_it: Option<&'static str>,
}

const fn term(term: &'static str, meaning: &'static str, try_it: Option<&'static str>) -> Term {
    Term {
        term,
        meaning,
        try_it,
    }
}

const STATE_WRITE: Option<&str> = Some("/lab/state-write");
const LATENESS: Option<&str> = Some("/lab/lateness");
const BACKFILL: Option<&str> = Some("/lab/backfill");

/// Alphabetical, so the page and a reader's eye agree on the order.
pub const GLOSSARY: &[Term] = &[
    term("adjustments table", "Where rows that turn up after their partition is final get booked instead, dated in the period they arrived, so a closed month stays closed and the money is still counted once.", LATENESS),
    term("allowed lateness", "How many days after a partition's own day the pipeline keeps reopening it for stragglers. Longer waits catch more late rows and keep more partitions in flux.", LATENESS),
    term("append", "A write mode that adds the rows it read to the table and removes nothing. Re-reading the same rows therefore stores them twice.", STATE_WRITE),
    term("append-style incremental", "An incremental pipeline for data that never changes once written (clicks, readings): each run adds the newest slice of time.", STATE_WRITE),
    term("backfill", "Deliberately running a pipeline over dates in the past, either to fill history for a new table or to repair history after a bug.", BACKFILL),
    term("backfill range", "The first and last partition a backfill rebuilds. Too short leaves wrong days behind; too long rewrites days that were fine.", BACKFILL),
    term("blast radius", "The partitions a bug really damaged. Find it by comparing the data with its source, not by trusting the deploy date: a bug may need a particular input before it shows.", BACKFILL),
    term("commit order", "Whether a run saves its processing state after its write (a crash between the two makes the retry redo the write) or before it (a crash skips the write for good).", STATE_WRITE),
    term("completion marker", "A small per-date record written once a partition's rebuild has fully finished, so a backfill that is killed half-way can resume instead of starting over.", BACKFILL),
    term("event time vs processing time", "When something happened versus when the pipeline got to see it. Late data is exactly the gap between the two.", LATENESS),
    term("finalisation", "Declaring a partition closed once its lateness window has passed; after that no run may change it, which is what lets finance sign off a month.", LATENESS),
    term("full refresh", "Rebuilding the whole table from the source on every run. Nothing to remember and it heals itself, but each run reads all of history.", STATE_WRITE),
    term("historical correctness", "Past partitions showing what today's, fixed logic would have produced for them, rather than what a buggy version once wrote.", BACKFILL),
    term("idempotent", "Safe to repeat: running the same step twice leaves the same result as running it once. Every retry, re-run and backfill relies on it.", STATE_WRITE),
    term("incremental processing", "Each run handles only what is new or changed since the last one instead of all of history, so run time tracks the day's volume, not the table's age.", STATE_WRITE),
    term("late-arriving data", "Rows that reach the pipeline after the run for their own day has already happened, such as a purchase from a phone that was offline.", LATENESS),
    term("lateness window", "The trailing partitions every run rebuilds (its own day plus the lookback days). It is how a Monday event that arrives on Tuesday still lands in Monday.", STATE_WRITE),
    term("lookback", "The number of days before its own day that a partition-list run re-reads and rewrites on every run.", STATE_WRITE),
    term("merge", "A write mode that upserts on a key: a row whose key already exists replaces the stored version if it is newer, otherwise it is inserted. Repeating a merge changes nothing.", STATE_WRITE),
    term("merge-style incremental", "An incremental pipeline for records that keep changing (orders, accounts): each run picks up the changes since a watermark and merges them on the record's key.", STATE_WRITE),
    term("overwrite partition", "A write mode that replaces each partition it touches wholesale with the rows just read for it. Idempotent, but only as complete as what the run read.", STATE_WRITE),
    term("partition", "One independently stored slice of a table, almost always one day of data, that can be read, rebuilt or replaced without touching its neighbours.", STATE_WRITE),
    term("partition independence", "The guarantee that rebuilding or replacing one partition leaves every other partition exactly as it was.", BACKFILL),
    term("partition key", "The column whose value decides which partition a row lives in, typically the event's date.", STATE_WRITE),
    term("partition list", "Processing state kept as the set of dates already completed; a run handles its own day, any date not yet done and its lookback days.", STATE_WRITE),
    term("partition overwrite", "Replacing a single partition in one go, which makes re-processing that day a clean, repeatable swap.", STATE_WRITE),
    term("partition pruning", "A query engine skipping every partition its filter rules out, so asking about yesterday reads only yesterday.", None),
    term("partition reprocess", "Rebuilding one past partition to take in rows that arrived late: a one-day backfill.", LATENESS),
    term("partition-scoped reprocess", "Rebuilding history one partition at a time, each replaced whole, so every day is either entirely old or entirely new.", BACKFILL),
    term("processing state", "What an incremental pipeline writes down about how far it has got: a watermark or a list of finished partitions.", STATE_WRITE),
    term("reconcile vs bronze", "Comparing each partition's row count and total with the raw source. It is the check that notices rows that quietly went missing, and the one most teams do not have.", STATE_WRITE),
    term("replace table", "A write mode that swaps the entire table for the rows just read; what a full refresh does. It rewrites final partitions too.", STATE_WRITE),
    term("restatement", "Changing what a published number means or fixing it, and rebuilding its history to match. Mostly a matter of telling the people who rely on it; the backfill is the easy part.", BACKFILL),
    term("watermark", "Processing state kept as the highest value of a column (such as arrival time) seen so far; the next run reads only rows above it.", STATE_WRITE),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glossary_is_alphabetical_without_repeats() {
        for pair in GLOSSARY.windows(2) {
            assert!(
                pair[0].term < pair[1].term,
                "{} before {}",
                pair[0].term,
                pair[1].term
            );
        }
    }

    #[test]
    fn every_term_the_chapter_defines_is_in_the_glossary() {
        let chapter_terms = [
            "partition",
            "incremental processing",
            "backfill",
            "late-arriving data",
            "partition key",
            "partition independence",
            "partition pruning",
            "partition overwrite",
            "append-style incremental",
            "merge-style incremental",
            "processing state",
            "full refresh",
            "partition-scoped reprocess",
            "backfill range",
            "historical correctness",
            "event time vs processing time",
            "allowed lateness",
            "partition reprocess",
            "finalisation",
            "blast radius",
            "lateness window",
            "restatement",
            "completion marker",
        ];
        for wanted in chapter_terms {
            assert!(
                GLOSSARY.iter().any(|t| t.term == wanted),
                "missing {wanted}"
            );
        }
    }
}
