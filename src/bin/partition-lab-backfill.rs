//! The backfill lab's part of the site (see `partition_lab::bundles`): the
//! currency bug, its plan and the plan's commands.

fn main() {
    partition_lab::ui::start(partition_lab::ui::BackfillApp);
}
