//! "Your name on your work": the name and class code a student gives
//! once, kept in this browser and written into every work file they
//! download, so their instructor's class page lists them by it.

use leptos::prelude::*;

use super::storage;
use crate::scenarios::student::{Student, MAX_CLASS, MAX_NAME};

#[component]
pub fn YourName(changed: RwSignal<u32>) -> impl IntoView {
    let kept = RwSignal::new(Student::kept(&storage::Local));
    let name = RwSignal::new(kept.get_untracked().map(|s| s.name).unwrap_or_default());
    let class = RwSignal::new(kept.get_untracked().map(|s| s.class).unwrap_or_default());
    let said = RwSignal::new(None::<Result<String, String>>);
    let bump = move || changed.update(|n| *n = n.wrapping_add(1));
    let keep = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let outcome = Student::new(&name.get_untracked(), &class.get_untracked()).and_then(|s| {
            s.keep(&mut storage::Local)
                .map_err(|e| e.message().to_string())
                .map(|()| s)
        });
        said.set(Some(match outcome {
            Ok(s) => {
                name.set(s.name.clone());
                class.set(s.class.clone());
                kept.set(Some(s));
                bump();
                Ok("Kept: your next downloaded work file carries it.".to_string())
            }
            Err(why) => Err(format!("Not kept: {why}.")),
        }));
    };
    let forget = move |_| {
        Student::forget(&mut storage::Local);
        kept.set(None);
        name.set(String::new());
        class.set(String::new());
        bump();
        said.set(Some(Ok(
            "Forgotten: your work files carry no name.".to_string()
        )));
    };
    view! {
        <form class="your-name" on:submit=keep>
            <fieldset>
                <legend>"Your name on your work"</legend>
                <p class="muted">
                    "If your instructor collects work files, give your name and the class code they gave you: every work file you download carries them, and nothing else sees them (they stay in this browser)."
                </p>
                <p class="field">
                    <label for="student-name">"Your name"</label>
                    <input id="student-name" type="text" autocomplete="name" maxlength=MAX_NAME.to_string()
                        prop:value=move || name.get() on:input=move |ev| name.set(event_target_value(&ev)) />
                </p>
                <p class="field">
                    <label for="student-class">"Class code (if you have one)"</label>
                    <input id="student-class" type="text" autocomplete="off" maxlength=MAX_CLASS.to_string()
                        prop:value=move || class.get() on:input=move |ev| class.set(event_target_value(&ev)) />
                </p>
                <div class="button-row">
                    <button type="submit">"Keep my name"</button>
                    <Show when=move || kept.read().is_some()>
                        <button type="button" on:click=forget>"Forget my name"</button>
                    </Show>
                </div>
                <p role="status">
                    {move || said.get().map(|s| match s {
                        Ok(words) => view! { <span>{words}</span> }.into_any(),
                        Err(words) => view! { <span class="field-error">{words}</span> }.into_any(),
                    })}
                </p>
            </fieldset>
        </form>
    }
}
