//! Integration tests: one binary, one file per feature.
