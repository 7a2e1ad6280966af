// The page's fallback (a classic script: it runs where WebAssembly or module scripts do not).
// Until the app starts and removes #boot, a failure to start — no WebAssembly, no module
// scripts, a script or the wasm that fails to load or compile (a frame sandboxed without
// allow-same-origin: the module script is fetched with CORS from origin `null`) — or no start
// after 15 s shows #boot-failed in place of the loading line, with a link that opens the app
// in a tab. It carries no integrity attribute (index.html says why). It reads and stores
// nothing.
(function () {
  'use strict';
  function fail() {
    var failed = document.getElementById('boot-failed');
    if (!failed) return; // the app has started
    failed.hidden = false;
    document.getElementById('boot-loading').hidden = true;
  }
  if (typeof WebAssembly !== 'object' || !('noModule' in document.createElement('script'))) return fail();
  // A script that fails to load fires `error` on its element (seen in the capture phase); a
  // failed wasm fetch or compile rejects the loader module's top-level await.
  addEventListener('error', function (e) {
    if (e.target === window || e.target.tagName === 'SCRIPT') fail();
  }, true);
  addEventListener('unhandledrejection', fail);
  setTimeout(fail, 15000);
})();
