//! Who a work file belongs to: the name and class code a student gives
//! once, kept in the browser and written into every work file they
//! download, so the class page lists them by the name they chose (names
//! come only from the files: the page asks no one and sends nothing).

// Outside input arrives here: no unchecked indexing or arithmetic.
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use crate::design::files::saves::{Store, StoreError};

/// The longest name kept: a full name, with room to spare.
pub const MAX_NAME: usize = 80;
/// The longest class code kept.
pub const MAX_CLASS: usize = 40;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Student {
    pub name: String,
    /// The class code the instructor gave out; empty for a self-learner.
    pub class: String,
}

const NAME_KEY: &str = "partition-lab/student/name";
const CLASS_KEY: &str = "partition-lab/student/class";

impl Student {
    /// A name and class as typed: trimmed, runs of spaces made one, and
    /// refused (with the reason) when empty, too long or not plain text.
    pub fn new(name: &str, class: &str) -> Result<Student, String> {
        let name = tidy(name);
        let class = tidy(class);
        if name.is_empty() {
            return Err("give your name, as your instructor knows you".to_string());
        }
        for (what, text, most) in [
            ("your name", &name, MAX_NAME),
            ("the class code", &class, MAX_CLASS),
        ] {
            if text.chars().count() > most {
                return Err(format!("{what} is longer than {most} characters"));
            }
            if text.chars().any(char::is_control) {
                return Err(format!("{what} holds a character that is not text"));
            }
        }
        Ok(Student { name, class })
    }

    /// What this browser keeps, if the student has given a name.
    pub fn kept(store: &impl Store) -> Option<Student> {
        let name = store.get(NAME_KEY).ok().flatten()?;
        let class = store.get(CLASS_KEY).ok().flatten().unwrap_or_default();
        Student::new(&name, &class).ok()
    }

    /// The class variant of the student this browser keeps: their own
    /// data, which a lab opens on when nothing else is asked for; `None`
    /// without a class code (a name alone moves nothing).
    pub fn kept_class_variant(store: &impl Store) -> Option<crate::variant::Variant> {
        Student::kept(store)
            .filter(|s| !s.class.is_empty())
            .map(|s| s.variant())
    }

    /// Keeps the student in the browser.
    pub fn keep(&self, store: &mut impl Store) -> Result<(), StoreError> {
        store.set(NAME_KEY, &self.name)?;
        store.set(CLASS_KEY, &self.class)
    }

    /// Forgets the name and class (a shared computer).
    pub fn forget(store: &mut impl Store) {
        store.remove(NAME_KEY);
        store.remove(CLASS_KEY);
    }

    /// The student's variant of every lab that has one (SPEC 14): their
    /// class code's and name's, the same on any machine; the chapter's
    /// data without a class code.
    pub fn variant(&self) -> crate::variant::Variant {
        crate::variant::Variant::of_student(&self.class, &self.name)
    }

    /// Whether two files are from the same student: the same name in the
    /// same class, whatever the case and spacing.
    /// A pasted link carries no class code: a name alone matches then.
    pub fn same_as(&self, other: &Student) -> bool {
        let class = |s: &Student| s.class.to_lowercase();
        self.name.to_lowercase() == other.name.to_lowercase()
            && (class(self) == class(other) || self.class.is_empty() || other.class.is_empty())
    }
}

fn tidy(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::files::saves::memory::Memory;

    #[test]
    fn a_student_is_tidied_kept_and_forgotten() {
        let ada = Student::new("  Ada   Lovelace ", " CS 101 ").expect("fine");
        assert_eq!(ada.name, "Ada Lovelace");
        assert_eq!(ada.class, "CS 101");
        let mut store = Memory::with_room(1 << 10);
        assert_eq!(Student::kept(&store), None);
        ada.keep(&mut store).expect("room");
        assert_eq!(Student::kept(&store), Some(ada.clone()));
        assert_eq!(Student::kept_class_variant(&store), Some(ada.variant()));
        // A name alone moves no lab's data.
        let alone = Student::new("Ada Lovelace", "").expect("fine");
        alone.keep(&mut store).expect("room");
        assert_eq!(Student::kept_class_variant(&store), None);
        Student::forget(&mut store);
        assert_eq!(Student::kept(&store), None);
        assert!(ada.same_as(&Student::new("ada lovelace", "cs 101").expect("fine")));
        assert!(!ada.same_as(&Student::new("Ada Lovelace", "CS 102").expect("fine")));
        assert!(ada.same_as(&Student::new("Ada Lovelace", "").expect("fine")));
    }

    #[test]
    fn a_name_that_is_empty_long_or_not_text_is_refused_with_why() {
        for (name, class, why) in [
            ("   ", "", "give your name"),
            (&"x".repeat(MAX_NAME + 1), "", "longer than 80"),
            ("Ada", &"c".repeat(MAX_CLASS + 1), "class code is longer"),
        ] {
            let refused = Student::new(name, class).expect_err(why);
            assert!(refused.contains(why), "{refused}");
        }
        // Whitespace inside is made one space; other control characters stay out.
        assert_eq!(Student::new("A\tB", "").map(|s| s.name), Ok("A B".into()));
        assert!(Student::new("A\u{7}B", "").is_err());
        assert!(Student::new(&"é".repeat(MAX_NAME), "").is_ok());
    }
}
