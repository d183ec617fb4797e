//! The lateness lab's part of the site (see `partition_lab::bundles`): the
//! page a first visit most often opens, so it loads nothing else.

fn main() {
    console_error_panic_hook::set_once();
    let reading = partition_lab::ui::browser::take_over();
    leptos::mount::mount_to_body(partition_lab::ui::LatenessApp);
    if let Some(reading) = reading {
        reading.resume();
    }
    partition_lab::ui::offline::register();
}
