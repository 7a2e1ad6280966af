//! The web app's entry point (built for wasm32 by Trunk).

#[cfg(target_arch = "wasm32")]
fn main() {
    modality_advisor::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("the web app builds for wasm32 only: run `make serve`");
    std::process::exit(2);
}
