// Starts the simulator module. The page (src/ui/browser/simulator.rs) adds this script right
// after sim-ui.js, wasm-bindgen's glue for the `sim-ui` binary, which declares the global
// `wasm_bindgen`; the module's exports reach the page as a promise under this name.
globalThis.modalityAdvisorSimulator = wasm_bindgen({ module_or_path: './sim-ui_bg.wasm' }).then(() => wasm_bindgen);
