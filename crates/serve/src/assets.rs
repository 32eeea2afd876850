//! The page, script and style sheet, compiled into the binary.

pub(crate) const INDEX_HTML: &str = include_str!("../assets/index.html");
pub(crate) const APP_JS: &str = include_str!("../assets/app.js");
pub(crate) const STYLE_CSS: &str = include_str!("../assets/style.css");
