// Starts the document worker: the simulator module (sim-ui) loaded in a Web Worker, where it
// writes the documents, reads imported files, renders shares and queue configurations and
// audits existing ones (`serve_documents` in src/bin/sim-ui.rs) instead of drawing. The page
// starts it as `new Worker('./doc-worker-start.js')` (src/ui/browser/workers.rs).
importScripts('./sim-ui.js');
// A module that cannot be fetched or compiled is thrown again outside the promise, so the page's
// `error` listener hears it at once (a rejected promise alone is silent there: the page waited
// for its 30 s load limit).
wasm_bindgen({ module_or_path: './sim-ui_bg.wasm' })
  .then(() => wasm_bindgen.serve_documents())
  .catch((e) => setTimeout(() => { throw e; }));
