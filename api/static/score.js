/* domino-referee: the scorekeeper's page for phones (docs/pages.md, "The scorekeeper's page").
   Plain JavaScript, no library, no build step. Everything it shows comes from the REST API:
   the match screen (GET /api/v1/matches/{id}) says what the seat on turn may do, which tiles
   are not seen, what may be undone; the page draws it and sends taps, deciding no rule.

   The token is kept in localStorage and sent only as an Authorization header. Every tap is an
   append with If-Match (the last seq shown) and an Idempotency-Key made before the first try;
   the tap is kept in localStorage until it is answered, and retried with the same key (after a
   network failure, a 503, a reload), so a tap is stored once whatever the Wi-Fi does. */
(function () {
  "use strict";

  var PREFIX = "domino-referee.score.";
  var TOKEN = PREFIX + "token";
  var DEVICE = PREFIX + "device";
  var COUNTER = PREFIX + "counter";
  var POLL = PREFIX + "poll";  // ms between polls of the screen (0: no polling); tests set it
  var RETRY_MS = [500, 1000, 2000, 4000, 5000];

  var store = window.localStorage;
  var body = document.body;
  var messageBox = document.getElementById("message");
  window.scoreTimings = [];  // ms from each tap to its answer drawn (read by the browser test)
  window.scoreReady = [];  // ms from each tap to the next screen's controls (the same)

  // ------------------------------------------------------------------ small helpers

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      var value = attrs[name];
      if (value === null || value === undefined || value === false) return;
      if (name === "text") node.textContent = value;
      else node.setAttribute(name, value === true ? "" : value);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
    });
    return node;
  }

  function say(text, kind) {
    messageBox.textContent = "";
    messageBox.className = "message" + (kind ? " " + kind : "");
    if (text) messageBox.appendChild(typeof text === "string" ? document.createTextNode(text) : text);
  }

  function token() { return store.getItem(TOKEN); }

  function newKey() {
    var device = store.getItem(DEVICE);
    if (!device) {
      var bytes = new Uint8Array(8);
      window.crypto.getRandomValues(bytes);
      device = Array.prototype.map.call(bytes, function (b) {
        return (b + 256).toString(16).slice(1);
      }).join("");
      store.setItem(DEVICE, device);
    }
    var counter = Number(store.getItem(COUNTER) || "0") + 1;
    store.setItem(COUNTER, String(counter));
    return "phone-" + device + "-" + counter;
  }

  function setNet(state, text) {
    var net = document.getElementById("net");
    net.setAttribute("data-net", state);
    document.getElementById("net-text").textContent = text;
  }

  function onlineText() {
    if (!navigator.onLine) setNet("offline", "Offline");
    else setNet("online", "Online");
  }

  // An API call with the token as a bearer header: resolves {status, body, headers}; rejects
  // only when no answer came (the network).
  function api(method, path, options) {
    options = options || {};
    var headers = Object.assign({"Accept": "application/json"}, options.headers || {});
    if (token()) headers["Authorization"] = "Bearer " + token();
    var init = {method: method, headers: headers, cache: "no-store"};
    if (options.json !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(options.json);
    }
    return fetch(path, init).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      var read = type.indexOf("json") >= 0 ? response.json() : Promise.resolve(null);
      return read.then(function (data) {
        return {status: response.status, body: data, headers: response.headers};
      });
    });
  }

  function problemText(answer) {
    var b = answer.body || {};
    return b.detail || b.title || ("the server answered " + answer.status);
  }

  function signOut() {
    store.removeItem(TOKEN);
    window.location.href = "/score";
  }

  function showWho(me) {
    var who = document.getElementById("who");
    var out = document.getElementById("sign-out");
    who.textContent = me ? "Signed in to " + me.club + " as " + (me.label || me.role) +
      " (" + me.role + ")." : "";
    out.hidden = !me;
  }

  function whoAmI() {
    return api("GET", "/score/me").then(function (answer) {
      if (answer.status === 200) return answer.body;
      if (answer.status === 401) store.removeItem(TOKEN);
      return null;
    });
  }

  document.getElementById("sign-out").addEventListener("click", signOut);
  window.addEventListener("online", onlineText);
  window.addEventListener("offline", onlineText);
  onlineText();

  // ------------------------------------------------------------------ /score

  function startPage() {
    var form = document.getElementById("sign-in");
    var club = document.getElementById("club");

    function signedIn(me) {
      showWho(me);
      form.hidden = true;
      club.hidden = false;
      loadLive(me.club);
      loadPlayers(me.club);
      setUpNewMatch(me.club);
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var typed = document.getElementById("token").value.trim();
      if (!typed) return;
      store.setItem(TOKEN, typed);
      say("Signing in…");
      whoAmI().then(function (me) {
        if (!me) { say("That token is not known here: check it and try again.", "error"); return; }
        say("");
        document.getElementById("token").value = "";
        signedIn(me);
      }, function () { say("No answer from the server: check the Wi-Fi and try again.", "error"); });
    });

    if (!token()) { form.hidden = false; return; }
    whoAmI().then(function (me) {
      if (me) signedIn(me);
      else { form.hidden = false; say("Sign in again: the kept token was refused.", "error"); }
    }, function () { say("No answer from the server: check the Wi-Fi, then reload.", "error"); });
  }

  function loadLive(clubSlug) {
    var list = document.getElementById("live");
    api("GET", "/api/v1/clubs/" + encodeURIComponent(clubSlug) +
        "/matches?status=in_progress&limit=50").then(function (answer) {
      if (answer.status !== 200) { say(problemText(answer), "error"); return; }
      list.textContent = "";
      answer.body.forEach(function (m) {
        var label = m.players.join(", ") + (m.table ? " · table " + m.table : "") +
          (m.round ? " · round " + m.round : " · not dealt") + " · " + m.totals.join("–");
        list.appendChild(el("li", {}, [
          el("a", {href: "/score/matches/" + m.id, "class": "match-link"},
             ["Match " + m.id, el("span", {"class": "muted", text: " " + label})])]));
      });
      document.getElementById("no-live").hidden = answer.body.length > 0;
    });
  }

  function loadPlayers(clubSlug) {
    api("GET", "/api/v1/clubs/" + encodeURIComponent(clubSlug) + "/players?limit=500")
      .then(function (answer) {
        if (answer.status !== 200) return;
        var list = document.getElementById("club-players");
        list.textContent = "";
        answer.body.forEach(function (p) { list.appendChild(el("option", {value: p.name})); });
      });
  }

  function setUpNewMatch(clubSlug) {
    var form = document.getElementById("new-match");
    var preset = document.getElementById("preset");
    var pendingKey = PREFIX + "create." + clubSlug;

    function showSeats() {
      var option = preset.options[preset.selectedIndex];
      var counts = option.getAttribute("data-seats").split(",").map(Number);
      var most = Math.max.apply(null, counts);
      document.querySelectorAll(".seat").forEach(function (seat) {
        var n = Number(seat.getAttribute("data-seat"));
        seat.hidden = n >= most;
        seat.querySelector("input").required = n < Math.min.apply(null, counts);
      });
    }
    preset.addEventListener("change", showSeats);
    showSeats();

    function create(request) {
      say("Starting the match…");
      setNet("saving", "Saving…");
      api("POST", "/api/v1/clubs/" + encodeURIComponent(clubSlug) + "/matches",
          {json: request.body, headers: {"Idempotency-Key": request.key}}).then(function (answer) {
        onlineText();
        if (answer.status === 503) { setTimeout(function () { create(request); }, 2000); return; }
        store.removeItem(pendingKey);
        if (answer.status === 201) { window.location.href = "/score/matches/" + answer.body.id; return; }
        say(problemText(answer), "error");
        messageBox.scrollIntoView({block: "nearest"});  // the form is further down a phone
      }, function () {
        setNet("offline", "Offline: will retry");
        setTimeout(function () { create(request); }, 2000);
      });
    }

    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (store.getItem(pendingKey)) return;  // one start at a time
      var players = [];
      document.querySelectorAll(".seat").forEach(function (seat) {
        var value = seat.querySelector("input").value.trim();
        if (!seat.hidden && value) players.push(value);
      });
      var request = {key: newKey(), body: {rules: preset.value, players: players}};
      if (document.getElementById("new-players").checked) request.body["new"] = true;
      var table = document.getElementById("table").value.trim();
      if (table) request.body.table = table;
      store.setItem(pendingKey, JSON.stringify(request));
      create(request);
    });
    var kept = store.getItem(pendingKey);
    if (kept) create(JSON.parse(kept));  // a start that got no answer before a reload
  }

  // ------------------------------------------------------------------ /score/matches/{id}

  function matchPage() {
    var matchId = body.getAttribute("data-match");
    var pendingKey = PREFIX + "pending." + matchId;
    var stateBox = document.getElementById("state");
    var actions = document.getElementById("actions");
    var screen = null;
    var etag = null;
    var pending = null;  // the tap in flight: {key, event, seq, at}
    var retries = 0;
    var retryTimer = null;
    var refused = null;  // the last refused event, for "record as disputed"
    var pollMs = store.getItem(POLL) === null ? 4000 : Number(store.getItem(POLL));

    if (!token()) {
      say(el("span", {}, ["Sign in first: ", el("a", {href: "/score", text: "the sign-in page"}), "."]), "error");
      stateBox.setAttribute("aria-busy", "false");
      document.getElementById("loading").textContent = "Not signed in.";
      return;
    }
    whoAmI().then(showWho, function () {});

    function load(quiet) {
      var headers = quiet && etag ? {"If-None-Match": etag} : {};
      return api("GET", "/api/v1/matches/" + matchId, {headers: headers}).then(function (answer) {
        if (!pending) onlineText();
        if (answer.status === 304) return true;
        if (answer.status !== 200) {
          say(problemText(answer), "error");
          if (answer.status === 401) store.removeItem(TOKEN);
          return false;
        }
        etag = answer.headers.get("ETag");
        screen = answer.body;
        draw();
        return true;
      }, function () {
        if (!pending) setNet("offline", "Offline");
        return false;
      });
    }

    // -------------------------------------------------------------- drawing the screen

    function tileNode(name) {
      var pips = name.split("-");
      return el("span", {"class": "tile" + (pips[0] === pips[1] ? " double" : ""),
                         "data-tile": name, role: "img", "aria-label": pips[0] + "–" + pips[1]},
                [el("span", {"class": "half", text: pips[0]}), el("span", {"class": "half", text: pips[1]})]);
    }

    function seatName(seat) { return screen.players[seat]; }

    function dl(pairs) {
      var list = el("dl", {"class": "facts"});
      pairs.forEach(function (p) {
        list.appendChild(el("div", {}, [el("dt", {text: p[0]}), el("dd", {}, [p[1]])]));
      });
      return list;
    }

    function phaseText(s) {
      if (s.finished) return "Match over" + (s.winner_name ? ": " + s.winner_name + " won" : "");
      var words = {before_first_deal: "Not dealt yet", in_progress: "In play", domino: "Domino",
                   blocked: "Blocked", annulled: "Annulled", awaiting_reveal: "Waiting on reveals"};
      return (s.round ? "Round " + s.round + ": " : "") + (words[s.phase] || s.phase);
    }

    function draw() {
      drawState();
      drawActions();
    }

    // The table part of the screen; after a tap it is drawn at once from the append's answer
    // (its "position": the API's own state after the event), the controls a moment later
    // from the screen read again.
    function drawState() {
      var s = screen;
      stateBox.setAttribute("data-seq", String(s.seq));
      stateBox.setAttribute("aria-busy", "false");
      stateBox.textContent = "";
      document.getElementById("title").textContent = "Match " + s.id + (s.table ? " · table " + s.table : "");
      stateBox.appendChild(el("p", {"class": "phase", id: "phase", text: phaseText(s)}));
      if (s.turn !== null) {
        stateBox.appendChild(el("p", {"class": "turn", id: "turn"}, [
          "To play: ", el("strong", {text: s.turn_name}), " (seat " + s.turn + ")"]));
      } else if (s.may_lead_names.length) {
        stateBox.appendChild(el("p", {"class": "turn", id: "turn"}, [
          "To lead: ", el("strong", {text: s.may_lead_names.join(" or ")})]));
      }
      var line = el("div", {"class": "line", id: "line", role: "list", "aria-label": "The line of play, left to right"});
      s.line.forEach(function (t) { var item = tileNode(t); item.setAttribute("role", "listitem"); item.removeAttribute("aria-label"); item.appendChild(el("span", {"class": "visually-hidden", text: t.replace("-", "–")})); line.appendChild(item); });
      if (!s.line.length) line.appendChild(el("p", {"class": "muted", text: "No tile on the line."}));
      stateBox.appendChild(line);
      var totals = el("table", {"class": "totals", id: "totals"}, [
        el("caption", {text: "Score (to " + s.rules.target + ")"}),
        el("tbody", {}, s.sides.map(function (name, i) {
          return el("tr", {}, [el("th", {scope: "row", text: name}), el("td", {text: String(s.totals[i])})]);
        }))]);
      var counts = el("table", {"class": "counts", id: "counts"}, [
        el("caption", {text: "Tiles in hand"}),
        el("tbody", {}, s.players.map(function (name, i) {
          return el("tr", {"class": s.turn === i ? "on-turn" : null}, [
            el("th", {scope: "row", text: name}), el("td", {text: String(s.counts[i])})]);
        }))]);
      stateBox.appendChild(el("div", {"class": "tables"}, [totals, counts]));
      stateBox.appendChild(dl([
        ["Open ends", s.ends ? s.ends.join(" and ") : "none"],
        ["Boneyard", String(s.boneyard)],
        ["Event", String(s.seq)]]));
      if (s.disputes.length) {
        var list = el("ul", {"class": "disputes", id: "disputes"});
        s.disputes.forEach(function (d) {
          list.appendChild(el("li", {"data-dispute": String(d.seq)}, [
            el("strong", {text: "Event " + d.seq + ", " + d.code.replace(/_/g, " ") + ": "}), d.message]));
        });
        stateBox.appendChild(el("section", {"class": "open-disputes", "aria-labelledby": "disputes-h"}, [
          el("h2", {id: "disputes-h", text: "Open disputes (" + s.disputes.length + ")"}), list]));
      }
    }

    // The screen with an append's answer laid over it: the state after the event, the names
    // of whose turn and who won looked up by seat and side (until the screen is read again).
    function withPosition(position) {
      var s = Object.assign({}, screen, position);
      s.turn_name = s.turn === null ? null : s.players[s.turn];
      s.may_lead_names = s.may_lead.map(function (seat) { return s.players[seat]; });
      s.winner_name = s.winner === null ? null : s.sides[s.winner];
      // What the answer does not carry is left out rather than shown stale.
      s.unseen = []; s.unseen_plays = []; s.leads = []; s.undo = null;
      return s;
    }

    function eventButton(event, label, extra) {
      var attrs = Object.assign({type: "button", "data-event": JSON.stringify(event)}, extra || {});
      return el("button", attrs, Array.isArray(label) ? label : [label]);
    }

    // A play as its button sends it: "end" only when the tile fits both ends (it is offered
    // once per end), as the log wants it.
    function playButtons(plays, seat) {
      var seen = {};
      plays.forEach(function (p) { seen[p.tile] = (seen[p.tile] || 0) + 1; });
      return plays.map(function (p) {
        var event = {type: "play", seat: seat, tile: p.tile};
        if (seen[p.tile] > 1 && p.end !== null) event.end = p.end;
        var where = p.end === null ? "" : " on " + p.end;
        return eventButton(event, [tileNode(p.tile), el("span", {"class": "where", text: where})],
                           {"class": "tap play", "aria-label": "Play " + p.tile + where});
      });
    }

    function group(title, nodes, id) {
      return el("section", {"class": "group", id: id || null, "aria-label": title}, [
        el("h2", {text: title}), el("div", {"class": "buttons"}, nodes)]);
    }

    function tilesOf(text) {
      // "6-5 4-4", "65,44": each tile as "a-b"; what is no tile is left for the referee to refuse.
      return text.split(/[\s,;]+/).filter(Boolean).map(function (t) {
        return /^\d\d$/.test(t) ? t[0] + "-" + t[1] : t;
      });
    }

    function drawActions() {
      var s = screen;
      actions.textContent = "";
      if (refused) {
        var disputed = Object.assign({}, refused.event, {disputed: true});
        actions.appendChild(el("section", {"class": "group refused", id: "refused", "aria-label": "Refused"}, [
          el("p", {}, [el("strong", {text: "Refused. "}), "Record it anyway, marked disputed, for a referee to rule on?"]),
          el("div", {"class": "buttons"}, [
            eventButton(disputed, "Record as disputed", {"class": "tap warn", id: "record-disputed"}),
            el("button", {type: "button", "class": "tap secondary", id: "dismiss"}, ["Dismiss"])])]));
      }
      var legal = s.legal;
      var playing = s.phase === "in_progress" && !s.finished;
      if (playing && legal.seat !== null) {
        var seat = legal.seat;
        var name = seatName(seat);
        if (legal.plays && legal.plays.length) actions.appendChild(group(name + " plays", playButtons(legal.plays, seat), "plays"));
        if (s.unseen_plays.length) {
          actions.appendChild(group(name + " plays a tile not seen yet", playButtons(s.unseen_plays, seat), "unseen-plays"));
        }
        var moves = [];
        if (legal.draw || s.boneyard > 0) {
          moves.push(eventButton({type: "draw", seat: seat}, "Draws (unseen)", {"class": "tap" + (legal.draw ? "" : " secondary")}));
        }
        moves.push(eventButton({type: "pass", seat: seat}, name + " passes", {"class": "tap" + (legal.pass ? "" : " secondary")}));
        var plain = !(legal.plays && legal.plays.length) && !s.unseen_plays.length;
        actions.appendChild(group(plain ? name + " draws or passes" : "Or", moves, "moves"));
        if ((legal.draw || s.boneyard > 0) && s.unseen.length) {
          var drawn = s.unseen.map(function (t) {
            return eventButton({type: "draw", seat: seat, tile: t}, [tileNode(t)],
                               {"class": "tap small", "aria-label": "Draws " + t});
          });
          var details = el("details", {"class": "group", id: "draw-seen"}, [
            el("summary", {text: name + " draws a tile shown to the table"}), el("div", {"class": "buttons"}, drawn)]);
          actions.appendChild(details);
        }
      }
      if (playing && s.leads.length) {
        var bySeat = {};
        s.leads.forEach(function (l) { (bySeat[l.seat] = bySeat[l.seat] || []).push(l.tile); });
        Object.keys(bySeat).forEach(function (seat) {
          seat = Number(seat);
          var buttons = bySeat[seat].map(function (t) {
            return eventButton({type: "play", seat: seat, tile: t}, [tileNode(t)],
                               {"class": "tap play", "aria-label": seatName(seat) + " leads " + t});
          });
          var title = seatName(seat) + " leads";
          actions.appendChild(bySeat[seat].length > 8
            ? el("details", {"class": "group"}, [el("summary", {text: title}), el("div", {"class": "buttons"}, buttons)])
            : group(title, buttons));
        });
      }
      if (s.owes_reveal.length) drawReveals(s);
      if (!playing && !s.finished) drawDeal(s);
      drawExtras(s);
    }

    function drawReveals(s) {
      var section = el("section", {"class": "group", id: "reveals", "aria-labelledby": "reveals-h"}, [
        el("h2", {id: "reveals-h", text: "Reveals"}),
        el("p", {"class": "help", text: "Each seat still holding tiles shows them: type the pips, or the tiles."})]);
      s.owes_reveal.forEach(function (seat) {
        var name = seatName(seat);
        var pipsId = "reveal-pips-" + seat, tilesId = "reveal-tiles-" + seat;
        var pipsInput = el("input", {id: pipsId, type: "number", inputmode: "numeric", min: "0", "data-reveal-pips": String(seat)});
        var pipsButton = eventButton({type: "reveal", seat: seat, pips: 0}, "Show pips", {"class": "tap", "data-reveal": String(seat), disabled: true});
        pipsInput.addEventListener("input", function () {
          var value = pipsInput.value.trim();
          pipsButton.disabled = !/^\d+$/.test(value);
          pipsButton.setAttribute("data-event", JSON.stringify({type: "reveal", seat: seat, pips: Number(value || 0)}));
        });
        var tilesInput = el("input", {id: tilesId, autocomplete: "off", spellcheck: "false", "data-reveal-tiles": String(seat), placeholder: "6-5 4-4"});
        var tilesButton = eventButton({type: "reveal", seat: seat, tiles: []}, "Show tiles", {"class": "tap secondary", "data-reveal-tiles-button": String(seat), disabled: true});
        tilesInput.addEventListener("input", function () {
          var tiles = tilesOf(tilesInput.value);
          tilesButton.disabled = !tiles.length;
          tilesButton.setAttribute("data-event", JSON.stringify({type: "reveal", seat: seat, tiles: tiles}));
        });
        section.appendChild(el("div", {"class": "reveal", "data-seat": String(seat)}, [
          el("h3", {text: name + " (" + s.counts[seat] + (s.counts[seat] === 1 ? " tile)" : " tiles)")}),
          el("div", {"class": "field-row"}, [el("label", {"for": pipsId, text: "Pips " + name + " shows"}), pipsInput, pipsButton]),
          el("div", {"class": "field-row"}, [el("label", {"for": tilesId, text: "Or the tiles"}), tilesInput, tilesButton])]));
      });
      actions.appendChild(section);
    }

    function drawDeal(s) {
      var section = el("section", {"class": "group", id: "deal", "aria-labelledby": "deal-h"}, [
        el("h2", {id: "deal-h", text: s.round ? "Next round" : "First round"})]);
      if (s.owes_reveal.length) section.appendChild(el("p", {"class": "help", text: "Dealing now leaves the last round without its reveals: it scores nothing."}));
      section.appendChild(el("div", {"class": "buttons"}, [
        eventButton({type: "deal"}, "Deal (hands not seen)", {"class": "tap", id: "deal-closed"})]));
      var inputs = s.players.map(function (name, seat) {
        return el("input", {id: "hand-" + seat, autocomplete: "off", spellcheck: "false", "data-hand": String(seat), placeholder: "6-6 6-5 …"});
      });
      var open = eventButton({type: "deal", hands: s.players.map(function () { return null; })}, "Deal with these hands", {"class": "tap secondary", id: "deal-open"});
      inputs.forEach(function (input) {
        input.addEventListener("input", function () {
          var hands = inputs.map(function (i) { var t = tilesOf(i.value); return t.length ? t : null; });
          open.setAttribute("data-event", JSON.stringify({type: "deal", hands: hands}));
        });
      });
      var fields = s.players.map(function (name, seat) {
        return el("div", {"class": "field"}, [el("label", {"for": "hand-" + seat, text: name + "'s hand"}), inputs[seat]]);
      });
      section.appendChild(el("details", {id: "deal-open-form"}, [
        el("summary", {text: "Deal open: enter the hands"}),
        el("p", {"class": "help", text: "Tiles as 6-5 or 65, split by spaces; leave a hand empty when it is not seen."})
      ].concat(fields, [el("div", {"class": "buttons"}, [open])])));
      actions.appendChild(section);
    }

    // The undo button says what it takes back: that event, read once from the record.
    var undone = {};
    function nameUndo(button, seq) {
      var label = function (event) {
        button.textContent = "Undo: " + describe(event) + " (event " + seq + ")";
      };
      if (undone[seq]) { label(undone[seq]); return; }
      api("GET", "/api/v1/matches/" + matchId + "/events?after=" + (seq - 1) + "&limit=1").then(function (answer) {
        if (answer.status === 200 && answer.body.length && answer.body[0].seq === seq) {
          undone[seq] = answer.body[0].event;
          if (button.isConnected) label(undone[seq]);
        }
      }, function () {});
    }

    function drawExtras(s) {
      var nodes = [];
      if (s.undo !== null && s.undo !== undefined) {
        var undo = eventButton({type: "void", target: s.undo, reason: "undone by the scorekeeper"},
                               "Undo my last entry (event " + s.undo + ")", {"class": "tap secondary", id: "undo"});
        nodes.push(undo);
        nameUndo(undo, s.undo);
      }
      var note = el("input", {id: "note-text", autocomplete: "off"});
      var noteButton = eventButton({type: "note", text: ""}, "Add the note", {"class": "tap secondary", id: "note", disabled: true});
      note.addEventListener("input", function () {
        noteButton.disabled = !note.value.trim();
        noteButton.setAttribute("data-event", JSON.stringify({type: "note", text: note.value.trim()}));
      });
      actions.appendChild(el("section", {"class": "group", id: "extras", "aria-label": "Corrections and notes"}, [
        el("div", {"class": "buttons"}, nodes),
        el("div", {"class": "field-row"}, [el("label", {"for": "note-text", text: "Note"}), note, noteButton])]));
    }

    // -------------------------------------------------------------- taps

    function busy(on) {
      actions.setAttribute("aria-busy", on ? "true" : "false");
      actions.querySelectorAll("button[data-event]").forEach(function (b) {
        if (on) { b.setAttribute("data-was-disabled", b.disabled ? "1" : "0"); b.disabled = true; }
        else if (b.hasAttribute("data-was-disabled")) { b.disabled = b.getAttribute("data-was-disabled") === "1"; b.removeAttribute("data-was-disabled"); }
      });
    }

    function describe(event) {
      var who = typeof event.seat === "number" ? seatName(event.seat) + " " : "";
      switch (event.type) {
        case "play": return who + "plays " + event.tile + (event.end !== undefined ? " on " + event.end : "");
        case "draw": return who + "draws" + (event.tile ? " " + event.tile : "");
        case "pass": return who + "passes";
        case "reveal": return who + "shows " + (event.tiles ? event.tiles.join(" ") : event.pips + " pips");
        case "deal": return "the deal";
        case "void": return "undo of event " + event.target;
        case "note": return "the note";
        default: return event.type;
      }
    }

    function tap(event) {
      if (pending) return;  // one tap at a time: a double tap stores one event
      refused = null;
      pending = {key: newKey(), event: event, seq: screen.seq, at: performance.now()};
      store.setItem(pendingKey, JSON.stringify(pending));
      busy(true);
      send();
    }

    // The tap answered: nothing left to send. The controls stay disabled until the screen is
    // read again (a tap on a control of the old screen would only meet a 412).
    function settle() {
      pending = null;
      retries = 0;
      store.removeItem(pendingKey);
      onlineText();
    }

    function reloadThenFree(sent) {
      return load(false).then(function (read) {
        if (!read) drawActions();  // the controls of the state drawn, not of the old screen
        if (sent && typeof sent.at === "number") window.scoreReady.push(performance.now() - sent.at);
        busy(false);
      });
    }

    function retry(ms) {
      clearTimeout(retryTimer);
      retryTimer = setTimeout(send, ms);
    }

    function send() {
      if (!pending) return;
      clearTimeout(retryTimer);
      var sent = pending;
      setNet("saving", "Saving…");
      say("Saving: " + describe(sent.event) + "…");
      api("POST", "/api/v1/matches/" + matchId + "/events", {json: sent.event, headers: {
        "If-Match": '"' + sent.seq + '"', "Idempotency-Key": sent.key}}).then(function (answer) {
        if (pending !== sent) return;
        if (answer.status === 503 || answer.status === 502 || answer.status === 504) {
          var after = Number(answer.headers.get("Retry-After") || "2") * 1000;
          setNet("saving", "Server busy: retrying");
          retry(Math.min(after, 5000));
          return;
        }
        var took = function () {
          if (typeof sent.at === "number" && sent.at <= performance.now()) {
            window.scoreTimings.push(performance.now() - sent.at);
          }
        };
        if (answer.status === 201) {
          settle();
          var replayed = answer.headers.get("Idempotent-Replayed") === "true";
          var v = answer.body.violation;
          say((v ? "Recorded as disputed: " : "Recorded: ") + describe(sent.event) +
              " (event " + answer.body.seq + ")" + (replayed ? ", saved before the connection dropped." : "."),
              v ? "warn" : "ok");
          if (answer.body.position && answer.body.position.seq > screen.seq) {
            screen = withPosition(answer.body.position);
            drawState();
          }
          took();
          reloadThenFree(sent);
          return;
        }
        if (answer.status === 412) {
          settle();
          say("Another device recorded first (the match is at event " +
              ((answer.body || {}).current_seq) + "). The table is shown again: look, then tap again if it still stands.", "error");
          reloadThenFree().then(took);
          return;
        }
        if (answer.status === 422 && answer.body && answer.body.violation) {
          settle();
          busy(false);
          refused = {event: sent.event, message: answer.body.violation.message};
          say("The referee refused " + describe(sent.event) + ": " + answer.body.violation.message, "error");
          drawActions();
          took();
          return;
        }
        settle();
        busy(false);
        if (answer.status === 401) store.removeItem(TOKEN);
        say("Not recorded: " + problemText(answer), "error");
        drawActions();
      }, function () {
        if (pending !== sent) return;
        // No answer: it may or may not be stored. The same key again tells.
        setNet("offline", navigator.onLine ? "No answer: retrying" : "Offline: will retry");
        say("Not saved yet: " + describe(sent.event) + ". It is kept on this phone and sent again when the connection is back.", "warn");
        retry(RETRY_MS[Math.min(retries++, RETRY_MS.length - 1)]);
      });
    }

    actions.addEventListener("click", function (e) {
      var button = e.target.closest("button");
      if (!button || button.disabled) return;
      if (button.id === "dismiss") { refused = null; say(""); drawActions(); return; }
      var json = button.getAttribute("data-event");
      if (json) tap(JSON.parse(json));
    });
    window.addEventListener("online", function () { if (pending) send(); });

    load(false).then(function () {
      var kept = store.getItem(pendingKey);
      if (kept && !pending) {  // a tap that got no answer before the page was closed
        pending = JSON.parse(kept);
        pending.at = null;
        busy(true);
        send();
      }
    });
    // Not while something is being typed here (a hand, pips, a note): a redraw would lose it.
    function typing() {
      var active = document.activeElement;
      return active && active.tagName === "INPUT" && actions.contains(active) && active.value !== "";
    }
    if (pollMs > 0) {
      setInterval(function () {
        if (!pending && !typing() && document.visibilityState !== "hidden") load(true);
      }, pollMs);
    }
  }

  if (body.getAttribute("data-score-page") === "start") startPage();
  else if (body.getAttribute("data-score-page") === "match") matchPage();
})();
