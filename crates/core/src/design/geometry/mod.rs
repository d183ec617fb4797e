//! Where the canvas draws a design: the automatic layout (`layout`) and
//! the viewport with its pan, zoom and drag gestures (`viewport`).

pub mod layout;
pub mod viewport;
