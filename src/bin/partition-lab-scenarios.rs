//! The scenarios part of the site (see `partition_lab::bundles`): the list,
//! each scenario's canvas and its grader.

fn main() {
    partition_lab::ui::start(partition_lab::ui::ScenariosApp);
}
