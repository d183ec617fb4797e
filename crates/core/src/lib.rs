//! The pure logic over the engine: each lab's model and view models
//! (`labs`), the canvas's design model (`design`), the graded scenarios
//! (`scenarios`), the tutor that explains a check's verdict (`tutor`), a
//! class's work graded again for its instructor (`class`), the
//! exports to real tools (`export`), every choice's
//! words (`vocabulary`), shared teaching text (`content`), how a link
//! is read (`address`) and the seed that moves a lab's numbers (`variant`). No web crate
//! is in this crate's tree: the web app draws what these return.

pub mod address;
pub mod class;
pub mod content;
pub mod counted;
pub mod design;
pub mod export;
pub mod labs;
pub mod scenarios;
pub mod tool;
pub mod tutor;
pub mod variant;
pub mod vocabulary;

// The layers below, under the names every module here uses.
pub use partition_lab_engine as engine;
pub use partition_lab_lean as lean;
