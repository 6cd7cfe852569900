// Live fragments (hx-trigger="every 5s" with data-poll-visible) poll only while the page
// is visible. This replaces an htmx trigger filter, which htmx evaluates as a string of
// JavaScript: the Content-Security-Policy (script-src 'self') forbids that.
document.addEventListener("htmx:beforeRequest", function (event) {
  var elt = event.detail && event.detail.elt;
  if (elt && elt.hasAttribute("data-poll-visible") && document.visibilityState !== "visible") {
    event.preventDefault();
  }
});
