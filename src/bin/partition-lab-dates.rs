//! The dates page's part of the site (see `partition_lab::bundles`): one
//! pipeline's dates in every tool.

fn main() {
    partition_lab::ui::start(partition_lab::ui::DatesApp);
}
