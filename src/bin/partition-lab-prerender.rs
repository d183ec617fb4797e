//! Draws every page ahead of time into a build (`scripts/build` runs it
//! after Trunk): for each address a link can open, the page the app would
//! draw there, in its part's built page, written to `at/<path>.html`, and
//! the `_redirects` file that sends each path to its page, and the
//! `_headers` file that starts each page's wasm with its response.
//!   partition-lab-prerender <dist>

use std::path::Path;

use partition_lab::bundles::Bundle;
use partition_lab::ui::ahead;

fn main() {
    let Some(dist) = std::env::args().nth(1) else {
        eprintln!("usage: partition-lab-prerender <dist>");
        std::process::exit(2);
    };
    let dist = Path::new(&dist);
    let mut written = 0;
    let mut bytes = 0;
    let mut wasm = Vec::new();
    for path in ahead::addresses() {
        let shell = Bundle::of(&path).html().trim_start_matches('/');
        let template = std::fs::read_to_string(dist.join(shell)).unwrap_or_else(|e| {
            eprintln!("prerender: cannot read {shell}: {e}");
            std::process::exit(1);
        });
        let preloaded = ahead::preloaded_wasm(&template).unwrap_or_else(|e| {
            eprintln!("prerender: {shell}: {e}");
            std::process::exit(1);
        });
        wasm.push((path.clone(), preloaded));
        let page = ahead::page(&template, &path).unwrap_or_else(|e| {
            eprintln!("prerender: {e}");
            std::process::exit(1);
        });
        let file = dist.join(ahead::file_of(&path));
        let written_ok = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&file, &page));
        if let Err(e) = written_ok {
            eprintln!("prerender: cannot write {}: {e}", file.display());
            std::process::exit(1);
        }
        written += 1;
        bytes += page.len();
    }
    for (name, rules) in [
        ("_redirects", ahead::redirects()),
        ("_headers", ahead::headers(&wasm)),
    ] {
        if let Err(e) = std::fs::write(dist.join(name), rules) {
            eprintln!("prerender: cannot write {name}: {e}");
            std::process::exit(1);
        }
    }
    println!(
        "prerender: {written} pages drawn ahead, {bytes} bytes; _redirects and _headers for hosts that read them"
    );
}
