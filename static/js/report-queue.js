/* The reports a device keeps until the server has them: shared by the private link's page
 * (offline-reports.js), the console's pages (director-offline.js) and the service worker
 * (sw.js). No DOM here.
 *
 * Each report is kept in IndexedDB (idb-keyval, vendored) under its queue, in the order
 * it was made, with its own Idempotency-Key: sending it twice (the page and the service
 * worker at once, an answer lost on the way back) records it once. A queue is a player's
 * link (its game reports go to the API with the link's key) or a signed-in director's
 * ("director:<user id>": the console's forms, posted as the page posts them, sent only by
 * that director's own pages). Reports go out oldest first; a report the server refuses
 * stays, marked "attention" with the server's reason, and the later reports of the same
 * match wait behind it until it is dealt with. Nothing is ever dropped except by hand.
 */
(function (root) {
  "use strict";
  var idb = root.idbKeyval;
  var store = idb.createStore("bgdirector-reports", "queue");
  var LOCK = "bgdirector-report-queue";

  var DIRECTOR = "director:";

  /* The store's key of a queue: a link's, or a director's as it is named. */
  function linkKey(link) { return String(link).indexOf(DIRECTOR) === 0 ? link : "link:" + link; }

  function uuid() {
    if (root.crypto && root.crypto.randomUUID) return root.crypto.randomUUID();
    var b = root.crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64; b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  /* One sender at a time (page tabs and the service worker): Web Locks where there are
   * some; without them two senders are still safe, thanks to the keys. */
  function locked(fn) {
    if (root.navigator && root.navigator.locks) return root.navigator.locks.request(LOCK, fn);
    return fn();
  }

  function list(link) {
    return idb.get(linkKey(link), store).then(function (items) { return items || []; });
  }

  function links() {
    return idb.keys(store).then(function (keys) {
      return keys.filter(function (k) { return String(k).indexOf("link:") === 0; })
        .map(function (k) { return String(k).slice(5); });
    });
  }

  function change(link, fn) {
    return idb.update(linkKey(link), function (items) { return fn(items || []); }, store);
  }

  function same(a, b) {
    return a.match === b.match && JSON.stringify(a.body || a.fields) === JSON.stringify(b.body || b.fields);
  }

  /* Keep a report: ``item`` has match, body (the API's game report) or url and fields
   * (a console form), and what the page shows of it (label, summary); returns it with
   * its id (the Idempotency-Key). The same report kept twice is kept once; another
   * report that came with a key already kept (a page's copy shown again) gets a new one. */
  function add(link, item) {
    item.id = item.id || uuid();
    item.link = link;
    item.state = "queued";
    item.queuedAt = item.queuedAt || new Date().toISOString();
    return change(link, function (items) {
      var kept = items.find(function (i) { return i.id === item.id; });
      if (kept && same(kept, item)) return items;
      if (kept) item.id = uuid();
      items.push(item);
      return items;
    }).then(function () { return item; });
  }

  function remove(link, id) {
    return change(link, function (items) { return items.filter(function (i) { return i.id !== id; }); });
  }

  function mark(link, id, fields) {
    return change(link, function (items) {
      return items.map(function (i) { return i.id === id ? Object.assign({}, i, fields) : i; });
    });
  }

  /* What the director should do about a refused console form. */
  function directorAdvice(code, status, gettext) {
    var say = {
      "match-started": gettext("Players reported games of this match meanwhile: open the match and settle it from their games (the match's reports page)."),
      "match-closed": gettext("The match was decided meanwhile: open it to see its result, and correct it there if it is wrong."),
      "unlikely-score": gettext("The score is unlikely: open the match, tick the box to confirm it, and save it again."),
      "invalid": gettext("Open the match and enter it again, corrected.")
    }[code];
    if (say) return say;
    if (status === 404) return gettext("This match is not in a tournament you direct any more.");
    return gettext("Open the match to see what is recorded, and enter the result again if it is still needed.");
  }

  /* What the player (or, for a console form, the director) should do about a refusal, by
   * the server's code. */
  function advice(code, status, director) {
    // The page's catalogue (jsi18n) when there is one; English in the service worker.
    var gettext = (typeof self !== "undefined" && self.gettext) || function (text) { return text; };
    var say = {
      "game-already-recorded": gettext("This game was recorded before yours arrived (your opponent or the director reported it). Check the games on this page; if the record is wrong, dispute the match."),
      "conflicting-report": gettext("Tell the director what you reported for this game: the director settles the match from both reports."),
      "game-out-of-order": gettext("An earlier game of this match is missing or was refused. Open the match to see what is recorded, then report the missing game."),
      "match-closed": gettext("The director has decided or corrected this match. Check the result with the director."),
      "match-disputed": gettext("This match is disputed: the director settles it. Tell the director what you reported."),
      "match-not-ready": gettext("This match cannot take results yet. Ask the director."),
      "idempotency-key-reused": gettext("Report the game again from the form."),
      "throttled": gettext("Too many reports at once: it is sent again by itself.")
    }[code];
    if (director) return directorAdvice(code, status, gettext);
    if (say) return say;
    if (status === 403 || status === 404) return gettext("This link cannot report this match any more. Ask the director.");
    return gettext("Check the match against your scoresheet, report the game again if it is missing, or tell the director.");
  }

  /* Send one report: a link's game to the API with its key in the header; a console form
   * posted as its page posts it, with its key in the form and the page's CSRF token,
   * asking for the API's JSON answer. */
  function post(link, item, options) {
    if (item.fields) {
      var form = new URLSearchParams();
      item.fields.forEach(function (f) { form.append(f[0], f[1]); });
      form.set("idempotency_key", item.id);
      return fetch(item.url, {
        method: "POST", credentials: "same-origin", cache: "no-store", redirect: "manual",
        headers: { "Accept": "application/json", "X-CSRFToken": (options && options.csrf) || "" },
        body: form
      });
    }
    var headers = { "Content-Type": "application/json", "Accept": "application/json",
      "X-Report-Key": item.reportKey || link, "Idempotency-Key": item.id };
    return fetch("/api/matches/" + item.match + "/games/", {
      method: "POST", credentials: "omit", cache: "no-store", headers: headers,
      body: JSON.stringify(item.body)
    });
  }

  /* Send the queue's reports, oldest first (``options.csrf``: a director's page's token).
   * Resolves to {sent, refused, retry, retryAfter, touched, signedOut}: ``retry`` when the
   * network or the server failed (try later). */
  function flush(link, options) {
    return locked(function () {
      var result = { sent: 0, refused: 0, retry: false, retryAfter: 0, touched: {}, signedOut: false };
      function step() {
        return list(link).then(function (items) {
          var held = {};
          items.forEach(function (i) { if (i.state === "attention") held[i.match] = true; });
          var next = items.find(function (i) { return i.state === "queued" && !held[i.match]; });
          if (!next) return result;
          result.touched[next.match] = true;
          return post(link, next, options).then(function (res) {
            if (res.status >= 200 && res.status < 300) {
              return remove(link, next.id).then(function () { result.sent += 1; return step(); });
            }
            // A console form met the login page or a stale CSRF token: the director is
            // signed out here; the report stays queued until they sign in again.
            if (res.type === "opaqueredirect" || (next.fields && res.status === 403)) {
              result.retry = true;
              result.signedOut = true;
              return result;
            }
            if (res.status === 429 || res.status >= 500) {
              result.retry = true;
              result.retryAfter = parseInt(res.headers.get("Retry-After") || "0", 10) || 0;
              return result;
            }
            return res.json().catch(function () { return {}; }).then(function (data) {
              result.refused += 1;
              return mark(link, next.id, {
                state: "attention", code: data.code || String(res.status),
                reason: data.message || ("The server answered " + res.status + "."),
                advice: advice(data.code, res.status, !!next.fields), refusedAt: new Date().toISOString()
              }).then(step);
            });
          }, function () { result.retry = true; return result; });
        });
      }
      return step();
    });
  }

  /* Per match, how many reports wait and how many need the player. */
  function counts(items) {
    var by = {};
    items.forEach(function (i) {
      var c = by[i.match] = by[i.match] || { unsent: 0, attention: 0 };
      if (i.state === "attention") c.attention += 1; else c.unsent += 1;
    });
    return by;
  }

  /* Tell the server what this phone holds for ``matchIds`` (and any match with reports). */
  function sync(link, matchIds) {
    return list(link).then(function (items) {
      var by = counts(items);
      var ids = {};
      (matchIds || []).forEach(function (m) { ids[m] = true; });
      Object.keys(by).forEach(function (m) { ids[m] = true; });
      var matches = Object.keys(ids).map(function (m) {
        var c = by[m] || { unsent: 0, attention: 0 };
        return { match: Number(m), unsent: c.unsent, attention: c.attention };
      });
      if (!matches.length) return null;
      return fetch("/api/devices/sync/", {
        method: "POST", credentials: "omit", cache: "no-store",
        headers: { "Content-Type": "application/json", "X-Report-Key": link },
        body: JSON.stringify({ matches: matches })
      }).then(function (res) { return res.ok ? res.json() : null; }, function () { return null; });
    });
  }

  /* Every link's queue (the service worker's Background Sync). */
  function flushAll() {
    return links().then(function (all) {
      return all.reduce(function (done, link) {
        return done.then(function () {
          return flush(link).then(function (r) {
            return sync(link, Object.keys(r.touched)).then(function () { return r; });
          });
        });
      }, Promise.resolve());
    });
  }

  root.ReportQueue = { add: add, list: list, remove: remove, mark: mark, flush: flush,
    flushAll: flushAll, sync: sync, counts: counts, uuid: uuid, advice: advice };
})(self);
