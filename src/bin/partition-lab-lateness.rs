//! The lateness lab's part of the site (see `partition_lab::bundles`): the
//! page a first visit most often opens, so it loads nothing else.

fn main() {
    partition_lab::ui::start(partition_lab::ui::LatenessApp);
}
