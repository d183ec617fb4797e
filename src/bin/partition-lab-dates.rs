//! The dates page's part of the site (see `partition_lab::bundles`): one
//! pipeline's dates in every tool.

fn main() {
    console_error_panic_hook::set_once();
    let reading = partition_lab::ui::browser::take_over();
    leptos::mount::mount_to_body(partition_lab::ui::DatesApp);
    if let Some(reading) = reading {
        reading.resume();
    }
    partition_lab::ui::offline::register();
}
