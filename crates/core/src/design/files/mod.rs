//! A design outside the page: the versioned JSON file format (`json`,
//! read and written only through `file`), share links (`link`) and the
//! saves in browser storage (`saves`). A new file format goes here.

pub mod file;
mod json;
pub mod link;
pub mod saves;
