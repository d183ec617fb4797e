//! A generated month's setting as a project to download and run on a real
//! tool: the room's project for the page's profile and lateness, made when
//! the link is wanted (it carries the month, about 2 MB).

use leptos::prelude::*;

use crate::export::lateness_lab::runnable;
use crate::tool::Tool;

use super::Lab;
use crate::ui::download::DownloadOnDemand;

#[component]
pub fn Project(tool: Tool) -> impl IntoView {
    let lab = expect_context::<Lab>();
    let inputs = Memo::new(move |_| {
        let s = lab.settings.read();
        (s.profile, s.lateness)
    });
    view! {
        <p>
            <DownloadOnDemand
                inputs=inputs
                make=move |(profile, lateness): &(_, _)| runnable(tool, *profile, *lateness)
                mime="application/x-tar"
            >
                {format!("Download it as a runnable {} project (the month, a replay of its nightly runs, a README)", tool.name())}
            </DownloadOnDemand>
        </p>
    }
}
