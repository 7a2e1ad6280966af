// Starts the simulation worker: the simulator module (sim-ui, already fetched by the screen that
// starts a run) loaded again in a Web Worker, where it runs the queue engine instead of drawing
// (`serve_simulations` in src/bin/sim-ui.rs). The page starts it as
// `new Worker('./sim-worker-start.js')` (src/ui/browser/workers.rs).
importScripts('./sim-ui.js');
// A module that cannot be fetched or compiled is thrown again outside the promise, so the page's
// `error` listener hears it at once (a rejected promise alone is silent there: the page waited
// for its 30 s load limit).
wasm_bindgen({ module_or_path: './sim-ui_bg.wasm' })
  .then(() => wasm_bindgen.serve_simulations())
  .catch((e) => setTimeout(() => { throw e; }));
