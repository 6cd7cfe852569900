// A form refused by the server is answered on the URL it was posted to (with its 4xx
// status and the player's choices kept). <meta name="page-url"> names the page itself:
// the address bar shows it and a reload fetches it (GET) instead of sending the form again.
(function () {
  var meta = document.querySelector('meta[name="page-url"]');
  if (meta && window.history && window.history.replaceState) {
    window.history.replaceState(null, "", meta.getAttribute("content"));
  }
})();
