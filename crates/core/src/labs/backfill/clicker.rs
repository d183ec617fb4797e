//! What a clicker's PageDown does next in the backfill lab, as a room
//! walks through it: the question, its answer, the run, the failover, the
//! re-run. Where the story has nothing left to do, it moves on a section.

use super::query::Ran;
use super::query::MAX_RUNS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cue {
    /// Bring the prediction to the room.
    Ask,
    /// Lock in the room's guess, entered by key, and show the drift query.
    Reveal,
    /// The question is out but no answer is entered: say how to enter
    /// one (a clicker never skips the room's prediction).
    Answer,
    /// Start the backfill.
    Run,
    /// The source fails over under the run.
    Interrupt,
    /// Start it again after the interruption.
    Resume,
    /// Let the run under way finish at once.
    Finish,
    /// Nothing left in the story: the next section.
    Section,
}

/// Where the lab stands, as the clicker sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage<'a> {
    /// The question has been put to the room.
    pub asked: bool,
    /// An answer is ticked, not yet locked in.
    pub chosen: bool,
    pub predicted: bool,
    pub running: bool,
    /// The runs that have ended, oldest first.
    pub ran: &'a [Ran],
}

/// The next step: predict, reveal, run, interrupt, resume, then the rest
/// of the page. A run after an interruption is not interrupted again.
pub fn next(stage: Stage) -> Cue {
    let interrupted_before = stage.ran.iter().any(|r| matches!(r, Ran::InterruptedAt(_)));
    match stage {
        Stage {
            predicted: false,
            asked: false,
            ..
        } => Cue::Ask,
        Stage {
            predicted: false,
            chosen: true,
            ..
        } => Cue::Reveal,
        Stage {
            predicted: false, ..
        } => Cue::Answer,
        Stage { running: true, .. } if interrupted_before => Cue::Finish,
        Stage { running: true, .. } => Cue::Interrupt,
        Stage { ran, .. } if ran.len() >= MAX_RUNS => Cue::Section,
        Stage { ran: [], .. } => Cue::Run,
        Stage {
            ran: [.., Ran::InterruptedAt(_)],
            ..
        } => Cue::Resume,
        _ => Cue::Section,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lesson as a room sees it: every PageDown moves the story on,
    /// and the page's own state after each is what the next one reads. The
    /// room's answer comes by key after the question: until then PageDown
    /// says so, and never skips it.
    #[test]
    fn page_down_walks_predict_reveal_run_interrupt_resume() {
        let mut ran: Vec<Ran> = Vec::new();
        let (mut asked, mut chosen, mut predicted, mut running) = (false, false, false, false);
        let mut cues = Vec::new();
        for _ in 0..9 {
            let cue = next(Stage {
                asked,
                chosen,
                predicted,
                running,
                ran: &ran,
            });
            cues.push(cue);
            match cue {
                Cue::Ask => asked = true,
                // The presenter presses a key for the room's answer.
                Cue::Answer => chosen = true,
                Cue::Reveal => predicted = true,
                Cue::Run | Cue::Resume => running = true,
                Cue::Interrupt => {
                    running = false;
                    ran.push(Ran::InterruptedAt(7));
                }
                Cue::Finish => {
                    running = false;
                    ran.push(Ran::ToTheEnd);
                }
                Cue::Section => {}
            }
        }
        use Cue::*;
        assert_eq!(
            cues,
            [Ask, Answer, Reveal, Run, Interrupt, Resume, Finish, Section, Section]
        );
    }

    #[test]
    fn a_link_opened_after_the_reveal_goes_straight_to_the_run() {
        let stage = |ran: &'static [Ran], running| Stage {
            asked: false,
            chosen: false,
            predicted: true,
            running,
            ran,
        };
        assert_eq!(next(stage(&[], false)), Cue::Run);
        assert_eq!(next(stage(&[Ran::ToTheEnd], false)), Cue::Section);
        assert_eq!(next(stage(&[Ran::InterruptedAt(3)], false)), Cue::Resume);
        let full: Vec<Ran> = vec![Ran::InterruptedAt(1); MAX_RUNS];
        assert_eq!(
            next(Stage {
                ran: &full,
                ..stage(&[], false)
            }),
            Cue::Section,
            "no run beyond what the address keeps"
        );
    }
}
