//! The app ships as seven wasm bundles, one per part of the site: the home
//! part (the overview, the lesson plan and any address no other part
//! serves), the State x Write lab, the backfill lab, the lateness lab, the
//! scenarios (the list, the canvas, the grader), the dates page (one
//! pipeline's dates in every tool, a reference a lab links to) and the
//! class page (an instructor's: a class's work files graded again, with
//! its tables and gradebook: no page a student opens waits for it). A page
//! loads only its part, so a first visit downloads only what its page runs,
//! and on a phone the download is most of the wait before a page answers
//! (README, the first-load figures): the overview loads no lab, State x
//! Write no backfill, the backfill lab no State x Write week, the lateness
//! lab none of the other labs' tables and project writers. The service
//! worker fetches every part later, for offline use. Moving between parts
//! is an ordinary page load (drawn ahead of time, so it paints at once);
//! within a part the router moves without one. The static server
//! (`tests/e2e/serve.mjs`), the service worker (`src/offline/sw.template.js`)
//! and the hosting rules in the README map paths to pages the same way;
//! `tests/e2e/shell.test.mjs` holds them to it.

/// Which part of the site serves a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundle {
    Home,
    StateWrite,
    Backfill,
    Lateness,
    Scenarios,
    Dates,
    Class,
}

impl Bundle {
    pub fn of(path: &str) -> Bundle {
        let path = path.trim_end_matches('/');
        if path == "/scenarios" || path.starts_with("/scenarios/") {
            Bundle::Scenarios
        } else if path == "/dates" {
            Bundle::Dates
        } else if path == "/class" {
            Bundle::Class
        } else if path == "/lab/lateness" {
            Bundle::Lateness
        } else if path == "/lab/state-write" {
            Bundle::StateWrite
        } else if path == "/lab/backfill" {
            Bundle::Backfill
        } else {
            Bundle::Home
        }
    }

    /// The page that loads this part.
    pub fn html(self) -> &'static str {
        match self {
            Bundle::Home => "/index.html",
            Bundle::StateWrite => "/state-write.html",
            Bundle::Backfill => "/backfill.html",
            Bundle::Lateness => "/lateness.html",
            Bundle::Scenarios => "/scenarios.html",
            Bundle::Dates => "/dates.html",
            Bundle::Class => "/class.html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_part_serves_its_own_paths_and_home_the_rest() {
        for path in [
            "/scenarios",
            "/scenarios/",
            "/scenarios/4",
            "/scenarios/nine",
        ] {
            assert_eq!(Bundle::of(path), Bundle::Scenarios, "{path}");
        }
        for path in ["/dates", "/dates/"] {
            assert_eq!(Bundle::of(path), Bundle::Dates, "{path}");
        }
        for path in ["/class", "/class/"] {
            assert_eq!(Bundle::of(path), Bundle::Class, "{path}");
        }
        for path in ["/lab/lateness", "/lab/lateness/"] {
            assert_eq!(Bundle::of(path), Bundle::Lateness, "{path}");
        }
        for path in ["/lab/state-write", "/lab/state-write/"] {
            assert_eq!(Bundle::of(path), Bundle::StateWrite, "{path}");
        }
        for path in ["/lab/backfill", "/lab/backfill/"] {
            assert_eq!(Bundle::of(path), Bundle::Backfill, "{path}");
        }
        for path in [
            "/",
            "",
            "/dates/2",
            "/datesx",
            "/lab/latenessx",
            "/lab/lateness/2",
            "/lab/state-writex",
            "/lab/backfill/2",
            "/teach",
            "/scenariosx",
            "/classx",
            "/class/2",
            "/lab/scenarios",
            "/nowhere",
        ] {
            assert_eq!(Bundle::of(path), Bundle::Home, "{path}");
        }
    }
}
