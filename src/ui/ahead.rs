//! Pages drawn ahead of time: each address a link can open, drawn natively
//! by the same components the browser runs, so the browser can paint the
//! page from its first response, before the wasm has arrived.

use leptos::prelude::*;

use super::{BackfillApp, ClassApp, DatesApp, HomeApp, LatenessApp, ScenariosApp, StateWriteApp};
use crate::bundles::Bundle;

/// Every address a link can open, with its default state (no query).
pub fn addresses() -> Vec<String> {
    let mut out: Vec<String> = [
        "/",
        "/lab/state-write",
        "/lab/lateness",
        "/lab/backfill",
        "/teach",
        "/scenarios",
        "/dates",
        "/class",
    ]
    .iter()
    .map(|p| (*p).to_string())
    .collect();
    out.extend(
        crate::scenarios::SCENARIOS
            .iter()
            .map(|s| format!("/scenarios/{}", s.number)),
    );
    out
}

/// Runs no task: a page drawn ahead of time is its first state, and
/// anything it waits for (a fetch, a timer) is the browser's to do.
struct NoTasks;

impl any_spawner::CustomExecutor for NoTasks {
    fn spawn(&self, _: any_spawner::PinnedFuture<()>) {}
    fn spawn_local(&self, _: any_spawner::PinnedLocalFuture<()>) {}
    fn poll_local(&self) {}
}

/// Where the page drawn for `path` is written in the build: `at/` and the
/// path, `.html` added (`/` is `at/index.html`). Hosts serve it for the
/// path (README); the service worker keeps it for offline visits.
pub fn file_of(path: &str) -> String {
    match path.trim_end_matches('/') {
        "" => "at/index.html".to_string(),
        p => format!("at{p}.html"),
    }
}

/// `template` (one part's built page) with `path`'s page drawn into it:
/// its title, and its body marked as drawn ahead (`ahead`) with the
/// line that says the lab is starting. The live page replaces the body
/// when its wasm starts (`browser::take_over`).
pub fn page(template: &str, path: &str) -> Result<String, String> {
    let (title, body) = draw(path);
    let title = super::html::escape(&title);
    let blank = "<title>Partition Lab</title>";
    if !template.contains(blank) {
        return Err(format!("{path}: the template has no {blank}"));
    }
    let titled = template.replacen(blank, &format!("<title>{title}</title>"), 1);
    let (head, rest) = titled
        .split_once("<body>")
        .ok_or_else(|| format!("{path}: the template has no <body>"))?;
    let (kept, tail) = rest
        .split_once("</body>")
        .ok_or_else(|| format!("{path}: the template has no </body>"))?;
    Ok(format!(
        "{head}<body class=\"ahead\">{kept}{body}\n<p class=\"starting\" role=\"status\">{STARTING}</p>\n<script src=\"/starting.js\" defer></script>\n</body>{tail}"
    ))
}

/// The rules a host that reads a `_redirects` file (Netlify) is given:
/// each drawn page for its path, forced (`200!`: `/` and the halves' own
/// paths have a file of their own, which an unforced rule never beats),
/// then each part's page for the rest of its paths (the README's rules).
pub fn redirects() -> String {
    let mut out = String::new();
    for path in addresses() {
        let to = format!("/{}", file_of(&path));
        out.push_str(&format!("{path:<16} {to:<28} 200!\n"));
        if path != "/" {
            out.push_str(&format!("{:<16} {to:<28} 200!\n", format!("{path}/")));
        }
    }
    out.push_str(
        "/scenarios/*     /scenarios.html              200\n\
         /*               /index.html                  200\n",
    );
    out
}

/// The address of the wasm a part's built page preloads (the one
/// `<link rel="preload" ... type="application/wasm">` Trunk writes in its
/// head).
pub fn preloaded_wasm(template: &str) -> Result<String, String> {
    let found: Vec<&str> = template
        .split("<link ")
        .skip(1)
        .filter_map(|tag| tag.split('>').next())
        .filter(|tag| tag.contains("rel=\"preload\"") && tag.contains("type=\"application/wasm\""))
        .collect();
    let [tag] = found.as_slice() else {
        return Err(format!("{} wasm preload links, not one", found.len()));
    };
    tag.split_once("href=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(href, _)| href.to_string())
        // A path on this site, and nothing that would end the header's
        // `<…>` or its line early.
        .filter(|href| {
            href.starts_with('/')
                && !href.starts_with("//")
                && href.ends_with(".wasm")
                && !href.contains(|c: char| c.is_whitespace() || "<>;,\\".contains(c))
        })
        .ok_or_else(|| format!("a wasm preload link without a path on this site: <link {tag}>"))
}

/// The headers a host that reads a `_headers` file (Netlify, Cloudflare
/// Pages) sends with each drawn page: a `Link` that starts its wasm's
/// download with the response. The page's own preload link starts it only
/// once the browser has parsed the head, the stylesheet in it: on the
/// phone profile 0.05 to 0.2 s later (README). `wasm` is each address's,
/// as its part's built page preloads it.
pub fn headers(wasm: &[(String, String)]) -> String {
    let mut out = String::new();
    for (path, href) in wasm {
        let link = format!(
            "  Link: <{href}>; rel=preload; as=fetch; crossorigin=anonymous; type=\"application/wasm\"\n"
        );
        out.push_str(&format!("{path}\n{link}"));
        if path != "/" {
            out.push_str(&format!("{path}/\n{link}"));
        }
    }
    out
}

/// What a page drawn ahead says until its controls work.
pub const STARTING: &str = "Starting the lab: its controls work in a moment (it runs in your browser, with JavaScript and WebAssembly).";

/// A page as drawn at `path`: its title and the markup of its body.
pub fn draw(path: &str) -> (String, String) {
    // Set once per process; a second call finds it set, which is as good.
    let _ = any_spawner::Executor::init_custom_executor(NoTasks);
    super::route::draw_at(path, "");
    super::page::forget_title();
    // Drawn once, nothing reacts: the warnings that a signal was read
    // outside a reactive scope would only be noise here.
    let _quiet = leptos::reactive::diagnostics::SpecialNonReactiveZone::enter();
    let owner = Owner::new();
    owner.with(|| {
        let body = match Bundle::of(path) {
            Bundle::Home => view! { <HomeApp /> }.to_html(),
            Bundle::StateWrite => view! { <StateWriteApp /> }.to_html(),
            Bundle::Backfill => view! { <BackfillApp /> }.to_html(),
            Bundle::Lateness => view! { <LatenessApp /> }.to_html(),
            Bundle::Scenarios => view! { <ScenariosApp /> }.to_html(),
            Bundle::Dates => view! { <DatesApp /> }.to_html(),
            Bundle::Class => view! { <ClassApp /> }.to_html(),
        };
        (super::page::title(), body)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of the element whose start tag `from` is inside (from
    /// within that tag to its end tag), for markup as Leptos writes it.
    fn text_of_element(from: &str) -> String {
        const VOID: [&str; 6] = ["input", "br", "img", "hr", "meta", "link"];
        let mut rest = from.split_once('>').map_or("", |(_, r)| r);
        let (mut depth, mut text) = (1, String::new());
        while depth > 0 {
            let Some((before, tag)) = rest.split_once('<') else {
                break;
            };
            text.push_str(before);
            let Some((tag, after)) = tag.split_once('>') else {
                break;
            };
            rest = after;
            let name = tag
                .trim_start_matches('/')
                .split_whitespace()
                .next()
                .unwrap_or("");
            if tag.starts_with('!') || VOID.contains(&name) {
                continue;
            }
            depth += if tag.starts_with('/') { -1 } else { 1 };
        }
        text
    }

    #[test]
    fn every_address_draws_its_page() {
        assert_eq!(text_of_element("<p role=\"alert\"><!></p><p>after</p>"), "");
        assert_eq!(
            text_of_element("<div role=\"alert\"><p>Full <b>disk</b></p></div>x"),
            "Full disk"
        );
        for path in addresses() {
            let (title, body) = draw(&path);
            println!("{path}: {title} ({} bytes)", body.len());
            assert_eq!(body.matches("<main").count(), 1, "{path}");
            assert_eq!(body.matches("<h1").count(), 1, "{path}");
            assert!(title.ends_with("Partition Lab"), "{path}: {title}");
            assert!(!body.contains("in another part of the lab"), "{path}");
            // Nothing alarming that only the native drawing would say: an
            // alert's place may be there, empty, as on the live page.
            for (at, _) in body.match_indices("role=\"alert\"") {
                let said = text_of_element(&body[at..]);
                assert!(said.trim().is_empty(), "{path}: an alert says {said}");
            }
            assert!(body.len() < 100_000, "{path}: {} bytes", body.len());
        }
    }

    #[test]
    fn a_page_is_its_template_with_the_drawn_body_and_title() {
        let template = "<html><head><title>Partition Lab</title></head><body>\n<noscript>x</noscript>\n</body></html>";
        let drawn = page(template, "/lab/lateness").expect("a template");
        assert!(drawn.contains("<title>Allowed-lateness lab · Partition Lab</title>"));
        assert!(drawn.contains("<body class=\"ahead\">\n<noscript>x</noscript>\n<a href=\"#main\" class=\"skip-link\">"));
        assert!(drawn.contains("<h1 id=\"lateness-title\">Allowed-lateness lab</h1>"));
        assert!(drawn.ends_with("<script src=\"/starting.js\" defer></script>\n</body></html>"));
        assert!(page("<html></html>", "/").is_err());
        assert!(page(
            "<html><head><title>Other</title></head><body></body></html>",
            "/"
        )
        .is_err());
        assert_eq!(file_of("/"), "at/index.html");
        assert_eq!(file_of("/scenarios/3"), "at/scenarios/3.html");
        assert_eq!(file_of("/lab/lateness/"), "at/lab/lateness.html");
        let rules = redirects();
        assert!(rules.starts_with("/                /at/index.html               200!\n"));
        assert!(rules.contains("/scenarios/3/    /at/scenarios/3.html         200!\n"));
        assert!(rules.ends_with("/*               /index.html                  200\n"));
    }

    #[test]
    fn the_hosts_headers_start_each_drawn_pages_own_wasm() {
        let built = "<head><link rel=\"modulepreload\" href=\"/a.js\"><link rel=\"preload\" href=\"/a_bg.wasm\" crossorigin=\"anonymous\" as=\"fetch\" type=\"application/wasm\"></head>";
        assert_eq!(preloaded_wasm(built).as_deref(), Ok("/a_bg.wasm"));
        assert!(
            preloaded_wasm("<head><link rel=\"modulepreload\" href=\"/a.js\"></head>").is_err()
        );
        assert!(preloaded_wasm(&built.replace(
            "</head>",
            "<link rel=\"preload\" href=\"/b.wasm\" type=\"application/wasm\"></head>"
        ))
        .is_err());
        for elsewhere in [
            "https://elsewhere/a.wasm",
            "//elsewhere/a.wasm",
            "/a>; rel=x.wasm",
            "/a\n.wasm",
        ] {
            assert!(
                preloaded_wasm(&built.replace("/a_bg.wasm", elsewhere)).is_err(),
                "{elsewhere}"
            );
        }
        let lines = headers(&[
            ("/".into(), "/a_bg.wasm".into()),
            ("/dates".into(), "/d_bg.wasm".into()),
        ]);
        assert_eq!(
            lines,
            "/\n  Link: </a_bg.wasm>; rel=preload; as=fetch; crossorigin=anonymous; type=\"application/wasm\"\n\
             /dates\n  Link: </d_bg.wasm>; rel=preload; as=fetch; crossorigin=anonymous; type=\"application/wasm\"\n\
             /dates/\n  Link: </d_bg.wasm>; rel=preload; as=fetch; crossorigin=anonymous; type=\"application/wasm\"\n"
        );
    }
}
