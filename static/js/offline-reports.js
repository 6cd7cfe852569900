/* The private link's page when the network comes and goes (docs/director-guide.md, "Results
 * without the network").
 *
 * - Registers the service worker (/sw.js) and asks it to keep this page and the player's
 *   other open matches, so that they open offline.
 * - A game reported while offline (or while earlier reports of the match still wait) is
 *   kept on the phone (report-queue.js, IndexedDB), and the form moves on to the next
 *   game at once; online with nothing waiting, the form posts as it always did.
 * - Shows "N unsent" with each report waiting, and the reports the server refused as
 *   "needs attention" with its reason and what to do.
 * - Sends the queue by itself: now, when the network is back, when the page is shown
 *   again, and on a timer with backoff; Background Sync too where the browser has it.
 *   After each attempt it tells the server what the phone still holds (the director sees it).
 */
(function () {
  "use strict";
  var gettext = window.gettext || function (text) { return text; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\((\w+)\)s/g, function (m, k) { return String(obj[k]); });
  };
  var panel = document.getElementById("offline");
  if (!panel || !window.ReportQueue || !window.indexedDB) return;
  var Q = window.ReportQueue;
  var link = panel.dataset.link;
  var matchIds = JSON.parse(panel.dataset.matches || "[]");
  var form = document.querySelector("form.game-form[data-match]");
  var items = [];
  var timer = null;
  var delay = 0;
  var sentHere = 0;
  var POINTS = { single: 1, gammon: 2, backgammon: 3 };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function time(iso) {
    var d = new Date(iso);
    return d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  }

  /* --- the match as it stands on this phone: the page's score plus the games waiting --- */

  function local() {
    var d = form.dataset;
    var state = {
      next: Number(d.next), me: Number(d.scoreMe), them: Number(d.scoreThem),
      length: Number(d.length), crawford: d.crawford === "1",
      crawfordGame: d.crawfordGame ? Number(d.crawfordGame) : null, waiting: 0, over: false
    };
    items.filter(function (i) { return i.match === Number(d.match) && i.state === "queued"; })
      .sort(function (a, b) { return a.body.game_number - b.body.game_number; })
      .forEach(function (i) {
        if (i.body.game_number < state.next) return;  // already on the page's record
        var pts = (POINTS[i.body.result] || 1) * (i.body.cube || 1);
        var before = Math.max(state.me, state.them);
        if (i.body.winner === Number(d.mePlayer)) state.me += pts; else state.them += pts;
        state.waiting += 1;
        state.next = i.body.game_number + 1;
        var after = Math.max(state.me, state.them);
        if (state.crawford && state.crawfordGame === null && before < state.length - 1 &&
            after === state.length - 1) state.crawfordGame = state.next;
      });
    state.over = state.me >= state.length || state.them >= state.length;
    return state;
  }

  function showForm() {
    if (!form) return;
    var s = local();
    var d = form.dataset;
    var line = document.getElementById("local-state");
    var heading = document.getElementById("game-h");
    var button = form.querySelector("button[type=submit]");
    var number = form.querySelector("input[name=game_number]");
    var cube = form.querySelector("select[name=cube]");
    number.value = s.next;
    heading.textContent = interpolate(gettext("Report game %(next_game)s"), {next_game: s.next}, true);
    button.textContent = interpolate(gettext("Record game %(next_game)s"), {next_game: s.next}, true);
    if (cube && !cube.dataset.serverDisabled) {
      var crawfordNow = s.crawfordGame === s.next;
      cube.disabled = crawfordNow;
      if (crawfordNow) cube.value = "1";
    }
    form.hidden = s.over;
    if (!s.waiting) { line.hidden = true; return; }
    line.hidden = false;
    var score = d.meName + " " + s.me + " – " + s.them + " " + d.themName;
    var facts = {score: score, n: s.waiting, next: s.next};
    line.textContent = s.over
      ? interpolate(ngettext(
          "Match over on this phone, %(score)s, with %(n)s unsent game: it is sent when the network is back, then your opponent confirms.",
          "Match over on this phone, %(score)s, with %(n)s unsent games: they are sent when the network is back, then your opponent confirms.",
          s.waiting), facts, true)
      : interpolate(ngettext(
          "On this phone, with %(n)s unsent game: %(score)s.",
          "On this phone, with %(n)s unsent games: %(score)s.", s.waiting), facts, true) +
        (s.crawfordGame === s.next ? " " + interpolate(gettext("Game %(next)s is the Crawford game: no doubling."), facts, true) : "");
  }

  /* --- the queue as the player sees it --- */

  function render() {
    return Q.list(link).then(function (all) {
      items = all;
      var waiting = all.filter(function (i) { return i.state !== "attention"; });
      var refused = all.filter(function (i) { return i.state === "attention"; });
      var badge = document.getElementById("unsent-badge");
      var list = document.getElementById("unsent-list");
      var box = document.getElementById("unsent");
      badge.textContent = interpolate(gettext("%(n)s unsent"), {n: waiting.length}, true);
      box.hidden = !waiting.length;
      list.replaceChildren.apply(list, waiting.map(function (i) {
        var li = el("li");
        var what = el("a", "", interpolate(gettext("%(label)s, game %(game)s"), {label: i.label || interpolate(gettext("Match %(match)s"), {match: i.match}, true), game: i.body.game_number}, true));
        what.href = "?match=" + i.match;
        li.append(what, ": " + (i.summary || gettext("reported")) + " ", el("span", "muted small", interpolate(gettext("kept %(time)s"), {time: time(i.queuedAt)}, true)));
        if (refused.some(function (r) { return r.match === i.match; })) {
          li.append(el("span", "held small", " " + gettext("waits for the report that needs attention")));
        }
        return li;
      }));
      var attention = document.getElementById("attention");
      var alist = document.getElementById("attention-list");
      attention.hidden = !refused.length;
      alist.replaceChildren.apply(alist, refused.map(function (i) {
        var li = el("li", "attention-item");
        li.append(el("strong", "", interpolate(gettext("%(label)s, game %(game)s"), {label: i.label || interpolate(gettext("Match %(match)s"), {match: i.match}, true), game: i.body.game_number}, true) + ": " + (i.summary || "")));
        li.append(el("p", "reason", gettext("Not recorded:") + " " + i.reason));
        li.append(el("p", "advice", gettext("What to do:") + " " + i.advice));
        var done = el("button", "secondary small", gettext("Dealt with: remove"));
        done.type = "button";
        done.dataset.dismiss = i.id;
        li.append(done);
        return li;
      }));
      document.getElementById("offline-note").hidden = navigator.onLine;
      if (form) showForm();
      panel.hidden = !all.length && navigator.onLine;
      document.documentElement.dataset.unsent = String(waiting.length);
      document.documentElement.dataset.attention = String(refused.length);
    });
  }

  /* --- sending --- */

  function schedule(retryAfter) {
    clearTimeout(timer);
    delay = delay ? Math.min(delay * 2, 60000) : 2000;
    var wait = Math.max(delay, retryAfter * 1000) + Math.floor(Math.random() * 500);
    timer = setTimeout(send, wait);
  }

  function keepPages() {
    if (!navigator.serviceWorker || !navigator.onLine) return;
    navigator.serviceWorker.ready.then(function (reg) {
      var urls = [location.pathname + location.search];
      document.querySelectorAll("a[data-keep]").forEach(function (a) { urls.push(a.getAttribute("href")); });
      urls = urls.map(function (u) { return new URL(u, location.href).href; });
      // The page's styles and scripts, its language catalogue (/jsi18n/<lang>/) with them:
      // read offline, the page still speaks its language.
      var assets = Array.prototype.map.call(
        document.querySelectorAll("script[src], link[rel=stylesheet]"),
        function (e) { return e.src || e.href; });
      if (reg.active) reg.active.postMessage({ type: "keep", urls: urls, assets: assets });
    });
  }

  function pristine() {
    return !form || !form.querySelector("input[name=winner]:checked");
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
    return Q.flush(link).then(function (r) {
      sentHere += r.sent;
      if (r.retry) schedule(r.retryAfter); else delay = 0;
      return render().then(function () {
        Q.sync(link, matchIds);
        var now = queuedIds();
        var left = now.length;
        // Answered by the server, here or by the service worker's Background Sync.
        var answered = before.some(function (id) { return now.indexOf(id) < 0; });
        if (r.sent) {
          status(interpolate(ngettext("%(n)s game sent and recorded.", "%(n)s games sent and recorded.", r.sent), {n: r.sent}, true));
          keepPages();
        }
        // The server answered (recorded, or refused): show the match as it has it now, unless
        // the player is filling the form in. Reports still kept are shown again from the queue.
        if (answered && pristine() && navigator.onLine) {
          reloading = true;
          inflight -= 1;
          flagSending();
          location.reload();
          return;
        }
        if (left && !r.retry && !r.refused) schedule(0);
        inflight -= 1;
        flagSending();
      });
    });
  }

  function status(text) {
    var p = document.getElementById("queue-status");
    p.textContent = text;
    p.hidden = false;
  }

  function picked(name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.closest("label").textContent.trim() : "";
  }

  function onSubmit(event) {
    var match = Number(form.dataset.match);
    var waiting = items.some(function (i) { return i.match === match; });
    if (navigator.onLine && !waiting) return;  // posted as ever (the service worker keeps it if it fails)
    event.preventDefault();
    var data = new FormData(form);
    var cube = form.querySelector("select[name=cube]");
    var body = {
      winner: Number(data.get("winner")), cube: cube && !cube.disabled ? Number(cube.value) : 1,
      result: data.get("result") || "single", ended_by: data.get("ended_by") || "play",
      game_number: Number(data.get("game_number"))
    };
    var summary = interpolate(gettext("%(winner)s won · cube %(cube)s"), {winner: picked("winner"), cube: body.cube}, true) + " · " + picked("result").toLowerCase() +
      (body.ended_by !== "play" ? " · " + picked("ended_by").toLowerCase() : "");
    var key = form.querySelector("input[name=idempotency_key]");
    Q.add(link, { id: key ? key.value : undefined, match: match, body: body,
      label: form.dataset.label, summary: summary }).then(function () {
      form.reset();
      if (key) key.value = Q.uuid();
      status(interpolate(gettext("Game %(game)s kept on this phone: it is sent when the network is back."), {game: body.game_number}, true));
      if (navigator.serviceWorker) {
        navigator.serviceWorker.ready.then(function (reg) {
          if (reg.sync) return reg.sync.register("reports");
        }).catch(function () {});
      }
      return render();
    }).then(function () {
      Q.sync(link, matchIds);
      send();
      var heading = document.getElementById("game-h");
      if (heading && !form.hidden) heading.scrollIntoView({ block: "nearest" });
    });
  }

  panel.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.dismiss) {
      Q.remove(link, button.dataset.dismiss).then(render).then(function () {
        Q.sync(link, matchIds);
        send();
      });
    } else if (button.id === "send-now") {
      delay = 0;
      send();
    }
  });

  // A copy of the page read offline carries the keys it was loaded with: they may have
  // gone with a report since (kept, or sent). Each form gets a new one.
  if (document.documentElement.hasAttribute("data-offline-copy")) {
    document.querySelectorAll("input[name=idempotency_key]").forEach(function (k) { k.value = Q.uuid(); });
  }
  if (form) {
    form.querySelectorAll("select[name=cube]").forEach(function (c) {
      if (c.disabled) c.dataset.serverDisabled = "1";
    });
    form.addEventListener("submit", onSubmit);
  }
  window.addEventListener("online", function () { delay = 0; render(); send(); });
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
