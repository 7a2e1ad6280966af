// The embed page's fallback (a classic script: it loads even where module scripts cannot,
// e.g. a sandbox without allow-same-origin whose host sends no CORS headers). It points the
// static "Open in the app" link at the app with this page's fragment, and if the wasm has not
// started after a few seconds, or its module failed to load, it says so. The wasm replaces
// the whole fallback when it starts. It reads nothing but the URL and stores nothing.
(function () {
  'use strict';
  var link = document.getElementById('embed-open');
  if (link) link.setAttribute('href', './' + location.hash);
  var shown = false;
  function fail() {
    var status = document.getElementById('embed-status');
    if (shown || !status) return; // no status: the wasm has already replaced the fallback
    shown = true;
    status.hidden = false;
  }
  // A module script that fails to load fires `error` on its element (seen in the capture
  // phase); a failed wasm fetch rejects the loader's promise.
  window.addEventListener('error', function (e) {
    if (e.target && e.target.tagName === 'SCRIPT') fail();
  }, true);
  window.addEventListener('unhandledrejection', fail);
  setTimeout(fail, 8000);
})();
