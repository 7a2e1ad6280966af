//! The whole catalog as one document: Markdown, CSV, TSV, JSON.
