//! What a file is, before what it says: links, special files, binaries, sizes.

use crate::finding::{Finding, Rule, Severity};
use crate::package::{FileContent, PackageFile};

/// How much of a file is looked at to tell text from binary.
const SNIFF_BYTES: usize = 8192;

/// What a binary file is, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BinaryKind {
    /// A native program or library, or WebAssembly.
    Executable(&'static str),
    /// A compressed archive the scanner does not open.
    Archive(&'static str),
    /// Images, fonts, documents, sound: data a skill ships as an asset.
    Media,
    /// Something else.
    Unknown,
}

/// True when the bytes look like binary data (a NUL byte near the start).
pub(crate) fn is_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(SNIFF_BYTES)].contains(&0)
}

fn is_pe(bytes: &[u8]) -> bool {
    let Some(offset) = bytes.get(0x3c..0x40) else {
        return false;
    };
    let offset = u32::from_le_bytes([offset[0], offset[1], offset[2], offset[3]]) as usize;
    bytes.starts_with(b"MZ") && bytes.get(offset..offset.saturating_add(4)) == Some(b"PE\0\0")
}

/// The kind of a binary file, from its magic number and (for zip-based formats) its name.
pub(crate) fn binary_kind(path: &str, bytes: &[u8]) -> BinaryKind {
    const MEDIA: [&[u8]; 14] = [
        b"\x89PNG",
        b"\xff\xd8\xff",
        b"GIF8",
        b"%PDF",
        b"\0\0\x01\0",
        b"wOFF",
        b"wOF2",
        b"\0\x01\0\0",
        b"OTTO",
        b"ID3",
        b"OggS",
        b"fLaC",
        b"BM",
        b"II*\0",
    ];
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    if bytes.starts_with(b"\x7fELF") {
        return BinaryKind::Executable("ELF program");
    }
    if [
        &b"\xfe\xed\xfa\xce"[..],
        b"\xfe\xed\xfa\xcf",
        b"\xce\xfa\xed\xfe",
        b"\xcf\xfa\xed\xfe",
        b"\xca\xfe\xba\xbe",
    ]
    .iter()
    .any(|m| bytes.starts_with(m))
    {
        return BinaryKind::Executable("Mach-O program (or Java class)");
    }
    if is_pe(bytes) {
        return BinaryKind::Executable("Windows program");
    }
    if bytes.starts_with(b"\0asm") {
        return BinaryKind::Executable("WebAssembly module");
    }
    if bytes.starts_with(b"PK\x03\x04") {
        return match ext.as_str() {
            "docx" | "xlsx" | "pptx" | "odt" | "ods" | "odp" | "epub" => BinaryKind::Media,
            _ => BinaryKind::Archive("zip archive"),
        };
    }
    if bytes.starts_with(b"\x1f\x8b") {
        return BinaryKind::Archive("gzip archive");
    }
    if bytes.starts_with(b"7z\xbc\xaf") || bytes.starts_with(b"Rar!") {
        return BinaryKind::Archive("7z/rar archive");
    }
    let riff_media = bytes.starts_with(b"RIFF");
    let mp4 = bytes.get(4..8) == Some(b"ftyp");
    if riff_media || mp4 || MEDIA.iter().any(|m| bytes.starts_with(m)) {
        return BinaryKind::Media;
    }
    BinaryKind::Unknown
}

/// Reports what a file is; returns the text to scan when it is a text file.
pub(crate) fn check<'a>(
    file: &'a PackageFile,
    oversize_bytes: u64,
    out: &mut Vec<Finding>,
) -> Option<&'a [u8]> {
    let path = file.path.as_str();
    let bytes = match &file.content {
        FileContent::Symlink { target, inside } => {
            out.push(symlink_finding(path, target, *inside));
            return None;
        }
        FileContent::Special { kind } => {
            out.push(Finding::in_file(
                Rule::SpecialFile,
                Severity::High,
                path,
                format!("a {kind} is not a file a skill can ship"),
            ));
            return None;
        }
        FileContent::Unsafe { reason } => {
            out.push(Finding::in_file(
                Rule::UnsafeEntry,
                Severity::High,
                path,
                format!("archive entry refused: {reason}; extracting this archive elsewhere could write outside the package"),
            ));
            return None;
        }
        FileContent::Regular { bytes, .. } => bytes,
    };
    if bytes.len() as u64 > oversize_bytes {
        out.push(Finding::in_file(
            Rule::Oversize,
            Severity::Medium,
            path,
            format!(
                "{} bytes, over the {oversize_bytes}-byte limit for a skill file (scanned anyway)",
                bytes.len()
            ),
        ));
    }
    if !is_binary(bytes) {
        return Some(bytes);
    }
    let (severity, message) = match binary_kind(path, bytes) {
        BinaryKind::Executable(what) => (
            Severity::High,
            format!(
                "a {what}: a skill ships instructions and scripts, and a binary cannot be reviewed"
            ),
        ),
        BinaryKind::Archive(what) => (
            Severity::Medium,
            format!("a {what} inside the package; its contents are not scanned"),
        ),
        BinaryKind::Unknown => (
            Severity::Low,
            "binary data the scanner cannot read".to_owned(),
        ),
        BinaryKind::Media => return None,
    };
    out.push(Finding::in_file(Rule::Binary, severity, path, message));
    None
}

fn symlink_finding(path: &str, target: &str, inside: bool) -> Finding {
    if inside {
        Finding::in_file(
            Rule::Symlink,
            Severity::Low,
            path,
            format!("a symbolic link to `{target}`, inside the package"),
        )
    } else {
        Finding::in_file(
            Rule::Symlink,
            Severity::High,
            path,
            format!(
                "a symbolic link to `{target}`, outside the package: it would expose files the skill does not own"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_numbers() {
        assert_eq!(
            binary_kind("x", b"\x7fELF\x02\x01\x01\0"),
            BinaryKind::Executable("ELF program")
        );
        assert_eq!(
            binary_kind("a.png", b"\x89PNG\r\n\x1a\n\0"),
            BinaryKind::Media
        );
        assert_eq!(binary_kind("t.docx", b"PK\x03\x04\0"), BinaryKind::Media);
        assert_eq!(
            binary_kind("t.zip", b"PK\x03\x04\0"),
            BinaryKind::Archive("zip archive")
        );
        let mut pe = vec![0u8; 0x90];
        pe[..2].copy_from_slice(b"MZ");
        pe[0x3c] = 0x80;
        pe[0x80..0x84].copy_from_slice(b"PE\0\0");
        assert_eq!(
            binary_kind("x.exe", &pe),
            BinaryKind::Executable("Windows program")
        );
        assert_eq!(binary_kind("x", b"MZ"), BinaryKind::Unknown);
    }
}
