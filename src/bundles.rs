//! The app ships as two wasm bundles, one per half of the site: the labs
//! (the overview, the three labs, the lesson plan) and the scenarios (the
//! list, the canvas, the grader). A page loads only its half, so each stays
//! well inside the bundle budget and the lateness lab loads without the
//! grader. Moving between halves is an ordinary page load; within a half
//! the router moves without one. The static server (`tests/e2e/serve.mjs`),
//! the service worker (`src/offline/sw.template.js`) and the hosting rules
//! in the README map paths to pages the same way; `tests/e2e/shell.test.mjs`
//! holds them to it.

/// Which half of the site serves a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bundle {
    Labs,
    Scenarios,
}

impl Bundle {
    pub fn of(path: &str) -> Bundle {
        let path = path.trim_end_matches('/');
        if path == "/scenarios" || path.starts_with("/scenarios/") {
            Bundle::Scenarios
        } else {
            Bundle::Labs
        }
    }

    /// The page that loads this half.
    pub fn html(self) -> &'static str {
        match self {
            Bundle::Labs => "/index.html",
            Bundle::Scenarios => "/scenarios.html",
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
        for path in [
            "/",
            "",
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
