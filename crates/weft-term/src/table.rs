//! Aligned columns. Widths count characters, cells are two spaces apart, and the last
//! column is never padded (no trailing spaces). Cells come from files and servers weft did
//! not write: control characters are shown visibly and line breaks become spaces, so no cell
//! can break the layout or drive the terminal.

use std::borrow::Cow;

use crate::neutral::neutralise;

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
    layout(Some(header), rows)
}

/// [`table`] fitted to `width` characters: when the rows are wider, the widest columns are
/// narrowed first (never below 8 characters or the header; the first column, which
/// names the row, only when the others cannot give enough) and cells longer than
/// their column are [cut](crate::cut) with `…`. `None` (output to a pipe) keeps every cell
/// whole.
///
/// ```
/// use weft_term::fit_table;
///
/// let rows = vec![vec!["pdf".to_owned(), "Extract text and tables from PDF files".to_owned()]];
/// assert_eq!(
///     fit_table(&["NAME", "DESCRIPTION"], &rows, Some(30)),
///     "NAME  DESCRIPTION\npdf   Extract text and tables…\n"
/// );
/// assert_eq!(fit_table(&["NAME", "DESCRIPTION"], &rows, None), weft_term::table(&["NAME", "DESCRIPTION"], &rows));
/// ```
pub fn fit_table(header: &[&str], rows: &[Vec<String>], width: Option<usize>) -> String {
    match width {
        None => table(header, rows),
        Some(width) => table(header, &fit(Some(header), rows, width)),
    }
}

/// [`columns`] fitted to `width` as [`fit_table`] fits a table (the first column cut last);
/// `None` keeps every cell whole.
///
/// ```
/// use weft_term::fit_columns;
///
/// let rows = vec![vec!["  read_file".to_owned(), "Reads a file of the workspace".to_owned()]];
/// assert_eq!(fit_columns(&rows, Some(30)), "  read_file  Reads a file of …\n");
/// assert_eq!(fit_columns(&rows, None), weft_term::columns(&rows));
/// ```
pub fn fit_columns(rows: &[Vec<String>], width: Option<usize>) -> String {
    match width {
        None => columns(rows),
        Some(width) => columns(&fit(None, rows, width)),
    }
}

/// `rows` with their cells cut so that the laid-out lines (under `header`, when there is one)
/// fit `width`.
fn fit(header: Option<&[&str]>, rows: &[Vec<String>], width: usize) -> Vec<Vec<String>> {
    // Measured as they will be shown.
    let rows: Vec<Vec<String>> = rows
        .iter()
        .map(|r| r.iter().map(|c| clean(c).into_owned()).collect())
        .collect();
    let count = header.map_or_else(|| rows.iter().map(Vec::len).max().unwrap_or(0), <[_]>::len);
    let heading = |i: usize| {
        header
            .and_then(|h| h.get(i))
            .map_or(0, |h| h.chars().count())
    };
    let mut widths: Vec<usize> = (0..count).map(heading).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let floors: Vec<usize> = (0..count).map(|i| heading(i).max(MIN_COLUMN)).collect();
    let gaps = 2 * widths.len().saturating_sub(1);
    // The first column names the row (a skill, an agent): it is cut only when cutting the
    // others is not enough.
    for first in [1, 0] {
        while widths.iter().sum::<usize>() + gaps > width {
            // The widest column that may still shrink (the rightmost of equals: descriptions).
            let Some(widest) = (first..widths.len())
                .filter(|&i| widths[i] > floors[i])
                .max_by_key(|&i| (widths[i], i))
            else {
                break;
            };
            widths[widest] -= 1;
        }
    }
    rows.iter()
        .map(|row| {
            row.iter()
                .zip(&widths)
                .map(|(cell, &w)| {
                    if cell.chars().count() > w {
                        crate::cut(cell, w)
                    } else {
                        cell.clone()
                    }
                })
                .collect()
        })
        .collect()
}

/// The narrowest a column is made by [`fit_table`] and [`fit_columns`].
pub const MIN_COLUMN: usize = 8;

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
    layout(None, rows)
}

/// A cell as it is laid out: one line (a line end, CR-LF included, or a tab is a space),
/// nothing a terminal would obey.
fn clean(cell: &str) -> Cow<'_, str> {
    if cell.contains(['\n', '\t']) {
        let one_line = cell.replace("\r\n", " ").replace(['\n', '\t'], " ");
        Cow::Owned(neutralise(&one_line).into_owned())
    } else {
        neutralise(cell)
    }
}

/// The cells of one laid-out table: each cleaned and measured once, in one list (`ends[r]`
/// is where row `r` ends), so a listing of thousands of rows allocates per cell that needs
/// cleaning, not per row.
#[derive(Default)]
struct Cells<'a> {
    cells: Vec<(Cow<'a, str>, usize)>,
    ends: Vec<usize>,
}

impl<'a> Cells<'a> {
    fn push_row(&mut self, row: impl Iterator<Item = &'a str>) {
        for cell in row {
            let cell = clean(cell);
            let chars = cell.chars().count();
            self.cells.push((cell, chars));
        }
        self.ends.push(self.cells.len());
    }

    fn rows(&self) -> impl Iterator<Item = &[(Cow<'a, str>, usize)]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.cells[start..end])
    }
}

/// `rows` (under `header`, whose length then bounds each row) as aligned columns.
fn layout(header: Option<&[&str]>, rows: &[Vec<String>]) -> String {
    let limit = header.map_or(usize::MAX, <[_]>::len);
    let mut cells = Cells {
        cells: Vec::with_capacity(rows.len().saturating_add(1).saturating_mul(limit.min(8))),
        ends: Vec::with_capacity(rows.len() + 1),
    };
    if let Some(header) = header {
        cells.push_row(header.iter().copied());
    }
    for row in rows {
        cells.push_row(row.iter().take(limit).map(String::as_str));
    }
    let cols = cells.rows().map(<[_]>::len).max().unwrap_or(0);
    let mut widths = vec![0; cols];
    for row in cells.rows() {
        for (width, (_, chars)) in widths.iter_mut().zip(row) {
            *width = (*width).max(*chars);
        }
    }
    let line_bytes: usize = widths.iter().sum::<usize>() + 2 * cols + 1;
    let mut out = String::with_capacity(line_bytes.saturating_mul(cells.ends.len()));
    for row in cells.rows() {
        let start = out.len();
        for (i, (cell, chars)) in row.iter().enumerate() {
            out.push_str(cell);
            if i + 1 < row.len() {
                let pad = widths[i].saturating_sub(*chars) + 2;
                out.extend(std::iter::repeat_n(' ', pad));
            }
        }
        // Trailing blanks (an empty last cell, or the cell's own) are dropped.
        let kept = out[start..].trim_end().len();
        out.truncate(start + kept);
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
        let hostile = vec![vec![
            "a\x1b[2Jb".to_owned(),
            "two\nlines\r\nend\r".to_owned(),
        ]];
        assert_eq!(columns(&hostile), "a\\x1b[2Jb  two lines end\\x0d\n");
    }

    #[test]
    fn fitting_narrows_the_widest_column_and_never_below_the_floor() {
        let rows = vec![
            vec![
                "a-rather-long-skill-name".to_owned(),
                "project".to_owned(),
                "A description that goes on and on".to_owned(),
            ],
            vec!["x".to_owned(), "user".to_owned(), "Short".to_owned()],
        ];
        let header = ["NAME", "SCOPE", "DESCRIPTION"];
        for width in [20, 40, 50, 60, 80] {
            let out = fit_table(&header, &rows, Some(width));
            let widest = out.lines().map(|l| l.chars().count()).max().unwrap();
            // 8 (NAME floor) + 2 + 7 (SCOPE: its cells are shorter than the floor) + 2
            // + 11 (DESCRIPTION's header) is the narrowest possible line.
            assert!(widest <= width.max(30), "{width}: {out}");
            assert!(out.lines().all(|l| l == l.trim_end()), "{out}");
        }
        assert_eq!(
            fit_table(&header, &rows, Some(50)),
            "NAME                      SCOPE    DESCRIPTION\n\
             a-rather-long-skill-name  project  A description …\n\
             x                         user     Short\n"
        );
    }

    #[test]
    fn columns_without_a_header_fit_the_same_way() {
        let rows = vec![
            vec![
                "✓".to_owned(),
                "skills".to_owned(),
                "3 skills; 1 error".to_owned(),
            ],
            vec![
                "!".to_owned(),
                "agent models".to_owned(),
                "explorer: haiku runs on openai/gpt-4.1".to_owned(),
            ],
            vec!["-".to_owned(), "mcp".to_owned()],
        ];
        assert_eq!(
            fit_columns(&rows, Some(40)),
            "✓  skills        3 skills; 1 error\n\
             !  agent models  explorer: haiku runs o…\n\
             -  mcp\n"
        );
        assert_eq!(fit_columns(&rows, Some(200)), columns(&rows));
        assert_eq!(fit_columns(&[], Some(10)), "");
    }
}
