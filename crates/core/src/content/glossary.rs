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
    term("backfill concurrency", "How many dates a backfill rebuilds at once. Each holds a source connection for as long as it runs: too few and the backfill misses its deadline, too many and the scheduled runs wait for a connection.", BACKFILL),
    term("backfill range", "The first and last partition a backfill rebuilds. Too short leaves wrong days behind; too long rewrites days that were fine.", BACKFILL),
    term("blast radius", "The set of partitions a defect really corrupted. You find it by asking the data (stored totals against recomputed ones), not the release notes: a bug can sit quiet until an input that triggers it turns up.", BACKFILL),
    term("catch-up", "What a scheduler does after it was down: run every missed run in order (Airflow's catchup=True), or go on with the next one only. A partition list or a watermark catches up by itself; a trailing window needs the scheduler's catch-up.", None),
    term("commit order", "Whether a run records its new processing state after its write or before it. Suppose a run crashes between the two. Saved after, the retry reads and writes the batch again: harmless with an idempotent write, duplicates with append. Saved before, a watermark has moved past rows that were never written, and they are lost for good. A partition list still rebuilds its lookback days and can recover them.", STATE_WRITE),
    term("completion marker", "A record, one per date, written only once that date's rebuild is whole. When a backfill dies part-way, its re-run reads the markers and skips the dates already done. In Airflow, a backfill's completed runs play this part.", BACKFILL),
    term("event time vs processing time", "Two clocks for every row: the moment the thing happened, and the moment the pipeline first saw it. Lateness is the distance between them.", LATENESS),
    term("finalisation", "Closing a partition for good once its allowed lateness has run out: no later run rewrites it, and whatever still arrives is booked as an adjustment (or dropped). It is what lets finance sign a month off.", LATENESS),
    term("full refresh", "Rebuilding the whole table from the source on every run. Nothing to remember and it heals itself, but each run reads all of history.", STATE_WRITE),
    term("historical correctness", "Past partitions showing what today's, fixed logic would have produced for them, rather than what a buggy version once wrote.", BACKFILL),
    term("idempotent", "Safe to repeat: running the same step twice leaves the same result as running it once. Every retry, re-run and backfill relies on it.", STATE_WRITE),
    term("incremental processing", "Giving each run only the slice that is new or changed since the one before, never the whole table, so what a run costs follows the day's volume rather than the table's age.", STATE_WRITE),
    term("late-arriving data", "Rows that reach the pipeline after the run for their own day has already happened, such as a purchase from a phone that was offline.", LATENESS),
    term("lateness window", "The run's own day plus its lookback days: the partitions still open, which a partition-list run rebuilds every night. A row for Monday that arrives on Tuesday reaches Monday because Monday is still inside it.", STATE_WRITE),
    term("layer order", "A backfill rebuilds a date's silver before its gold, since gold is summed from silver: gold started with or before its silver sums the old rows.", BACKFILL),
    term("lookback", "The number of days before its own day that a partition-list run re-reads and rewrites on every run.", STATE_WRITE),
    term("merge", "A write mode keyed on a column: a batch row whose key is already in the table updates that row, any other is inserted. A real MERGE (and dbt's merge) updates a matched row whatever its age, and refuses two batch rows for one key. So the lab's exports keep the newest version per key and let only a newer version win, as the lab's own merge does.", STATE_WRITE),
    term("merge key", "The column a merge matches rows on. For records that change it is the record's business key (the order id), not the id of one change: matched on the change id, every change becomes a row of its own.", STATE_WRITE),
    term("merge-style incremental", "An incremental pipeline for records that keep changing (orders, accounts): each run picks up the changes since a watermark and merges them on the record's key.", STATE_WRITE),
    term("overwrite partition", "A write mode that replaces each partition it touches wholesale with the rows just read for it. Idempotent, but only as complete as what the run read.", STATE_WRITE),
    term("partition", "A slice of a table stored on its own, here one day of rows (dt), which a job can read, rebuild or swap out while its neighbours stay untouched.", STATE_WRITE),
    term("partition independence", "The guarantee that rebuilding or replacing one partition leaves every other partition exactly as it was.", BACKFILL),
    term("partition key", "The column whose value decides which partition a row lives in, typically the event's date.", STATE_WRITE),
    term("partition list", "Processing state kept as the set of dates already completed; a run handles its own day, any date not yet done and its lookback days.", STATE_WRITE),
    term("partition overwrite", "Swapping one partition's contents for a freshly computed set in a single step. Doing it twice gives the same partition, which is why re-processing a day this way is safe.", STATE_WRITE),
    term("partition pruning", "A query engine skipping every partition its filter rules out, so asking about yesterday reads only yesterday.", None),
    term("partition reprocess", "Rebuilding one past day's partition so that rows which showed up late are in it: a backfill one day long.", LATENESS),
    term("partition-scoped reprocess", "A rebuild that goes partition by partition and replaces each one whole, so at any moment a day holds either all-old or all-new rows, never a mix.", BACKFILL),
    term("processing state", "What an incremental pipeline writes down about how far it has got: a watermark or a list of finished partitions.", STATE_WRITE),
    term("reconcile vs bronze", "Comparing each partition's row count and total with the raw source. It is the check that notices rows that quietly went missing, and the one most teams do not have.", STATE_WRITE),
    term("replace table", "A write mode that swaps the entire table for the rows just read; what a full refresh does. It rewrites final partitions too.", STATE_WRITE),
    term("restatement", "Republishing a figure because its meaning changed or it was wrong, with history rebuilt to agree. The hard part is the people who relied on the old figure; the backfill is the mechanical part.", BACKFILL),
    term("source pool", "The fixed number of connections the source system allows at once, shared by a backfill and the scheduled runs: while the backfill holds them all, tonight's run waits.", BACKFILL),
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
