//! The State x Write lab's part of the site (see `partition_lab::bundles`):
//! the chapter's way in, so it loads no other lab.

fn main() {
    partition_lab::ui::start(partition_lab::ui::StateWriteApp);
}
