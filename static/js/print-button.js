// Buttons marked data-print open the browser's print dialog. A static file: the site's
// Content-Security-Policy (script-src 'self') blocks inline onclick handlers.
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-print]");
  if (button) {
    event.preventDefault();
    window.print();
  }
});
