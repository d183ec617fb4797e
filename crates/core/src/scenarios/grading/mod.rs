//! What a check does with a design in a scenario: it grades it (`grade`,
//! each rule's judge in `judge`), runs a designed backfill (`backfilled`),
//! replays silver (`replay`), finds the smallest case that still fails
//! (`shrink`), and says so (`report`, and `panel`, the check panel's words).

pub mod backfilled;
pub mod grade;
pub mod judge;
pub mod panel;
pub mod replay;
pub mod report;
pub mod shrink;
