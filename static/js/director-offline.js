/* The console when the network comes and goes (docs/director-guide.md, "Results without
 * the network"): the director's side of the private link's offline-reports.js.
 *
 * - Registers the service worker (/sw.js) and tells it who is signed in (the director's
 *   kept pages are that director's only: another director's go first), and asks it to
 *   keep this page if it is a match page or a match grid, with its styles, scripts and
 *   language catalogue, so that it opens offline.
 * - A match's final score or its games entered while offline (or while earlier results of
 *   the match still wait) are kept on this device (report-queue.js, IndexedDB, under
 *   "director:<user id>"), each with the key its form carries.
 * - Shows "N unsent" with each result waiting, and those the server refused as "needs
 *   attention" with its reason and what to do.
 * - Sends them in order by itself: now, when the network is back, when the page is shown
 *   again, and on a timer with backoff (no Background Sync: the service worker cannot
 *   read the CSRF token a console form needs). Only this director's pages send them.
 */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (m, k) { return String(obj[k]); });
  };
  var panel = document.getElementById("director-offline");
  if (!panel || !window.ReportQueue || !window.indexedDB) return;
  var Q = window.ReportQueue;
  var user = panel.dataset.user;
  var queue = "director:" + user;
  var shownMatch = panel.dataset.match ? Number(panel.dataset.match) : null;
  var forms = Array.prototype.slice.call(document.querySelectorAll("form[data-queue-kind]"));
  var items = [];
  var timer = null;
  var delay = 0;
  var dirty = false;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function time(iso) {
    return new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  /* The token a console form needs: the cookie's, else the one this page was given. */
  function csrf() {
    var found = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    if (found) return decodeURIComponent(found[1]);
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function label(i) {
    return i.label || interpolate(gettext("Match %(match)s"), {match: i.match}, true);
  }

  function matchPage(i) {
    return i.page || String(i.url).replace(/(score|games)\/$/, "");
  }

  /* --- the queue as the director sees it --- */

  function render() {
    return Q.list(queue).then(function (all) {
      items = all;
      var waiting = all.filter(function (i) { return i.state !== "attention"; });
      var refused = all.filter(function (i) { return i.state === "attention"; });
      var list = document.getElementById("dq-unsent-list");
      document.getElementById("dq-unsent-badge").textContent = interpolate(gettext("%(n)s unsent"), {n: waiting.length}, true);
      document.getElementById("dq-unsent").hidden = !waiting.length;
      list.replaceChildren.apply(list, waiting.map(function (i) {
        var li = el("li");
        var what = el("a", "", label(i));
        what.href = matchPage(i);
        li.append(what, ": " + (i.summary || gettext("reported")) + " ", el("span", "muted small", interpolate(gettext("kept %(time)s"), {time: time(i.queuedAt)}, true)));
        if (refused.some(function (r) { return r.match === i.match; })) {
          li.append(el("span", "held small", " " + gettext("waits for the report that needs attention")));
        }
        return li;
      }));
      var alist = document.getElementById("dq-attention-list");
      document.getElementById("dq-attention").hidden = !refused.length;
      alist.replaceChildren.apply(alist, refused.map(function (i) {
        var li = el("li", "attention-item");
        var what = el("a", "", label(i));
        what.href = matchPage(i);
        var head = el("strong");
        head.append(what, ": " + (i.summary || ""));
        li.append(head);
        li.append(el("p", "reason", gettext("Not recorded:") + " " + i.reason));
        li.append(el("p", "advice", gettext("What to do:") + " " + i.advice));
        var done = el("button", "secondary small", gettext("Dealt with: remove"));
        done.type = "button";
        done.dataset.dismiss = i.id;
        li.append(done);
        return li;
      }));
      document.getElementById("dq-offline-note").hidden = navigator.onLine;
      panel.hidden = !all.length && navigator.onLine;
      document.documentElement.dataset.unsent = String(waiting.length);
      document.documentElement.dataset.attention = String(refused.length);
    });
  }

  function status(text) {
    var p = document.getElementById("dq-status");
    p.textContent = text;
    p.hidden = false;
  }

  /* --- sending --- */

  function schedule(retryAfter) {
    clearTimeout(timer);
    delay = delay ? Math.min(delay * 2, 60000) : 2000;
    timer = setTimeout(send, Math.max(delay, retryAfter * 1000) + Math.floor(Math.random() * 500));
  }

  function queuedIds() {
    return items.filter(function (i) { return i.state === "queued"; }).map(function (i) { return i.id; });
  }

  /* ``data-sending`` is "1" while a send is under way or its page reloads, "0" once every
   * send has settled and no reload is coming: what a test (or a script) waits for before
   * it reads the panel. Two sends may overlap (the network's return, a timer): the one
   * that settles last decides, and a reload keeps it at "1" for good. */
  var inflight = 0;
  var reloading = false;

  function flagSending() {
    document.documentElement.dataset.sending = inflight || reloading ? "1" : "0";
  }

  function send() {
    clearTimeout(timer);
    inflight += 1;
    flagSending();
    var before = queuedIds();
    return Q.flush(queue, { csrf: csrf() }).then(function (r) {
      if (r.retry) schedule(r.retryAfter); else delay = 0;
      return render().then(function () {
        var now = queuedIds();
        var answered = before.some(function (id) { return now.indexOf(id) < 0; });
        if (r.signedOut) {
          status(gettext("Signed out: sign in again, and the results kept on this device are sent."));
        } else if (r.sent) {
          status(interpolate(ngettext("%(n)s result sent and recorded.", "%(n)s results sent and recorded.", r.sent), {n: r.sent}, true));
        }
        // The server answered about the match shown: show it as the server has it now,
        // unless the director is filling a form in.
        if (answered && shownMatch && r.touched[shownMatch] && !dirty && navigator.onLine) {
          reloading = true;
          inflight -= 1;
          flagSending();
          location.reload();
          return;
        }
        if (now.length && !r.retry && !r.refused) schedule(0);
        inflight -= 1;
        flagSending();
      });
    });
  }

  /* --- keeping the page, for this director only --- */

  function keepPages() {
    if (!navigator.serviceWorker || !navigator.onLine) return;
    navigator.serviceWorker.ready.then(function (reg) {
      var assets = Array.prototype.map.call(
        document.querySelectorAll("script[src], link[rel=stylesheet]"),
        function (e) { return e.src || e.href; });
      if (reg.active) reg.active.postMessage({ type: "keep", director: user, urls: [location.href], assets: assets });
    });
  }

  /* --- the match page's forms --- */

  function summary(form) {
    if (form.dataset.queueKind === "score") {
      var one = form.querySelector("input[name=score1]");
      var two = form.querySelector("input[name=score2]");
      return form.dataset.name1 + " " + one.value + " – " + two.value + " " + form.dataset.name2;
    }
    var games = Array.prototype.filter.call(form.querySelectorAll("select[name$=-winner]"), function (s) { return s.value; }).length;
    return interpolate(ngettext("%(n)s game entered", "%(n)s games entered", games), {n: games}, true);
  }

  function onSubmit(event) {
    var form = event.currentTarget;
    var match = Number(form.dataset.match);
    var waiting = items.some(function (i) { return i.match === match; });
    if (navigator.onLine && !waiting) return;  // posted as ever (the service worker keeps it if it fails)
    event.preventDefault();
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken" && name !== "idempotency_key" && typeof value === "string") fields.push([name, value]);
    });
    var key = form.querySelector("input[name=idempotency_key]");
    Q.add(queue, { id: key ? key.value : undefined, match: match, url: form.getAttribute("action"),
      fields: fields, kind: form.dataset.queueKind, label: form.dataset.label,
      summary: summary(form), page: location.pathname }).then(function () {
      form.reset();
      dirty = false;
      if (key) key.value = Q.uuid();
      status(gettext("Kept on this device: it is sent when the network is back."));
      return render();
    }).then(function () {
      send();
      document.getElementById("director-offline").scrollIntoView({ block: "nearest" });
    });
  }

  panel.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.dismiss) {
      Q.remove(queue, button.dataset.dismiss).then(render).then(send);
    } else if (button.id === "dq-send-now") {
      delay = 0;
      send();
    }
  });

  // A copy of the page read offline carries the keys it was loaded with: they may have
  // gone with a result since. Each form gets a new one.
  if (document.documentElement.hasAttribute("data-offline-copy")) {
    document.querySelectorAll("input[name=idempotency_key]").forEach(function (k) { k.value = Q.uuid(); });
  }
  forms.forEach(function (form) {
    form.addEventListener("submit", onSubmit);
    form.addEventListener("input", function () { dirty = true; });
  });
  window.addEventListener("online", function () { delay = 0; render(); send(); keepPages(); });
  window.addEventListener("offline", render);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) send(); });

  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === "kept") document.documentElement.dataset.offlineReady = "1";
    });
    navigator.serviceWorker.register(panel.dataset.worker, { scope: "/" }).then(keepPages, function () {});
  }
  render().then(function () {
    if (navigator.onLine) return send();
    schedule(0);
    return null;
  });
})();
