//! Share links: a design carried in the URL as URL-safe base64 of its
//! JSON file, read back through the same distrustful importer.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use thiserror::Error;

use crate::design::files::file::{export, import, DesignFile, ImportError, MAX_BYTES};
use crate::design::graph::Graph;

#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LinkError {
    #[error("the link is cut short or altered: its design could not be decoded")]
    NotDecodable,
    #[error("the link's design is not text")]
    NotText,
    #[error(transparent)]
    Import(#[from] ImportError),
}

/// The `design=` value for a share link.
pub fn encode(graph: &Graph, scenario: Option<u8>) -> String {
    URL_SAFE_NO_PAD.encode(export(graph, scenario))
}

/// The link that opens `graph` on its scenario's page (`query`, say
/// `?present=1`, before the fragment), or, for a design too large for a
/// link any host keeps whole, what to do instead.
pub fn share_link(
    origin: &str,
    graph: &Graph,
    scenario: u8,
    query: &str,
) -> Result<String, String> {
    let link = format!(
        "{origin}/scenarios/{scenario}{query}#design={}",
        encode(graph, Some(scenario))
    );
    let length = link.chars().count();
    if length > crate::address::LONGEST_LINK {
        return Err(format!(
            "This design is too large to share as a link ({} characters; many hosts and chat apps cut links over {}): download it as a file instead.",
            crate::counted::grouped(length),
            crate::counted::grouped(crate::address::LONGEST_LINK)
        ));
    }
    Ok(link)
}

/// The longest `design=` value a largest allowed file encodes to.
const LONGEST_VALUE: usize = MAX_BYTES / 3 * 4 + 4;

/// Reads a `design=` value; nothing is trusted.
pub fn decode(value: &str) -> Result<DesignFile, LinkError> {
    // Base64 is 4/3 of the bytes; refuse before decoding anything huge.
    if value.len() > LONGEST_VALUE {
        return Err(LinkError::Import(ImportError::TooLarge(
            (value.len() / 4).saturating_mul(3) / 1024,
        )));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(value.trim())
        .map_err(|_| LinkError::NotDecodable)?;
    let text = String::from_utf8(bytes).map_err(|_| LinkError::NotText)?;
    Ok(import(&text)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::design::{Edit, History, NodeConfig, NodeKind};

    #[test]
    fn a_design_survives_a_share_link() {
        let mut h = History::new(Graph::with_source("bronze.orders"));
        h.edit(&Edit::Add {
            config: NodeConfig::default_for(NodeKind::Transform),
            x: 5,
            y: 5,
        })
        .expect("add");
        let link = encode(&h.current, Some(2));
        assert!(
            link.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "URL-safe: {link}"
        );
        let back = decode(&link).expect("decodes");
        assert_eq!(back.graph, h.current);
        assert_eq!(back.scenario, Some(2));
    }

    #[test]
    fn no_share_link_is_longer_than_the_lab_makes() {
        let mut h = History::new(Graph::with_source("bronze.orders"));
        let small = share_link("https://lab.example", &h.current, 3, "?present=1")
            .expect("a small design has a link");
        assert!(small.starts_with("https://lab.example/scenarios/3?present=1#design="));
        let value = small
            .split_once("#design=")
            .map(|(_, v)| v)
            .expect("a value");
        assert_eq!(decode(value).map(|f| f.graph), Ok(h.current.clone()));
        let mut n = 0;
        while export(&h.current, Some(3)).len() < crate::address::LONGEST_LINK {
            n += 1;
            h.edit(&Edit::Add {
                config: NodeConfig::default_for(NodeKind::Transform),
                x: 5 + n * 40,
                y: 5,
            })
            .expect("add");
        }
        let why =
            share_link("https://lab.example", &h.current, 3, "").expect_err("too long for a link");
        assert!(why.contains("download it as a file"), "{why}");
        assert!(why.contains("over 8,192"), "{why}");
    }

    #[test]
    fn tampered_links_are_refused_with_a_reason() {
        let link = encode(&Graph::with_source("bronze.orders"), None);
        assert_eq!(decode("%%%"), Err(LinkError::NotDecodable));
        assert_eq!(
            decode(&URL_SAFE_NO_PAD.encode([0xff, 0xfe, 0x00])),
            Err(LinkError::NotText)
        );
        assert!(decode(&link[..link.len() / 2]).is_err());
        assert!(matches!(
            decode(&"A".repeat(MAX_BYTES * 2)),
            Err(LinkError::Import(ImportError::TooLarge(_)))
        ));
    }
}
