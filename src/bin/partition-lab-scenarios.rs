//! The scenarios half of the site (see `partition_lab::bundles`): the list,
//! each scenario's canvas and its grader.

fn main() {
    console_error_panic_hook::set_once();
    let reading = partition_lab::ui::browser::take_over();
    leptos::mount::mount_to_body(partition_lab::ui::ScenariosApp);
    if let Some(reading) = reading {
        reading.resume();
    }
    partition_lab::ui::offline::register();
}
