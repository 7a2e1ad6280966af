//! The command-line tool: `modality-advisor advise …`, `modality-advisor sheet …`. See `modality_advisor::cli`.

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    modality_advisor::cli::main()
}

#[cfg(target_arch = "wasm32")]
fn main() {}
