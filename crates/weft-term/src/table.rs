//! Aligned columns. Widths count characters, cells are two spaces apart, and the last
//! column is never padded (no trailing spaces).

/// Rows as aligned columns under a header.
///
/// ```
/// use weft_term::table;
///
/// let rows = vec![
///     vec!["explore".to_owned(), "Read-only".to_owned()],
///     vec!["default".to_owned(), "General".to_owned()],
/// ];
/// assert_eq!(
///     table(&["NAME", "DESCRIPTION"], &rows),
///     "NAME     DESCRIPTION\nexplore  Read-only\ndefault  General\n"
/// );
/// ```
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let all: Vec<Vec<&str>> = std::iter::once(header.to_vec())
        .chain(
            rows.iter()
                .map(|r| r.iter().take(header.len()).map(String::as_str).collect()),
        )
        .collect();
    layout(&all)
}

/// Rows as aligned columns, without a header.
///
/// ```
/// use weft_term::columns;
///
/// let rows = vec![
///     vec!["a".to_owned(), "long".to_owned(), "x".to_owned()],
///     vec!["bbb".to_owned(), "s".to_owned(), "y".to_owned()],
/// ];
/// assert_eq!(columns(&rows), "a    long  x\nbbb  s     y\n");
/// ```
pub fn columns(rows: &[Vec<String>]) -> String {
    let all: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| r.iter().map(String::as_str).collect())
        .collect();
    layout(&all)
}

fn layout(rows: &[Vec<&str>]) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < row.len() {
                let pad = widths[i].saturating_sub(cell.chars().count()) + 2;
                line.extend(std::iter::repeat_n(' ', pad));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_cells_and_wide_characters_align_by_characters() {
        let rows = vec![
            vec!["é".to_owned(), String::new(), "z".to_owned()],
            vec!["ab".to_owned(), "c".to_owned(), String::new()],
        ];
        assert_eq!(
            table(&["A", "B", "C"], &rows),
            "A   B  C\né      z\nab  c\n"
        );
        assert_eq!(columns(&[]), "");
    }
}
