// The console's entries table: "select every player" for the bulk actions (check in all
// present, mark paid). Without this script each box is ticked by hand.
(function () {
  "use strict";
  var all = document.getElementById("pick-all");
  if (!all) return;
  all.hidden = false;
  function boxes() {
    return document.querySelectorAll('input[type=checkbox][name=entries][form=entries-bulk]');
  }
  all.addEventListener("change", function () {
    boxes().forEach(function (box) { box.checked = all.checked; });
  });
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box && box.name === "entries") {
      var list = Array.prototype.slice.call(boxes());
      all.checked = list.length > 0 && list.every(function (b) { return b.checked; });
    }
  });
})();

// "Add a side pool" takes the players ticked in the entries table: their boxes belong to
// the bulk form, so they are copied into the side-pool form as it is sent, and the form
// says how many are ticked (in the page's language: /jsi18n/<lang>/, English without it).
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (_, key) { return String(obj[key]); });
  };
  var add = document.querySelector("form.side-pool-add");
  if (!add) return;
  var count = add.querySelector(".ticked-count");
  function ticked() {
    return Array.prototype.filter.call(
      document.querySelectorAll('input[type=checkbox][name=entries][form=entries-bulk]'),
      function (box) { return box.checked; }
    );
  }
  function show() {
    if (!count) return;
    var n = ticked().length;
    count.textContent = n === 0
      ? gettext("none ticked yet")
      : interpolate(ngettext("%(count)s ticked", "%(count)s ticked", n), {count: n}, true);
  }
  document.addEventListener("change", function (event) {
    var box = event.target;
    if (box && (box.name === "entries" || box.id === "pick-all")) show();
  });
  add.addEventListener("submit", function () {
    add.querySelectorAll("input[data-ticked]").forEach(function (old) { old.remove(); });
    ticked().forEach(function (box) {
      var copy = document.createElement("input");
      copy.type = "hidden";
      copy.name = "entries";
      copy.value = box.value;
      copy.setAttribute("data-ticked", "");
      add.appendChild(copy);
    });
  });
  show();
})();
