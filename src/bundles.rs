//! The app ships as five wasm bundles, one per part of the site: the labs
//! (the overview, the State x Write and backfill labs, the lesson plan),
//! the lateness lab, the scenarios (the list, the canvas, the grader) and
//! the dates page (one pipeline's dates in every tool, a reference a lab
//! links to) and the class page (an instructor's: a class's work files
//! graded again, with its tables and gradebook: no page a student opens
//! waits for it; the service worker fetches it later, for offline use,
//! like every part). A page loads only its part, so each stays well inside the
//! bundle budget and a first visit downloads only what its page runs: the
//! lateness lab, the page a student is most often sent to from a phone,
//! loads without the other labs' tables and project writers, the grader or
//! the dates page's five tools. Moving between parts is an ordinary page
//! load (drawn ahead of time, so it paints at once); within a part the
//! router moves without one. The static server (`tests/e2e/serve.mjs`),
//! the service worker (`src/offline/sw.template.js`) and the hosting rules
//! in the README map paths to pages the same way; `tests/e2e/shell.test.mjs`
//! holds them to it.

/// Which part of the site serves a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundle {
    Labs,
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
        } else {
            Bundle::Labs
        }
    }

    /// The page that loads this part.
    pub fn html(self) -> &'static str {
        match self {
            Bundle::Labs => "/index.html",
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
    fn each_part_serves_its_own_paths_and_the_labs_the_rest() {
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
        for path in [
            "/",
            "",
            "/dates/2",
            "/datesx",
            "/lab/latenessx",
            "/lab/lateness/2",
            "/lab/state-write",
            "/lab/backfill",
            "/teach",
            "/scenariosx",
            "/classx",
            "/class/2",
            "/lab/scenarios",
            "/nowhere",
        ] {
            assert_eq!(Bundle::of(path), Bundle::Labs, "{path}");
        }
    }
}
