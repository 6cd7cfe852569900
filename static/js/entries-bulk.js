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
