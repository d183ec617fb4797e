//! A class's work on the instructor's screen: the students' work files
//! and share links read (`intake`), every design graded again in the
//! browser, never trusting a verdict a file carries (`mark`), the class's
//! tallies and a row per student (`results`), and the table a gradebook
//! imports (`gradebook`). Nothing here sends anything anywhere: the
//! names are the ones the files give.

pub mod gradebook;
pub mod intake;
pub mod mark;
pub mod results;

use crate::scenarios::student::Student;
use crate::scenarios::work::Work;

/// One student's work as it arrived: a work file, or the share links
/// pasted under one name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Where it came from, as the page names it: the file's name, or
    /// "links on lines 3, 7".
    pub from: String,
    /// Who it says it is from; `None` for a file or link without a name.
    pub student: Option<Student>,
    pub works: Vec<Work>,
}

impl Submission {
    /// The name the page lists it under.
    pub fn name(&self) -> String {
        listed_as(self.student.as_ref(), &self.from)
    }

    /// The data its design for `scenario` names: its share link's
    /// `variant=`, or the variant its work file says it was made on.
    fn named(&self, scenario: u8) -> Option<crate::variant::Variant> {
        self.works
            .iter()
            .find(|w| w.scenario == scenario)
            .and_then(|w| w.variant)
    }

    /// The variant its design for `scenario` is graded in: its student's
    /// own (class code and name), as their page checked it; for a student
    /// with no class code, the one its link or file names (a self-learner's
    /// fresh data); else the chapter's. Neither overrides a class code's
    /// own data, so a design made on other data cannot pass for the
    /// student's.
    pub fn variant(&self, scenario: u8) -> crate::variant::Variant {
        match &self.student {
            Some(s) if !s.class.is_empty() => s.variant(),
            _ => self.named(scenario).unwrap_or_default(),
        }
    }

    /// Whether its link or file for `scenario` named other data than the
    /// data it is graded on (said in the row's notes).
    pub fn linked_elsewhere(&self, scenario: u8) -> bool {
        // As the scenario reads each: any variant is the chapter's data in
        // a scenario no variant moves.
        let read = |v| crate::scenarios::numbered(scenario).map_or(v, |s| s.variant(v));
        self.named(scenario)
            .is_some_and(|v| read(v) != read(self.variant(scenario)))
    }

    /// The same links as handed in by a class whose code is `class`: each
    /// named student is graded on their own data.
    pub fn in_class(mut self, class: &str) -> Submission {
        if let Some(s) = &self.student {
            if s.class.is_empty() {
                self.student = Student::new(&s.name, class).ok().or(self.student);
            }
        }
        self
    }
}

/// The name a submission is listed under: its student's, or where it came
/// from when it names none.
pub fn listed_as(student: Option<&Student>, from: &str) -> String {
    match student {
        Some(s) => s.name.clone(),
        None => format!("(no name) {from}"),
    }
}

/// Something handed in that is not read, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub from: String,
    pub why: String,
    /// The pasted line it was, so the page can give it back to be fixed.
    pub line: Option<usize>,
}
