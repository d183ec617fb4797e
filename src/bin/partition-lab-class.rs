//! The class page's part of the site (see `partition_lab::bundles`): an
//! instructor's page, so no student's first visit downloads it.

fn main() {
    partition_lab::ui::start(partition_lab::ui::ClassApp);
}
