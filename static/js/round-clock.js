// The room board's round clocks: each <time data-ends="ISO"> counts down to its end every
// second, "12:04 left" then "time is up". A static file: the site's Content-Security-Policy
// (script-src 'self') forbids inline scripts. Polling swaps the clocks in anew; each tick
// reads them from the page again.
// Its words come from the language's catalogue (/jsi18n/<lang>/, a script of its own),
// English without it.
(function () {
  var gettext = window.gettext || function (text) { return text; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (_, key) { return String(obj[key]); });
  };
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function tick() {
    var clocks = document.querySelectorAll("time[data-ends]");
    var now = Date.now();
    for (var i = 0; i < clocks.length; i++) {
      var ends = Date.parse(clocks[i].getAttribute("data-ends"));
      if (isNaN(ends)) { continue; }
      var left = Math.round((ends - now) / 1000);
      var text;
      if (left <= 0) {
        text = gettext("time is up");
        clocks[i].classList.add("rb-over");
      } else {
        var h = Math.floor(left / 3600), m = Math.floor((left % 3600) / 60), s = left % 60;
        text = interpolate(gettext("%(time)s left"), {time: (h ? h + ":" + two(m) : m) + ":" + two(s)}, true);
        clocks[i].classList.toggle("rb-last-minutes", left <= 300);
      }
      if (clocks[i].textContent !== text) { clocks[i].textContent = text; }
    }
  }
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();
