/* The site's service worker, served at /sw.js (scope: the whole site) by
 * matches.offline.service_worker. What it does:
 *
 * - the private link's pages (/r/<key>/...), the brackets, draws, bracket sheets and
 *   match slips (/t/<slug>/<event>/...) and the match pages are fetched from the network
 *   and a copy kept; when the network fails, the copy last loaded is shown with a line
 *   saying it is an offline copy and when it was loaded. Live boards and scoreboards are
 *   never kept: a board must not show an old score as if it were now;
 * - the site's styles and scripts are kept and served at once (refreshed behind);
 * - a game report posted by the page's form while the network is down (the phone thinks
 *   it is online: the venue's Wi-Fi is up but goes nowhere) is kept in the queue
 *   (report-queue.js) instead of ending on the browser's error page;
 * - Background Sync, where the browser has it, sends the queue when the network is back
 *   (the page also does it by itself: Safari and Firefox have no Background Sync);
 * - the scripts' language catalogue (/jsi18n/<lang>/) is kept with the styles and scripts,
 *   so that a page read offline speaks its language; the worker's own lines (over a kept
 *   copy, or a page never kept) speak the kept page's language, else that of the last page
 *   kept here, else the browser's;
 * - the director's console: the match pages and the match grids a signed-in director
 *   opened are kept in a cache of their own, which holds one director's pages only: it is
 *   emptied when another director's page says who is signed in, when anyone logs in or
 *   out here (the other kept pages too: they show who was signed in), and when the
 *   server sends a kept page's address to the login page. A console score or games form
 *   posted into a dead network is kept in that director's queue (the console's pages
 *   send it: director-offline.js).
 */
"use strict";
importScripts("/static/js/idb-keyval.js", "/static/js/report-queue.js");

var PAGES = "bgd-pages-v1";
var STATIC = "bgd-static-v1";
var DIRECTOR = "bgd-director-v1";
/* In the director's cache: who its pages belong to ({user: id}). */
var OWNER = "/__director__";
var NETWORK_WAIT_MS = 6000;
/* In the static cache: the language of the last page kept. */
var LANGUAGE = "/__language__";
var LINES = {}; // every language's lines, written in by matches.offline
var PRECACHE = [
  "/static/css/site.css", "/static/css/print.css", "/static/css/public.css",
  "/static/matches/report.css", "/static/img/favicon.svg", "/static/img/icon-192.png",
  "/static/js/idb-keyval.js", "/static/js/report-queue.js", "/static/js/offline-reports.js",
  "/static/js/htmx.min.js", "/static/js/live-poll.js", "/static/js/page-url.js",
  "/static/css/console.css", "/static/js/director-offline.js"
];
/* Pages kept for offline reading. */
var KEPT = [
  /^\/r\/[A-Za-z0-9_-]+\/$/,                      // the private link (?match=... too)
  /^\/r\/[A-Za-z0-9_-]+\/(results|entries)\/$/,
  /^\/t\/[^/]+\/[^/]+\/$/,                        // an event: bracket or standings
  /^\/t\/[^/]+\/[^/]+\/(print|slips|final)\/$/,   // bracket sheet, match slips, final sheet
  /^\/t\/[^/]+\/[^/]+\/draws\/\d+\/$/,            // a draw
  /^\/matches\/\d+\/$/
];
var NEVER = /^\/t\/[^/]+\/(board|scoreboard)\//;
var GAME_POST = /^\/r\/([A-Za-z0-9_-]+)\/matches\/(\d+)\/game\/$/;
/* The director's pages kept (a match, an event's match grid) and forms queued. */
var DIRECTOR_KEPT = [
  /^\/director\/t\/[^/]+\/matches\/\d+\/$/,
  /^\/director\/t\/[^/]+\/events\/[^/]+\/matches\/$/
];
var DIRECTOR_POST = /^\/director\/t\/[^/]+\/matches\/(\d+)\/(score|games)\/$/;
var SIGN_IN_OUT = /^\/accounts\/(login|logout)\/$/;
/* Assets kept when a page names them: the site's static files and its language catalogues. */
var ASSET = /^\/(static|jsi18n)\//;

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(STATIC).then(function (cache) {
    return Promise.all(PRECACHE.map(function (url) {
      return cache.add(url).catch(function () { return null; });
    }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== PAGES && n !== STATIC && n !== DIRECTOR; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

function kept(path) {
  return !NEVER.test(path) && KEPT.some(function (re) { return re.test(path); });
}

/* The lines in ``lang`` (``de-AT`` is ``de``), else in the browser's first language the
 * site speaks, else in English. */
function linesIn(lang) {
  var wanted = [lang].concat(self.navigator.languages || []);
  for (var i = 0; i < wanted.length; i++) {
    var code = String(wanted[i] || "").toLowerCase();
    if (LINES[code]) return { lang: code, text: LINES[code] };
    if (LINES[code.split("-")[0]]) return { lang: code.split("-")[0], text: LINES[code.split("-")[0]] };
  }
  return { lang: "en", text: LINES.en };
}

function pageLanguage(html) {
  var found = /<html[^>]*\slang="([^"]+)"/.exec(html);
  return found ? found[1] : "";
}

/* A copy of a page response, stamped with when this phone loaded it. */
function stamped(response) {
  return response.clone().text().then(function (body) {
    var lang = pageLanguage(body);
    if (lang) {
      caches.open(STATIC).then(function (cache) { return cache.put(LANGUAGE, new Response(lang)); })
        .catch(function () { return null; });
    }
    var headers = new Headers(response.headers);
    headers.set("X-Loaded-At", new Date().toISOString());
    return new Response(body, { status: response.status, statusText: response.statusText, headers: headers });
  });
}

function keep(request, response, cacheName) {
  if (!response || response.status !== 200 || response.redirected || response.type !== "basic") return Promise.resolve();
  return stamped(response).then(function (copy) {
    return caches.open(cacheName || PAGES).then(function (cache) { return cache.put(request.url, copy); });
  });
}

/* --- the director's pages: one signed-in director's at a time --- */

function directorPath(path) {
  return DIRECTOR_KEPT.some(function (re) { return re.test(path); });
}

function owner() {
  return caches.open(DIRECTOR).then(function (cache) {
    return cache.match(OWNER).then(function (r) { return r ? r.json() : null; });
  }).then(function (o) { return o && o.user ? String(o.user) : ""; }, function () { return ""; });
}

function forgetDirector() {
  return caches.delete(DIRECTOR);
}

/* A console page says who is signed in: another director's pages go first. */
function ownedBy(user) {
  user = String(user || "");
  return owner().then(function (was) {
    if (was === user) return null;
    return forgetDirector().then(function () {
      if (!user) return null;
      return caches.open(DIRECTOR).then(function (cache) {
        return cache.put(OWNER, new Response(JSON.stringify({ user: user }), { headers: { "Content-Type": "application/json" } }));
      });
    });
  });
}

/* Keep a director's page, while the director it belongs to is the one signed in here: a
 * kept page's address answered by the login page means nobody is (the pages go). */
function keepDirector(request, response) {
  if (response && response.redirected && new URL(response.url).pathname.indexOf("/accounts/login/") === 0) {
    return forgetDirector();
  }
  return owner().then(function (user) { return user ? keep(request, response, DIRECTOR) : null; });
}

function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; });
}

/* The kept copy, with a line (in the page's language) saying it is one and when it was loaded. */
function offlineCopy(cached) {
  var loadedAt = cached.headers.get("X-Loaded-At") || "";
  var when = loadedAt ? new Date(loadedAt) : null;
  return cached.text().then(function (html) {
    var lines = linesIn(pageLanguage(html));
    var label = when ? when.toLocaleString(lines.lang, { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" }) : lines.text.earlier;
    var time = '<time datetime="' + escapeHtml(loadedAt) + '">' + escapeHtml(label) + "</time>";
    var line = '<p class="offline-copy" role="status"><strong>' + escapeHtml(lines.text.offline) + "</strong> " +
      escapeHtml(lines.text.loaded_at).replace("{time}", time) + "</p>";
    html = html.replace(/<html([^>]*)>/, '<html$1 data-offline-copy="' + escapeHtml(loadedAt) + '">');
    html = html.indexOf('<main id="main">') >= 0
      ? html.replace('<main id="main">', '<main id="main">' + line)
      : html.replace(/<body([^>]*)>/, "<body$1>" + line);  // pages of their own (slips, sheets)
    var headers = new Headers(cached.headers);
    headers.delete("Content-Length");
    return new Response(html, { status: 200, headers: headers });
  });
}

/* A page never opened here, in the language of the last page kept here. */
function notKept() {
  return caches.open(STATIC).then(function (cache) { return cache.match(LANGUAGE); })
    .then(function (r) { return r ? r.text() : ""; }, function () { return ""; })
    .then(function (lang) {
      var lines = linesIn(lang);
      var html = '<!doctype html><html lang="' + escapeHtml(lines.lang) + '" data-offline-copy=""><head><meta charset="utf-8">' +
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + escapeHtml(lines.text.title) + "</title>" +
        '<link rel="stylesheet" href="/static/css/site.css"></head><body><main id="main">' +
        '<p class="offline-copy" role="status"><strong>' + escapeHtml(lines.text.offline) + "</strong> " +
        escapeHtml(lines.text.not_kept) + "</p><p>" + escapeHtml(lines.text.still_read) + "</p></main></body></html>";
      return new Response(html, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
    });
}

/* Network first; the kept copy when the network fails (or is slow and a copy exists). */
function page(event, director) {
  var request = event.request;
  var network = fetch(request).then(function (response) {
    event.waitUntil(director ? keepDirector(request, response) : keep(request, response));
    return response;
  });
  var copy = director
    ? owner().then(function (user) {
        return user ? caches.open(DIRECTOR).then(function (c) { return c.match(request.url, { ignoreVary: true }); }) : null;
      })
    : caches.open(PAGES).then(function (c) { return c.match(request.url, { ignoreVary: true }); });
  return copy.then(function (cached) {
    if (!cached) return network.catch(notKept);
    var slow = new Promise(function (resolve) { setTimeout(resolve, NETWORK_WAIT_MS, null); });
    return Promise.race([network.catch(function () { return null; }), slow]).then(function (response) {
      return response || offlineCopy(cached);
    });
  });
}

/* Styles, scripts and language catalogues: the kept copy at once, refreshed behind. */
function asset(event) {
  var request = event.request;
  return caches.open(STATIC).then(function (cache) {
    return cache.match(request, { ignoreVary: true }).then(function (cached) {
      var network = fetch(request).then(function (response) {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      if (cached) { event.waitUntil(network.catch(function () { return null; })); return cached; }
      return network;
    });
  });
}

/* The page's form posted a game while the network is down: kept in the queue, and the
 * player is taken back to the match (its kept copy shows the report waiting). */
function gamePost(event, link, matchId) {
  var request = event.request;
  var copy = request.clone();
  return fetch(request).catch(function () {
    return copy.formData().then(function (form) {
      var body = { winner: Number(form.get("winner")), cube: Number(form.get("cube") || 1),
        result: form.get("result") || "single", ended_by: form.get("ended_by") || "play",
        game_number: Number(form.get("game_number")) };
      return self.ReportQueue.add(link, { id: form.get("idempotency_key") || undefined,
        match: Number(matchId), body: body, label: "", summary: "" });
    }).then(function () {
      if (self.registration.sync) self.registration.sync.register("reports").catch(function () {});
      // Back to the match's page if this phone keeps it, else to the link's page.
      var page = self.location.origin + "/r/" + link + "/";
      return caches.match(page + "?match=" + matchId, { ignoreVary: true }).then(function (kept) {
        return Response.redirect(kept ? page + "?match=" + matchId : page, 303);
      });
    });
  });
}

/* A director's score or games form posted while the network is down: kept in the signed-in
 * director's queue (without its CSRF token: the page that sends it adds its own), and the
 * director is taken back to the match's kept page. */
function directorPost(event, matchId, kind) {
  var request = event.request;
  var copy = request.clone();
  return fetch(request).catch(function () {
    return owner().then(function (user) {
      if (!user) return Response.error();
      return copy.formData().then(function (form) {
        var fields = [];
        form.forEach(function (value, name) {
          if (name !== "csrfmiddlewaretoken" && name !== "idempotency_key" && typeof value === "string") fields.push([name, value]);
        });
        return self.ReportQueue.add("director:" + user, { id: form.get("idempotency_key") || undefined,
          match: Number(matchId), url: new URL(request.url).pathname, fields: fields, kind: kind,
          label: "", summary: "" });
      }).then(function () {
        var page = new URL(request.url).pathname.replace(/(score|games)\/$/, "");
        return Response.redirect(self.location.origin + page, 303);
      });
    });
  });
}

/* Logging in or out here: the kept pages go (the director's, and the others, which show
 * who was signed in), whoever comes next. The queues stay: nothing unsent is dropped. */
function signInOut(event) {
  return Promise.all([forgetDirector(), caches.delete(PAGES)]).then(function () { return fetch(event.request); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && request.mode === "navigate") {
    var post = GAME_POST.exec(url.pathname);
    if (post) { event.respondWith(gamePost(event, post[1], post[2])); return; }
    var form = DIRECTOR_POST.exec(url.pathname);
    if (form) { event.respondWith(directorPost(event, form[1], form[2])); return; }
    if (SIGN_IN_OUT.test(url.pathname)) { event.respondWith(signInOut(event)); return; }
    return;
  }
  if (request.method !== "GET") return;
  if (ASSET.test(url.pathname)) { event.respondWith(asset(event)); return; }
  if (request.mode !== "navigate") return;
  if (kept(url.pathname)) event.respondWith(page(event, false));
  else if (directorPath(url.pathname)) event.respondWith(page(event, true));
});

/* Background Sync (Chromium): the queue goes out when the network is back, page open or not. */
self.addEventListener("sync", function (event) {
  if (event.tag === "reports") event.waitUntil(self.ReportQueue.flushAll());
});

/* The assets a page was shown with (its styles, scripts and language catalogue), kept. */
function keepAssets(urls) {
  return caches.open(STATIC).then(function (cache) {
    return Promise.all((urls || []).map(function (u) {
      var url = new URL(u, self.location.origin);
      if (url.origin !== self.location.origin || !ASSET.test(url.pathname)) return null;
      return cache.match(url.href, { ignoreVary: true }).then(function (hit) {
        return hit || cache.add(url.href).catch(function () { return null; });
      });
    }));
  });
}

/* A page asks for pages to be kept (the player's other open matches, the page itself) and
 * the assets it was shown with, while online; a console page first says who is signed in
 * (``director``: the user's id). */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  var who = "director" in data ? ownedBy(data.director) : Promise.resolve();
  event.waitUntil(who.then(function () {
    return Promise.all(data.urls.map(function (u) {
      var url = new URL(u, self.location.origin);
      if (url.origin !== self.location.origin) return null;
      var director = "director" in data && data.director && directorPath(url.pathname);
      if (!director && !kept(url.pathname)) return null;
      return fetch(url.href, { credentials: "same-origin" }).then(function (response) {
        return director ? keepDirector(new Request(url.href), response) : keep(new Request(url.href), response);
      }).catch(function () { return null; });
    }).concat([keepAssets(data.assets)]));
  }).then(function () {
    if (event.source) event.source.postMessage({ type: "kept", urls: data.urls });
  }));
});
