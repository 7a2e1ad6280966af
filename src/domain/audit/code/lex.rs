//! A small tokenizer per language family, enough to find the known call shapes: identifiers,
//! numbers, strings (with escapes, and whether they interpolate), Ruby / Elixir symbols and
//! punctuation, each with its position; comments skipped; brackets matched with a depth limit
//! of [`MAX_DEPTH`]. Lenient by design: an unterminated string ends at the end of its line
//! (or of the file, where the language lets strings span lines), a stray closing bracket is
//! kept as punctuation — a scanner reads files it does not fully understand and never panics.

use crate::domain::audit::found::{Pos, ReadError, MAX_DEPTH};

/// The language families the scanners read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fam {
    /// Python (`#` comments, `'`/`"` strings with prefixes, triple quotes).
    Python,
    /// Ruby (`#` comments, symbols, `"…#{…}"` interpolation).
    Ruby,
    /// Elixir (`#` comments, atoms, triple-quoted heredocs).
    Elixir,
    /// Go (`//` and `/* */` comments, raw `` ` `` strings).
    Go,
    /// JavaScript / TypeScript (`//` and `/* */` comments, template strings).
    Js,
    /// JSON (strings only).
    Json,
}

/// What a token is.
#[derive(Debug, Clone, PartialEq)]
pub enum K {
    /// An identifier or keyword (its text is the source between `start` and `end`).
    Ident,
    /// A number as written (`10_000`, `1.5`, `0x1f`).
    Num,
    /// A string's value with escapes read; `interp`: it interpolates code (`f"…"`,
    /// `"#{…}"`, `` `${…}` ``), so its value is not literal.
    Str {
        /// The value.
        value: String,
        /// Whether it interpolates.
        interp: bool,
    },
    /// A Ruby symbol or Elixir atom (`:polynomially_longer`), without the colon.
    Sym(String),
    /// One punctuation character.
    P(char),
}

/// One token.
#[derive(Debug, Clone, PartialEq)]
pub struct Tok {
    /// What it is.
    pub k: K,
    /// Where it starts.
    pub at: Pos,
    /// Byte offset of its first character.
    pub start: usize,
    /// Byte offset just past its last character.
    pub end: usize,
    /// Whether a line break precedes it (since the previous token).
    pub nl: bool,
}

impl Tok {
    /// Whether this is the punctuation `c`.
    pub fn is(&self, c: char) -> bool {
        self.k == K::P(c)
    }
}

struct Lx {
    /// The characters (4 bytes each: a 5 MiB file is read without a per-character offset).
    cs: Vec<char>,
    i: usize,
    /// Byte offset of `cs[i]`.
    byte: usize,
    line: u32,
    col: u32,
    fam: Fam,
}

impl Lx {
    fn peek(&self, o: usize) -> Option<char> {
        self.cs.get(self.i + o).copied()
    }
    fn off(&self) -> usize {
        self.byte
    }
    fn pos(&self) -> Pos {
        Pos {
            line: self.line,
            column: self.col,
        }
    }
    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.i += 1;
        self.byte += c.len_utf8();
        if c == '\n' {
            self.line = self.line.saturating_add(1);
            self.col = 1;
        } else {
            self.col = self.col.saturating_add(1);
        }
        Some(c)
    }
    fn starts(&self, s: &str) -> bool {
        s.chars().enumerate().all(|(o, c)| self.peek(o) == Some(c))
    }
    fn skip_to_eol(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.bump();
        }
    }
    fn skip_block_comment(&mut self) {
        self.bump();
        self.bump();
        while self.peek(0).is_some() && !self.starts("*/") {
            self.bump();
        }
        self.bump();
        self.bump();
    }
    fn ident_text(&mut self) {
        while self.peek(0).is_some_and(ident_char) {
            self.bump();
        }
        if matches!(self.fam, Fam::Ruby | Fam::Elixir)
            && matches!(self.peek(0), Some('?' | '!'))
            && self.peek(1) != Some('=')
        {
            self.bump();
        }
    }
    fn number(&mut self) {
        while let Some(c) = self.peek(0) {
            let more = c.is_ascii_alphanumeric()
                || c == '_'
                || (c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit()))
                || (matches!(c, '+' | '-')
                    && matches!(self.cs.get(self.i.wrapping_sub(1)), Some('e' | 'E'))
                    && self.peek(1).is_some_and(|d| d.is_ascii_digit()));
            if !more {
                break;
            }
            self.bump();
        }
    }
    /// Reads a string opened by `q` (the opening quote(s) not yet consumed).
    fn string(&mut self, q: char, triple: bool, raw: bool, interp_prefix: bool) -> K {
        let n = if triple { 3 } else { 1 };
        for _ in 0..n {
            self.bump();
        }
        let multiline = triple
            || matches!(self.fam, Fam::Ruby | Fam::Elixir)
            || (q == '`' && matches!(self.fam, Fam::Js | Fam::Go));
        let mut value = String::new();
        let mut interp = interp_prefix;
        while let Some(c) = self.peek(0) {
            if c == '\n' && !multiline {
                break;
            }
            if c == q && (!triple || (self.peek(1) == Some(q) && self.peek(2) == Some(q))) {
                for _ in 0..n {
                    self.bump();
                }
                break;
            }
            if c == '\\' && !(self.fam == Fam::Go && q == '`') {
                self.bump();
                if let Some(e) = self.bump() {
                    if raw {
                        value.push('\\');
                        value.push(e);
                    } else {
                        value.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            'r' => '\r',
                            '0' => '\0',
                            other => other,
                        });
                    }
                }
                continue;
            }
            if (c == '#' && self.peek(1) == Some('{') && q != '\'' && q != '`')
                || (c == '$' && self.peek(1) == Some('{') && q == '`' && self.fam == Fam::Js)
            {
                interp = true;
            }
            value.push(c);
            self.bump();
        }
        K::Str { value, interp }
    }
    fn comment_here(&self) -> Option<bool> {
        let c = self.peek(0)?;
        match self.fam {
            Fam::Python | Fam::Ruby | Fam::Elixir if c == '#' => Some(false),
            Fam::Go | Fam::Js if self.starts("//") => Some(false),
            Fam::Go | Fam::Js if self.starts("/*") => Some(true),
            _ => None,
        }
    }
}

fn ident_char(c: char) -> bool {
    c == '_' || c == '$' || c.is_alphanumeric()
}

fn quote_opens(fam: Fam, c: char) -> bool {
    match fam {
        Fam::Python | Fam::Elixir => matches!(c, '\'' | '"'),
        Fam::Ruby | Fam::Js => matches!(c, '\'' | '"' | '`'),
        Fam::Go => matches!(c, '"' | '`' | '\''),
        Fam::Json => c == '"',
    }
}

fn python_prefix(s: &str) -> Option<(bool, bool)> {
    let l = s.to_ascii_lowercase();
    let ok = !l.is_empty() && l.len() <= 2 && l.chars().all(|c| matches!(c, 'r' | 'b' | 'f' | 'u'));
    ok.then(|| (l.contains('r'), l.contains('f')))
}

/// Splits `src` into tokens.
///
/// # Errors
/// [`ReadError::TooDeep`] where brackets nest deeper than [`MAX_DEPTH`].
pub fn tokens(src: &str, fam: Fam) -> Result<Vec<Tok>, ReadError> {
    let mut lx = Lx {
        cs: src.chars().collect(),
        i: 0,
        byte: 0,
        line: 1,
        col: 1,
        fam,
    };
    let mut out = Vec::new();
    let mut nl = true;
    let mut depth = 0usize;
    while let Some(c) = lx.peek(0) {
        if c.is_whitespace() {
            nl |= c == '\n';
            lx.bump();
            continue;
        }
        if let Some(block) = lx.comment_here() {
            if block {
                lx.skip_block_comment();
            } else {
                lx.skip_to_eol();
            }
            continue;
        }
        let (at, start) = (lx.pos(), lx.off());
        let k = if ident_char(c) && !c.is_ascii_digit() {
            lx.ident_text();
            let word = &src[start..lx.off()];
            match (fam, python_prefix(word), lx.peek(0)) {
                (Fam::Python, Some((raw, f)), Some(q)) if matches!(q, '\'' | '"') => {
                    let triple = lx.peek(1) == Some(q) && lx.peek(2) == Some(q);
                    lx.string(q, triple, raw, f)
                }
                _ => K::Ident,
            }
        } else if c.is_ascii_digit() {
            lx.number();
            K::Num
        } else if quote_opens(fam, c) {
            let triple = matches!(fam, Fam::Python | Fam::Elixir)
                && lx.peek(1) == Some(c)
                && lx.peek(2) == Some(c);
            lx.string(c, triple, false, false)
        } else if c == ':'
            && matches!(fam, Fam::Ruby | Fam::Elixir)
            && lx
                .peek(1)
                .is_some_and(|d| ident_char(d) && !d.is_ascii_digit())
            && !out
                .last()
                .is_some_and(|t: &Tok| t.end == start && t.is(':'))
        {
            lx.bump();
            let s = lx.off();
            lx.ident_text();
            K::Sym(src[s..lx.off()].to_owned())
        } else if c == ':' && matches!(fam, Fam::Ruby | Fam::Elixir) && lx.peek(1) == Some('"') {
            lx.bump();
            match lx.string('"', false, false, false) {
                K::Str { value, .. } => K::Sym(value),
                other => other,
            }
        } else {
            lx.bump();
            match c {
                '(' | '[' | '{' => {
                    depth += 1;
                    if depth > MAX_DEPTH {
                        return Err(ReadError::TooDeep { at });
                    }
                }
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            K::P(c)
        };
        out.push(Tok {
            k,
            at,
            start,
            end: lx.off(),
            nl,
        });
        nl = false;
    }
    Ok(out)
}

/// For each token, the index of its matching closing bracket when it opens one.
pub fn matches(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut close = vec![None; toks.len()];
    let mut stack: Vec<(usize, char)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let K::P(c) = t.k else { continue };
        let want = match c {
            '(' | '[' | '{' => {
                stack.push((i, c));
                continue;
            }
            ')' => '(',
            ']' => '[',
            '}' => '{',
            _ => continue,
        };
        if let Some(k) = stack.iter().rposition(|&(_, o)| o == want) {
            if let Some(&(open, _)) = stack.get(k) {
                close[open] = Some(i);
            }
            stack.truncate(k);
        }
    }
    close
}
