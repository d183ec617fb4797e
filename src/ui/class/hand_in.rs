//! Where the class's work comes in: work files (chosen or dropped, many
//! at once) and pasted share links. Each file is read as the student's own
//! restore reads it; one that is not a work file, is damaged or too large
//! is listed with its reason and the rest carry on.

use leptos::prelude::*;

use super::{Class, Given};
use crate::class::intake;
use crate::class::Skipped;
use crate::scenarios::work::MAX_BYTES;
use crate::ui::storage;

/// Reads `files` one after another and hands each in (or skips it).
pub(super) async fn read_files(class: Class, files: Vec<web_sys::File>) {
    for file in files {
        let name = file.name();
        if file.size() > MAX_BYTES as f64 {
            class.skip(Skipped {
                from: name,
                why: format!(
                    "it is {} KB; a work file is at most {} KB",
                    (file.size() / 1024.0).ceil(),
                    MAX_BYTES / 1024
                ),
                line: None,
            });
            continue;
        }
        let text = storage::file_text(&file).await;
        match intake::file(&name, text.as_deref()) {
            Ok(submission) => class.hand_in(submission),
            Err(skipped) => class.skip(skipped),
        }
    }
}

fn listed(files: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    let Some(files) = files else {
        return Vec::new();
    };
    (0..files.length()).filter_map(|i| files.get(i)).collect()
}

fn nothing_pasted() -> Skipped {
    Skipped {
        from: "the pasted links".to_string(),
        why: "there was nothing to read: paste one link per line".to_string(),
        line: None,
    }
}

/// Reads the share links in `text`, hands in what it read (under the
/// class's `code`, when there is one) and gives back the lines it could
/// not read, to stay in the box to be fixed and sent again.
pub(super) fn read_links(class: Class, text: &str, code: &str) -> String {
    let (submissions, skipped) = intake::links(text);
    // With the class's code each named student is graded on their own
    // data, whatever data their link names.
    let class_code = code.trim();
    let submissions: Vec<_> = submissions
        .into_iter()
        .map(|s| {
            if class_code.is_empty() {
                s
            } else {
                s.in_class(class_code)
            }
        })
        .collect();
    if submissions.is_empty() && skipped.is_empty() {
        class.skip(nothing_pasted());
    }
    let left: Vec<&str> = text
        .lines()
        .enumerate()
        .filter(|(i, _)| skipped.iter().any(|s| s.line == Some(i + 1)))
        .map(|(_, l)| l)
        .collect();
    for s in skipped {
        class.skip(s);
    }
    for s in submissions {
        class.hand_in(s);
    }
    left.join("\n")
}

#[component]
pub fn HandIn(class: Class) -> impl IntoView {
    let on_files = move |ev: leptos::ev::Event| {
        use wasm_bindgen::JsCast;
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let files = listed(input.files());
        // Cleared, so choosing the same files again is a change too.
        input.set_value("");
        class.take(Given::Files(files));
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        class.take(Given::Files(listed(
            ev.data_transfer().and_then(|t| t.files()),
        )));
    };
    let pasted = RwSignal::new(String::new());
    let code = RwSignal::new(String::new());
    let add_links = move |_| {
        let text = pasted.get_untracked();
        // Said at once, with or without the grader.
        if text.trim().is_empty() {
            class.skip(nothing_pasted());
            return;
        }
        class.take(Given::Links {
            text,
            code: code.get_untracked(),
            left: pasted,
        });
    };
    view! {
        <div
            class="drop-zone"
            on:dragover=move |ev: leptos::ev::DragEvent| ev.prevent_default()
            on:drop=on_drop
        >
            <label for="class-files">"Choose the students' work files (or drop them here, many at once)"</label>
            <input id="class-files" type="file" multiple accept=".json,application/json" on:change=on_files />
        </div>
        <details class="paste">
            <summary>"Or paste share links"</summary>
            <label for="class-links">
                "One share link per line, with the student's name on the same line (\"Ada Lovelace, https://…/scenarios/2#design=…\", or a form's spreadsheet rows): a student's links make one row, and a second link for the same scenario a row of its own. Lines that cannot be read stay here to be fixed."
            </label>
            <textarea
                id="class-links"
                rows="6"
                spellcheck="false"
                prop:value=move || pasted.get()
                on:input=move |ev| pasted.set(event_target_value(&ev))
            ></textarea>
            <label for="class-links-code">
                "Class code (optional): each named student's links are then graded on their own data, as their page checked it, whatever data a link names. Without it, a link is graded on the data it names."
            </label>
            <input
                id="class-links-code"
                type="text"
                maxlength=crate::scenarios::student::MAX_CLASS.to_string()
                prop:value=move || code.get()
                on:input=move |ev| code.set(event_target_value(&ev))
            />
            <button type="button" on:click=add_links>"Grade these links"</button>
        </details>
        // Said once per change in a line; the list itself is not re-read.
        <p class="visually-hidden" role="status">
            {move || match class.skipped.read().len() {
                0 => String::new(),
                n => format!("{} not graded; the list says why.", crate::counted::counted(n, "file or line")),
            }}
        </p>
        <Show when=move || !class.skipped.read().is_empty()>
            <div class="notice warning">
                <p>"Not graded (the rest of the class is):"</p>
                <ul>
                    {move || class.skipped.get().into_iter().map(|s| view! {
                        <li><strong>{s.from}</strong> ": " {s.why}</li>
                    }).collect_view()}
                </ul>
            </div>
        </Show>
    }
}
