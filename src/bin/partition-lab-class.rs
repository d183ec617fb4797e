//! The class page's part of the site (see `partition_lab::bundles`): an
//! instructor's page, so no page a student opens waits for its wasm.

fn main() {
    partition_lab::ui::start(partition_lab::ui::ClassApp);
}
