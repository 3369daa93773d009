//! Diagnostics: what went wrong, where (byte span, resolved to line and column
//! against the source), and which operation of the expression it concerns.

use crate::ast::Span;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Note,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Index of the operation in its expression (0-based), when the problem is one operation's.
    pub op_index: Option<usize>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            op_index: None,
            notes: Vec::new(),
        }
    }
    pub fn at_op(mut self, index: usize) -> Diagnostic {
        self.op_index = Some(index);
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if let Some(i) = self.op_index {
            write!(f, " (operation #{i})")?;
        }
        Ok(())
    }
}

/// A named source text, for turning spans into line:column and carets.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
}

impl Source {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Source {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(l) => l,
            Err(l) => l - 1,
        };
        let start = self.line_starts[line];
        let col = self
            .text
            .get(start..offset)
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// The text of a 1-based line, without its newline.
    pub fn line_text(&self, line: usize) -> &str {
        let start = self
            .line_starts
            .get(line - 1)
            .copied()
            .unwrap_or(self.text.len());
        let end = self
            .line_starts
            .get(line)
            .map_or(self.text.len(), |e| e - 1);
        self.text
            .get(start..end.max(start))
            .unwrap_or("")
            .trim_end_matches('\r')
    }

    /// `file:line:col: error: message`, the source line and a caret under the span.
    /// This plain form is what tests and scripts see; the CLI may render more richly.
    pub fn render(&self, d: &Diagnostic) -> String {
        let (line, col) = self.line_col(d.span.start);
        let sev = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
        };
        let text = self.line_text(line);
        let width = {
            let (eline, ecol) = self.line_col(d.span.end);
            if eline == line && ecol > col {
                ecol - col
            } else {
                1
            }
        };
        let mut s = format!("{}:{line}:{col}: {sev}: {d}\n", self.name);
        let gutter = line.to_string().len();
        s += &format!(
            "{:gutter$} |\n{line} | {text}\n{:gutter$} | {}{}\n",
            "",
            "",
            " ".repeat(col - 1),
            "^".repeat(width)
        );
        for n in &d.notes {
            s += &format!("{:gutter$} = note: {n}\n", "");
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_points_at_the_span() {
        let src = Source::new("x.expr", "# c\n[ptr] DIOpArg(1, ptr)\n");
        let d = Diagnostic::error(Span::new(10, 25), "DIOpArg index 1 out of range").at_op(0);
        let r = src.render(&d);
        assert!(
            r.starts_with("x.expr:2:7: error: DIOpArg index 1 out of range (operation #0)\n"),
            "{r}"
        );
        assert!(r.contains("2 | [ptr] DIOpArg(1, ptr)\n"), "{r}");
        assert!(r.contains("  |       ^^^^^^^^^^^^^^^\n"), "{r}");
    }
}
