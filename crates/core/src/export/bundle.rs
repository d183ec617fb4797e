//! A handful of text files as one uncompressed tar archive (POSIX ustar),
//! which every system's `tar -xf` unpacks. Written by hand: it is a few
//! headers and padding, and a compression crate would cost the bundle far
//! more than the bytes it saves on files this small.

use super::File;

const BLOCK: usize = 512;

fn octal(field: &mut [u8], value: usize) {
    // width-1 digits and a NUL, as ustar wants.
    let width = field.len().saturating_sub(1);
    let text = format!("{value:0width$o}");
    for (slot, byte) in field.iter_mut().zip(text.bytes()) {
        *slot = byte;
    }
}

fn header(path: &str, size: usize) -> Option<[u8; BLOCK]> {
    let name = path.as_bytes();
    if name.len() > 100 {
        return None;
    }
    let mut h = [0u8; BLOCK];
    h.get_mut(..name.len())?.copy_from_slice(name);
    octal(h.get_mut(100..108)?, 0o644);
    octal(h.get_mut(108..116)?, 0);
    octal(h.get_mut(116..124)?, 0);
    octal(h.get_mut(124..136)?, size);
    octal(h.get_mut(136..148)?, 0);
    *h.get_mut(156)? = b'0';
    h.get_mut(257..263)?.copy_from_slice(b"ustar\0");
    h.get_mut(263..265)?.copy_from_slice(b"00");
    // The checksum is computed with its own field as spaces.
    h.get_mut(148..156)?.copy_from_slice(b"        ");
    let sum: usize = h.iter().map(|b| usize::from(*b)).sum();
    let text = format!("{sum:06o}\0 ");
    h.get_mut(148..156)?.copy_from_slice(text.as_bytes());
    Some(h)
}

/// The files under `root/` as a tar archive; `None` if a path is too long.
pub fn tar(root: &str, files: &[File]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for file in files {
        let path = format!("{root}/{}", file.path);
        let body = file.text.as_bytes();
        out.extend_from_slice(&header(&path, body.len())?);
        out.extend_from_slice(body);
        let pad = (BLOCK - body.len() % BLOCK) % BLOCK;
        out.extend(std::iter::repeat_n(0u8, pad));
    }
    out.extend(std::iter::repeat_n(0u8, 2 * BLOCK));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_system_tar_unpacks_what_we_write() {
        let files = vec![
            File::new("a.txt", "hello\n"),
            File::new("models/b.sql", "select 1\n".repeat(100)),
        ];
        let archive = tar("lab", &files).expect("short paths");
        assert_eq!(archive.len() % BLOCK, 0);
        let dir = std::env::temp_dir().join(format!("partition-lab-tar-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("x.tar");
        std::fs::write(&path, &archive).expect("write");
        // The system's tar is the oracle: a machine without one fails here
        // rather than passing with nothing checked.
        let status = std::process::Command::new("tar")
            .arg("-xf")
            .arg(&path)
            .arg("-C")
            .arg(&dir)
            .status()
            .expect("the system's tar, which this test compares with");
        assert!(status.success());
        let back = std::fs::read_to_string(dir.join("lab/models/b.sql")).expect("unpacked");
        assert_eq!(back, files[1].text);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_overlong_path_is_refused_not_cut() {
        assert!(tar("x", &[File::new("y".repeat(120), "z")]).is_none());
    }
}
