//! The app ships as three wasm bundles, one per part of the site: the labs
//! (the overview, the three labs, the lesson plan), the scenarios (the
//! list, the canvas, the grader) and the dates page (one pipeline's dates
//! in every tool, a reference a lab links to). A page loads only its part,
//! so each stays well inside the bundle budget: the lateness lab loads
//! without the grader or the dates page's five tools. Moving between parts
//! is an ordinary page load; within a part the router moves without one. The static server (`tests/e2e/serve.mjs`),
//! the service worker (`src/offline/sw.template.js`) and the hosting rules
//! in the README map paths to pages the same way; `tests/e2e/shell.test.mjs`
//! holds them to it.

/// Which half of the site serves a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundle {
    Labs,
    Scenarios,
    Dates,
}

impl Bundle {
    pub fn of(path: &str) -> Bundle {
        let path = path.trim_end_matches('/');
        if path == "/scenarios" || path.starts_with("/scenarios/") {
            Bundle::Scenarios
        } else if path == "/dates" {
            Bundle::Dates
        } else {
            Bundle::Labs
        }
    }

    /// The page that loads this half.
    pub fn html(self) -> &'static str {
        match self {
            Bundle::Labs => "/index.html",
            Bundle::Scenarios => "/scenarios.html",
            Bundle::Dates => "/dates.html",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenario_paths_and_only_they_load_the_scenarios_half() {
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
        for path in [
            "/",
            "",
            "/dates/2",
            "/datesx",
            "/lab/lateness",
            "/teach",
            "/scenariosx",
            "/lab/scenarios",
            "/nowhere",
        ] {
            assert_eq!(Bundle::of(path), Bundle::Labs, "{path}");
        }
    }
}
