// The Tribes companion page: live view over one SSE stream, move entry by tapping or notation,
// setup wizard, box-profile editor, game log with a stepper. Vanilla JS, no build step.
"use strict";
(() => {
  const $ = (sel, root = document) => root.querySelector(sel);
  const S = {
    view: null, catalog: null, catalogDigest: null, savedCatalog: null,
    lang: localStorage.getItem("tribes-lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en"),
    token: localStorage.getItem("tribes-token") || "",
    build: null, buildFor: -1, error: null, hist: null, histView: null, log: null, logFor: -1,
    page: "game", setup: null, prof: null, leds: null,
  };

  // --- helpers ------------------------------------------------------------------------------------
  const t = (key, vars) => {
    let s = (I18N[S.lang] && I18N[S.lang][key]) || I18N.en[key] || key;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
    return s;
  };
  const h = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
  const nm = (o) => (o ? o[S.lang] || o.en || Object.values(o)[0] || "" : "");
  const res = (r) => t(r);
  const clause = (c) => { const w = (window.CLAUSES || {})[c]; return w ? w[S.lang === "de" ? 1 : 0] : ""; };
  const COLOURS = { red: "#d33b2f", blue: "#2563eb", yellow: "#eab308", black: "#222222", green: "#16a34a",
    white: "#f4f4f4", purple: "#8b5cf6", orange: "#f97316", grey: "#888888", brown: "#8b5a2b" };
  const colour = (c) => (c && c.startsWith("#") ? c : COLOURS[c] || "#888");
  const RES = { goat: "#bfe3a0", horse: "#c9a27c", wheat: "#f2dc7a", gold: "#e6b422", incense: "#c7b3e6" };
  const resColour = (r) => RES[r] || "#ddd";
  const SHELL = '<svg class="shellico" viewBox="0 0 10 10" aria-label="shell"><path d="M5 9.2 L0.8 4.2 A4.6 4.6 0 0 1 9.2 4.2 Z" fill="#e2b070" stroke="#8a5a20" stroke-width=".7"/><path d="M5 9 L2.6 3 M5 9 L5 1.6 M5 9 L7.4 3" stroke="#8a5a20" stroke-width=".6"/></svg>';
  const dot = (c) => `<span class="dot" style="background:${colour(c)}"></span>`;
  const provTag = () => `<span class="provtag" title="${h(t("provisional"))}">${h(t("provisional"))}</span>`;
  const hexKey = (x) => (Array.isArray(x) ? `${x[0]},${x[1]}` : x);
  const parseHex = (s) => s.split(",").map(Number);
  const players = () => (S.view && S.view.players) || [];
  const pcol = (seat) => (players()[seat] || {}).colour;
  const cat = () => S.catalog || { achievements: [], events: [], tracks: [], action_tiles: [], resources: [] };
  const achById = (id) => cat().achievements.find((a) => a.id === id);
  const evtById = (id) => cat().events.find((e) => e.id === id);

  async function api(method, path, body) {
    const opts = { method, headers: {} };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    if (S.token) opts.headers["X-Pairing-Token"] = S.token;
    let resp;
    try { resp = await fetch(path, opts); } catch (e) { return { ok: false, status: 0, data: { error: { type: "network", message: String(e) } } }; }
    let data = null;
    try { data = await resp.json(); } catch (e) { data = null; }
    if (resp.status === 401) showPairing();
    return { ok: resp.ok, status: resp.status, data };
  }
  function message(text, ok = false) {
    const m = $("#msg");
    if (!text) { m.hidden = true; return; }
    m.hidden = false; m.className = "banner" + (ok ? " ok" : ""); m.textContent = text;
  }
  function errText(data) {
    const e = (data && data.error) || {};
    let s = e.message || "error";
    if (e.clause && clause(e.clause)) s = `${e.clause} (${clause(e.clause)}): ${e.reason || s}`;
    return s;
  }

  // --- pairing ------------------------------------------------------------------------------------
  (function pairFromUrl() {
    const u = new URL(location.href);
    const p = u.searchParams.get("pair");
    if (p) { S.token = p; localStorage.setItem("tribes-token", p); u.searchParams.delete("pair"); history.replaceState(null, "", u.pathname); }
  })();
  function showPairing() {
    const box = $("#pairbox");
    box.hidden = false;
    box.innerHTML = `${h(t("pairing"))}<div class="form-row"><input id="tokin" placeholder="${h(t("token"))}" value="${h(S.token)}">
      <button class="act" id="tokok">${h(t("ok"))}</button></div>`;
    $("#tokok").onclick = () => { S.token = $("#tokin").value.trim(); localStorage.setItem("tribes-token", S.token); box.hidden = true; };
  }

  // --- live data ----------------------------------------------------------------------------------
  async function loadCatalog(digest, saved) {
    if (!saved && digest && digest === S.catalogDigest) return;
    const r = await api("GET", "/api/catalog" + (saved ? "?saved=1" : ""));
    if (!r.ok) return;
    if (saved) { S.savedCatalog = r.data; return; }
    S.catalog = r.data; S.catalogDigest = r.data.digest;
  }
  async function loadLog() {
    if (!S.view || !S.view.has_game || S.logFor === S.view.state_id) return;
    const want = S.view.state_id;
    const r = await api("GET", "/api/log");
    if (r.ok && r.data.state_id >= want) { S.log = r.data; S.logFor = r.data.state_id; renderLog(); renderChart(); renderHistory(); }
  }
  async function onView(v) {
    if (S.view && v.state_id < S.view.state_id) return; // an older view arriving late
    const changed = !S.view || S.view.state_id !== v.state_id || S.view.has_game !== v.has_game;
    if (!changed) return; // the same state id is the same view (e.g. the stream's first event)
    S.view = v;
    if (changed) { S.build = null; S.error = null; }
    const digest = v.has_game ? v.position.profile.digest : v.profile.digest;
    await loadCatalog(digest, false);
    render();
    loadLog();
  }
  function connect() {
    const es = new EventSource("/api/events");
    es.addEventListener("state", (e) => { onView(JSON.parse(e.data)); });
    es.addEventListener("leds", (e) => { onLeds(JSON.parse(e.data)); });
    es.onopen = () => { const c = $("#conn"); c.className = "conn on"; c.textContent = t("live"); };
    es.onerror = () => { const c = $("#conn"); c.className = "conn off"; c.textContent = t("offline"); };
  }
  async function submitMove(text) {
    const r = await api("POST", "/api/moves", { state_id: S.view.state_id, move: text });
    return afterWrite(r);
  }
  async function afterWrite(r) {
    if (r.ok) { S.error = null; message(null); await onView(r.data.view); return true; }
    if (r.status === 409 && r.data && r.data.error && r.data.error.type === "stale_state") {
      message(t("stale"));
      const s = await api("GET", "/api/state"); if (s.ok) await onView(s.data);
      return false;
    }
    S.error = errText(r.data); renderEntry(); return false;
  }

  // --- rendering ----------------------------------------------------------------------------------
  function shown() { return S.hist !== null && S.histView ? S.histView : S.view; }
  function render() {
    document.documentElement.lang = S.lang;
    document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
    $("#lang").textContent = t("lang");
    document.querySelectorAll("[data-nav]").forEach((b) => b.classList.toggle("on", b.dataset.nav === S.page));
    for (const p of ["game", "setup", "profile"]) $(`#view-${p}`).hidden = S.page !== p;
    if (S.page === "setup") return renderSetup();
    if (S.page === "profile") return renderProfile();
    if (!S.view) return;
    if (!S.view.has_game) {
      $("#status").innerHTML = `<h2>${h(t("noGame"))}</h2><button class="act" data-nav="setup">${h(t("startOne"))}</button>`;
      for (const id of ["entry", "row", "legal", "scores", "lands", "board", "tracks", "chart", "log"]) $("#" + id).innerHTML = "";
      $("#history").innerHTML = "";
      if (S.leds && S.leds.enabled) { $("#row").innerHTML = rowHead(); renderLeds(); }
      return;
    }
    renderStatus(); renderEntry(); renderRow(); renderLegal(); renderScores(); renderLands(); renderBoard();
    renderTracks(); renderChart(); renderLog(); renderHistory();
  }

  function waitText(v) {
    const p = v.prompt;
    return t("w_" + p.kind, { p: p.player || "", n: p.count || "" });
  }
  const undoText = (u) => (u.reason ? t("u_" + u.reason) : u.message);

  function renderStatus() {
    const v = shown();
    const p = v.prompt;
    const pos = v.position;
    const who = v.over ? `<span data-testid="to-move">${h(t("gameOver"))}</span>` : p.player !== undefined ? `${dot(pcol(p.seat))}<span data-testid="to-move">${h(p.player)}</span>` : "";
    const e3 = v.era3;
    let html = `<div class="who">${who} <span class="muted">${v.over ? "" : p.chance ? h(t("table")) : h(t("toMove"))} · ${h(t("round"))} ${Math.floor(pos.turn / players().length) + 1}</span></div>
      <div class="muted">${h(t("waitsFor"))}: <span data-testid="context" title="${h(v.context)}">${h(waitText(v))}</span></div>
      <div data-testid="era3">${h(t("era3"))}: <b>${e3.done} / ${e3.needed}</b> <span class="muted">(${h(t("era3End"))}${e3.in_row ? `; ${e3.in_row} ${h(t("inRow"))}` : ""})</span></div>`;
    if (v.over && v.ranking) {
      html += `<h2>${h(t("finalRanking"))}</h2><ol class="ranking" data-testid="ranking">${v.ranking.map((r) => `<li>${dot(pcol(r.seat))} ${h(r.name)}: ${r.vp} ${h(t("vp"))} (${r.shells} ${h(t("shells"))})</li>`).join("")}</ol>`;
    }
    for (const w of S.view.warnings || []) html += `<div class="reason">${h(t("warn"))}: ${h(w)}</div>`;
    $("#status").innerHTML = html;
  }

  // ----- move entry -----
  function hexesOfLand(seat, pos) { return (pos.players[seat].land || []).map((l) => hexKey(l.hex)); }
  function landMap(pos, seat) { const m = {}; for (const l of pos.players[seat].land) m[hexKey(l.hex)] = l; return m; }
  function neighbours(k) { const [q, r] = parseHex(k); return [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]].map(([a, b]) => `${q + a},${r + b}`); }
  function frontierOf(keys) { const set = new Set(keys); const out = new Set(); for (const k of keys) for (const n of neighbours(k)) if (!set.has(n)) out.add(n); return [...out]; }

  function notationOf(b) {
    switch (b.kind) {
      case "off": return b.relocate !== undefined ? [`${b.slot}:off`, ...b.transfers.map((x) => `${x[0]}>${x[1]}`)].join(" ") : [`${b.slot}:off`, ...b.place].join(" ");
      case "mov": return [`${b.slot}:mov`, ...b.transfers.map((x) => `${x[0]}>${x[1]}`)].join(" ");
      case "exp": return `${b.slot}:exp`;
      case "evt": return `${b.slot}:evt`;
      case "ach": return [`${b.slot}:ach ${b.id}`, ...b.jokers.map((j) => `joker=${j}`), ...(b.arrow ? [`arrow=${b.arrow}`] : [])].join(" ");
      case "start": return b.hex ? `start ${b.hex}` : "";
      case "draw": return b.tiles.length ? `draw ${b.tiles.join(" ")}` : "";
      case "place": return b.placed.length ? `place ${b.placed.map((x) => `${x[1]}@${x[0]}`).join(" ")}` : "";
      case "restore": return ["restore", ...b.hexes].join(" ");
      case "text": return b.text;
      default: return "";
    }
  }
  function buildReady(b) {
    switch (b.kind) {
      case "off": return b.relocate !== undefined ? true : b.place.length === b.need;
      case "ach": return b.jokers.length === b.jokersNeeded && (!b.arrowFrom.length || !!b.arrow);
      case "start": return !!b.hex;
      case "draw": return b.tiles.length === b.count;
      case "place": return b.placed.length === b.drawn.length;
      default: return true;
    }
  }
  function startBuild(slot, optIndex) {
    const tile = S.view.prompt.tiles.find((x) => x.slot === slot);
    const o = tile.options[optIndex];
    if (!o || !o.available) return;
    if (o.kind === "offspring") S.build = o.members > 0 ? { kind: "off", slot, need: o.members, targets: o.targets, place: [] } : { kind: "off", slot, relocate: o.relocate, targets: o.targets, transfers: [], from: null };
    else if (o.kind === "movement") S.build = { kind: "mov", slot, steps: o.intensity, transfers: [], from: null };
    else if (o.kind === "exploration") S.build = { kind: "exp", slot };
    else if (o.kind === "event") S.build = { kind: "evt", slot };
    else if (o.kind === "achievement") S.build = { kind: "ach", slot, id: o.achievement, jokersNeeded: o.jokers_needed, cands: o.joker_candidates, jokers: [], arrowFrom: o.arrow_from || [], arrow: (o.arrow_from || []).length === 1 ? o.arrow_from[0] : null };
    S.buildFor = S.view.state_id; S.error = null;
    renderEntry(); renderRow(); renderLands();
    $("#entry").scrollIntoView({ block: "nearest" });
  }
  function chip(label, attrs, on = false) { return `<button class="chip${on ? " on" : ""}" ${attrs}>${h(label)}</button>`; }
  function movedMembers(b, pos, seat) {
    const m = {}; for (const l of pos.players[seat].land) m[hexKey(l.hex)] = l.members;
    for (const [a, c] of b.transfers) { m[a] -= 1; m[c] = (m[c] || 0) + 1; }
    return m;
  }

  function entryBody(v) {
    const p = v.prompt;
    const b = S.build;
    const pos = v.position;
    const seat = p.seat;
    let html = "";
    if (p.kind === "setup") {
      return `<p>${h(t("setupNeeded"))}</p><button class="act" data-testid="open-setup" data-do="open-setup">${h(t("openSetup"))}</button>`;
    }
    if (p.kind === "game_over") return `<p><b>${h(t("gameOver"))}</b></p><a href="/api/journal?download=1">${h(t("journal"))}</a>`;
    if (p.kind === "first_member") {
      if (!b) S.build = { kind: "start", hex: null };
      html += `<p>${h(t("firstMember"))}</p>` + p.hexes.map((x) => chip(x, `data-hexchip="${x}"`, S.build.hex === x)).join("");
    } else if (p.kind === "draw") {
      if (!b) S.build = { kind: "draw", count: p.count, tiles: [] };
      const bb = S.build;
      html += `<p>${h(t("drawn", { n: p.count }))}</p>` + Object.entries(p.bag).map(([r, k]) => `<button class="chip" data-draw="${r}" ${k - bb.tiles.filter((x) => x === r).length <= 0 || bb.tiles.length >= bb.count ? "disabled" : ""}>+ ${h(res(r))} <span class="muted">(${k} ${h(t("bag"))})</span></button>`).join("");
      html += `<div>${bb.tiles.map((r, i) => chip(`${res(r)} ✕`, `data-undraw="${i}"`, true)).join("")}</div>`;
    } else if (p.kind === "place") {
      if (!b) S.build = { kind: "place", drawn: p.drawn.slice(), placed: [] };
      const bb = S.build;
      const left = bb.drawn.slice(); for (const [, r] of bb.placed) left.splice(left.indexOf(r), 1);
      if (left.length) html += `<p>${h(t("placeTile", { r: res(left[0]) }))}</p>`;
      const fr = frontierOf([...hexesOfLand(seat, pos), ...bb.placed.map((x) => x[0])]);
      if (left.length) html += fr.map((x) => chip(x, `data-hexchip="${x}"`)).join("");
      html += `<div>${bb.placed.map(([x, r], i) => chip(`${res(r)}@${x} ✕`, `data-unplace="${i}"`, true)).join("")}</div>`;
    } else if (p.kind === "restore") {
      if (!b) S.build = { kind: "restore", count: p.count, hexes: [] };
      html += `<p>${h(t("restoreN", { n: p.count }))}</p>` + p.hexes.map((x) => chip(x, `data-hexchip="${x}"`, S.build.hexes.includes(x))).join("");
    } else if (p.kind === "reveal" || p.kind === "event_reveal") {
      const isAch = p.kind === "reveal";
      html += `<p>${h(isAch ? t("revealWhich", { e: p.era, c: p.column }) : t("eventWhich", { e: p.era }))}</p>`;
      html += p.outcomes.map((id) => { const o = isAch ? achById(id) : evtById(id); const text = `${isAch ? "reveal" : "event"} ${id}`;
        return chip(o ? nm(o.name) : id, `data-text="${h(text)}"`, b && b.text === text); }).join("");
      if (b && b.kind === "text" && !isAch) { const e = evtById(b.text.split(" ")[1]); if (e) html += `<p class="muted">${h(nm(e.text))} ${e.provisional ? provTag() : ""}</p>`; }
    } else if (p.kind === "event") {
      const e = evtById(p.event);
      html += `<p><b>${h(e ? nm(e.name) : p.event)}</b> ${e ? h(nm(e.text)) : ""} ${e && e.provisional ? provTag() : ""}</p><p>${h(t("answer"))} (${h(p.player)}):</p>`;
      html += p.answers.map((a) => chip(a, `data-text="${h(a)}"`, b && b.text === a)).join("");
    } else if (p.kind === "choose") {
      if (!b) return `<p class="muted">${h(t("legal"))}: ${h(t("row"))} ↓</p>`;
      const tile = p.tiles.find((x) => x.slot === b.slot);
      html += `<p><b>${h(nm(tile.name))}</b> · ${h(t("slot"))} ${b.slot} · ${tile.cost ? `${h(t("cost"))} ${tile.cost} ${SHELL}` : h(t("free"))}</p>`;
      if (b.kind === "off" && b.relocate === undefined) {
        html += `<p>${h(t("placeN", { n: b.need }))} — ${h(t("tapHexes"))}</p>` + b.targets.map((x) => chip(`+ ${x}`, `data-hexchip="${x}"`)).join("");
        html += `<div>${b.place.map((x, i) => chip(`${x} ✕`, `data-unpick="${i}"`, true)).join("")}</div>`;
      } else if (b.kind === "mov" || (b.kind === "off" && b.relocate !== undefined)) {
        const m = movedMembers(b, pos, seat);
        html += `<p>${h(b.kind === "mov" ? t("moveSteps", { n: b.steps }) : t("relocate", { n: b.relocate }))}</p>`;
        html += `<div>${h(t("from"))}: ${Object.entries(m).filter(([, c]) => c > 0).map(([x]) => chip(x, `data-from="${x}"`, b.from === x)).join("")}</div>`;
        if (b.from) {
          const dests = b.kind === "mov" ? hexesOfLand(seat, pos) : b.targets;
          html += `<div>${h(t("to"))}: ${dests.filter((x) => x !== b.from).map((x) => chip(x, `data-to="${x}"`)).join("")}</div>`;
        }
        html += `<div>${b.transfers.map(([a, c], i) => chip(`${a}>${c} ✕`, `data-untransfer="${i}"`, true)).join("")}</div>`;
      } else if (b.kind === "ach") {
        const a = achById(b.id);
        html += `<p>${h(t("achievement"))}: <b>${h(a ? nm(a.name) : b.id)}</b></p>`;
        if (b.jokersNeeded) html += `<p>${h(t("chooseJokers", { n: b.jokersNeeded }))}</p>` + b.cands.map((x) => chip(x, `data-joker="${x}"`, b.jokers.includes(x))).join("");
        if (b.arrowFrom.length) html += `<p>${h(t("chooseArrow"))}:</p>` + b.arrowFrom.map((id) => chip(nm((achById(id) || {}).name) || id, `data-arrow="${id}"`, b.arrow === id)).join("");
      } else if (b.kind === "exp") html += `<p class="muted">${h(t("exploreNote"))}</p>`;
      else if (b.kind === "evt") html += `<p class="muted">${h(t("eventNote"))}</p>`;
    }
    return html;
  }

  function renderEntry() {
    const el = $("#entry");
    if (!S.view || !S.view.has_game) { el.innerHTML = ""; return; }
    if (S.hist !== null) { el.innerHTML = `<p class="viewing">${h(t("viewing", { n: S.hist, m: S.view.moves }))}</p><button class="sec" data-do="live">${h(t("backToLive"))}</button>`; return; }
    if (S.buildFor !== S.view.state_id && S.build && !["start", "draw", "place", "restore", "text"].includes(S.build.kind)) S.build = null;
    const v = S.view;
    let html = `<h2>${h(t("enter"))}</h2>` + entryBody(v);
    const b = S.build;
    S.buildFor = v.state_id;
    if (b) {
      const text = notationOf(b);
      const ready = buildReady(b) && text;
      html += `<div style="margin-top:.5rem">${text ? `<span class="preview" data-testid="preview">${h(text)}</span>` : ""}
        <button class="act" id="confirm" data-testid="confirm" data-do="confirm" ${ready ? "" : "disabled"}>${h(t("confirm"))}</button>
        <button class="sec" data-do="cancel">${h(t("cancel"))}</button></div>`;
    }
    if (S.error) html += `<div class="reason" data-testid="error">${h(S.error)}</div>`;
    const u = v.undo;
    html += `<div class="notation"><input id="notation" data-testid="notation" placeholder="${h(t("notation"))}" autocapitalize="off" autocomplete="off" spellcheck="false">
      <button class="act" data-do="submit-text" data-testid="submit-text">${h(t("submit"))}</button></div>
      <div style="margin-top:.4rem"><button class="sec" data-do="undo" data-testid="undo" ${u.allowed ? "" : "disabled"} title="${h(undoText(u))}">↶ ${h(t("undo"))}</button>
      <button class="sec" data-do="correct-last" data-testid="correct" ${v.moves ? "" : "disabled"}>✎ ${h(t("correct"))}</button>
      ${u.allowed ? "" : `<span class="muted" data-testid="undo-why">${h(undoText(u))}</span>`}</div>`;
    const typed = $("#notation");
    const keep = typed ? { value: typed.value, focus: document.activeElement === typed } : null;
    el.innerHTML = html;
    if (keep && keep.value) { const n = $("#notation"); n.value = keep.value; if (keep.focus) n.focus(); }
  }

  function renderRow() {
    const v = shown();
    const pos = v.position;
    const tiles = v.prompt.kind === "choose" && S.hist === null ? v.prompt.tiles : null;
    const cards = pos.row.map((rt, i) => {
      const slot = i + 1;
      const isEvt = rt.event !== undefined;
      const id = isEvt ? rt.event : rt.tile;
      const info = tiles ? tiles[i] : null;
      let name = id, extra = "";
      if (isEvt) { const e = evtById(id); if (e) { name = nm(e.name); extra = `<div class="muted" style="font-size:.72rem">${h(t("event"))} · era ${e.era}${e.provisional ? " *" : ""}</div>`; } }
      else { const a = cat().action_tiles.find((x) => x.id === id); if (a) name = nm(a.name); }
      const free = slot === 1 && v.free_slot === 1;
      const cls = ["tile", isEvt ? "evt" : "", free ? "free" : "", info && !info.affordable ? "no" : "", S.build && S.build.slot === slot ? "sel" : ""].join(" ");
      const cost = slot - 1;
      return `<button class="${cls}" data-testid="tile-${slot}" data-tile="${slot}">
        <span class="slot">${slot}${free ? ` <span class="freebadge">${h(t("free"))}</span>` : ""}</span>
        <span class="nm">${h(name)}</span>${extra}
        <span class="cost">${cost ? `${h(t("cost"))} ${cost} ${SHELL}` : ""}</span>
        <span class="cost">${rt.shells ? `${rt.shells} ${SHELL} ${h(t("shellsOn"))}` : ""}</span></button>`;
    });
    $("#row").innerHTML = `${rowHead()}<div class="rowtiles">${cards.join("")}</div>`;
    renderLeds();
  }

  // ----- the LED strip along the row (the same picture as the strip; GET /api/leds, event: leds) -----
  function rowHead() {
    return `<div class="rowhead"><h2>${h(t("row"))}</h2><span id="ledstat"></span></div><div id="ledbar" class="ledbar" data-testid="leds" hidden></div>`;
  }
  // how the eye sees an LED: the strip's overall brightness left out, levels gamma-corrected
  function ledLook(c, br) {
    const f = (v) => Math.round(255 * Math.pow(Math.min(1, v / (255 * (br || 1))), 1 / 2.2));
    return [f(c[0]), f(c[1]), f(c[2])];
  }
  function paintLed(el, c, br) {
    const lit = c[0] || c[1] || c[2];
    const d = ledLook(c, br);
    el.style.setProperty("--c", lit ? `rgb(${d.join(",")})` : "");
    el.classList.toggle("lit", !!lit);
  }
  function onLeds(d) {
    if (S.leds && d.enabled && S.leds.enabled && d.seq < S.leds.seq) return; // an older picture arriving late
    S.leds = d;
    if (!$("#ledbar") && d.enabled && S.page === "game" && S.view && !S.view.has_game) $("#row").innerHTML = rowHead();
    renderLeds();
    if (d.pulse) animatePulse(d);
  }
  function renderLeds() {
    const bar = $("#ledbar"), stat = $("#ledstat");
    if (!bar || !stat) return;
    const L = S.leds;
    if (!L || !L.enabled) { bar.hidden = true; stat.innerHTML = ""; return; }
    const tip = [t("ledTip_" + L.status), L.detail, L.port ? `${t("ledPort")}: ${L.port}` : "",
      L.protocol ? `${t("ledProtocol")}: ${L.protocol}${L.firmware ? ` (${L.firmware})` : ""}` : "", ...(L.warnings || [])].filter(Boolean).join("\n");
    stat.innerHTML = `<span class="ledstat ${h(L.status)}" data-testid="leds-status" data-status="${h(L.status)}" title="${h(tip)}">${h(t("ledStrip"))}${L.virtual ? ` (${h(t("ledVirtual"))})` : ""}: ${h(t("led_" + L.status))}</span>`;
    const n = L.frame.length;
    const slotOf = new Array(n).fill(0);
    (L.layout || []).forEach((leds, k) => { for (const i of leds) if (i < n) slotOf[i] = k + 1; });
    const order = [...Array(n).keys()];
    if (L.direction === "reverse") order.reverse(); // slot 1 on the left, as the row lies on the page
    const groups = [];
    for (const i of order) {
      const last = groups[groups.length - 1];
      if (last && last.slot === slotOf[i]) last.leds.push(i); else groups.push({ slot: slotOf[i], leds: [i] });
    }
    bar.hidden = false;
    bar.title = t("ledHint");
    bar.innerHTML = groups.map((g) => `<div class="ledgrp${g.slot ? "" : " spare"}" style="flex-grow:${g.leds.length}"><div class="dots">${g.leds.map((i) =>
      `<span class="led" data-testid="led-${i}" data-rgb="${L.frame[i].join(",")}" title="LED ${i}${g.slot ? ` · ${h(t("slot"))} ${g.slot}` : ""}"></span>`).join("")}</div><div class="lbl">${g.slot || ""}</div></div>`).join("");
    bar.querySelectorAll(".led").forEach((el) => paintLed(el, L.frame[Number(el.dataset.testid.slice(4))], L.brightness));
  }
  // the pulse on the tile just taken: towards the pulse colour and back, sin(pi * t / duration)
  function animatePulse(L) {
    const p = L.pulse;
    const start = performance.now() - p.elapsed_s * 1000;
    const dur = p.duration_s * 1000;
    const step = (now) => {
      if (S.leds !== L) return; // a newer picture took over
      const e = now - start;
      const amt = e >= dur ? 0 : Math.sin((Math.PI * e) / dur);
      for (const i of p.leds) {
        const el = document.querySelector(`#ledbar [data-testid=led-${i}]`);
        const base = L.frame[i];
        if (el && base) paintLed(el, base.map((v, k) => Math.round(v + (p.colour[k] - v) * amt)), L.brightness);
      }
      if (e < dur) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  function reasonHtml(r) {
    if (!r) return "";
    const w = clause(r.clause);
    return `<div class="reason"><b>${h(r.clause)}</b>${w ? ` (${h(w)})` : ""}: ${h(r.text)}</div>`;
  }
  function optionLabel(o) {
    if (o.kind === "achievement") {
      const a = o.achievement ? achById(o.achievement) : null;
      const nmx = a ? nm(a.name) : `era ${o.era}, col ${o.column} (${t("faceDown")})`;
      if (!o.available) return nmx;
      const prov = a && a.slots[o.slot - 1] && a.slots[o.slot - 1].provisional;
      return `${t("achievement")}: ${nmx} (${o.vp} ${t("vp")}${prov ? "*" : ""}${o.lightning ? " ⚡" : ""}${o.jokers_needed ? `, ${o.jokers_needed} joker` : ""}${o.via_arrow ? `, ${t("arrow")}` : ""})`;
    }
    if (o.kind === "event") return `${t("event")}: ${nm(o.name)}`;
    const det = o.kind === "offspring" ? (o.members ? ` (+${o.members})` : ` (${o.relocate} ↔)`) : o.kind === "movement" ? ` (${o.intensity} →)` : o.kind === "exploration" ? ` (${o.draw || 0} ⬡)` : "";
    return t(o.kind) + det;
  }
  function renderLegal() {
    const v = shown();
    const p = v.prompt;
    const live = S.hist === null;
    if (p.kind !== "choose") { $("#legal").innerHTML = `<h2>${h(t("legal"))}</h2><p class="muted">${h(waitText(v))}</p>`; return; }
    const groups = p.tiles.map((tile) => {
      const head = `<h3>${tile.slot}. ${h(nm(tile.name))} <span class="muted">${tile.cost ? `${h(t("cost"))} ${tile.cost} ${SHELL}` : h(t("free"))}${tile.shells_on ? ` · +${tile.shells_on} ${SHELL}` : ""}</span></h3>`;
      if (tile.reason) return `<div class="group" data-group="${tile.slot}">${head}${reasonHtml(tile.reason)}</div>`;
      const avail = [], notAch = [], notOther = [];
      tile.options.forEach((o, i) => {
        if (o.available) avail.push(live ? `<button class="act" data-opt="${tile.slot}:${i}" data-testid="opt-${tile.slot}-${o.kind}${o.achievement ? "-" + o.achievement : ""}">${h(optionLabel(o))}</button>` : `<div>${h(optionLabel(o))}</div>`);
        else (o.kind === "achievement" ? notAch : notOther).push(`<div><span>${h(optionLabel(o))}</span> — ${h(t("unavailable"))}${reasonHtml(o.reason)}</div>`);
        if (o.kind === "event" && o.text) avail.push(`<div class="muted">${h(nm(o.text))} ${(evtById(o.event) || {}).provisional ? provTag() : ""}${o.note ? ` — ${h(o.note)}` : ""}</div>`);
        else if (o.available && o.note) avail.push(`<div class="muted">${h(o.note)}</div>`);
      });
      const why = notAch.length ? `<details><summary>${h(t("why"))} (${notAch.length})</summary>${notAch.join("")}</details>` : "";
      return `<div class="group" data-group="${tile.slot}">${head}${avail.join("")}${notOther.join("")}${why}</div>`;
    });
    $("#legal").innerHTML = `<h2>${h(t("legal"))}</h2>${groups.join("")}`;
  }

  function renderScores() {
    const v = shown();
    const c = cat();
    const prov = (seat, name) => { const tr = c.tracks.find((x) => x.name === name); const idx = v.position.players[seat].tracks[name]; return tr && tr.provisional.vp[idx]; };
    let anyProv = false;
    const rows = v.scores.map((s) => {
      const tp = ["offspring", "movement", "exploration"].some((n) => prov(s.seat, n));
      anyProv = anyProv || tp;
      const pl = v.position.players[s.seat];
      const tiles = pl.land.length;
      return `<tr data-testid="score-row-${s.seat}"><td>${dot(pl.colour)} ${h(s.name)}</td><td class="total" data-testid="score-total-${s.seat}">${s.total}</td>
        <td>${s.bear_teeth}</td><td class="${tp ? "prov" : ""}" title="${tp ? h(t("provisional")) : ""}">${s.tracks}${tp ? "*" : ""}</td>
        <td>${s.most_members}</td><td>${s.most_tiles}</td><td data-testid="score-shells-${s.seat}">${s.shells}</td><td>${s.members_placed}</td><td>${tiles} (${s.exhausted})</td></tr>`;
    });
    $("#scores").innerHTML = `<h2>${h(t("scores"))}</h2><table><tr><th>${h(t("player"))}</th><th>${h(t("total"))}</th><th>${h(t("teeth"))}</th><th>${h(t("tracks"))}</th>
      <th>${h(t("mostMembers"))}</th><th>${h(t("mostTiles"))}</th><th>${h(t("shells"))}</th><th>${h(t("members"))}</th><th>${h(t("tiles"))}</th></tr>${rows.join("")}</table>
      ${anyProv ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  function hexPoints(cx, cy, r) { const pts = []; for (let i = 0; i < 6; i++) { const a = Math.PI / 180 * (60 * i - 30); pts.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`); } return pts.join(" "); }
  function landSvg(pos, seat, opts) {
    const R = 20, W = Math.sqrt(3) * R;
    const xy = (k) => { const [q, r] = parseHex(k); return [W * (q + r / 2), 1.5 * R * r]; };
    const land = pos.players[seat].land;
    const keys = land.map((l) => hexKey(l.hex)).concat(opts.extra.map((e) => e.hex)).concat(opts.frontier);
    if (!keys.length) return "";
    const xs = keys.map((k) => xy(k)[0]), ys = keys.map((k) => xy(k)[1]);
    const x0 = Math.min(...xs) - W, y0 = Math.min(...ys) - R * 1.2, w = Math.max(...xs) - Math.min(...xs) + 2 * W, hgt = Math.max(...ys) - Math.min(...ys) + 2.4 * R;
    const col = colour(pos.players[seat].colour);
    let s = `<svg viewBox="${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}" width="${(w * 1.5).toFixed(0)}" data-testid="land-${seat}" role="img">`;
    s += `<defs><pattern id="hatch${seat}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#a8a29e"/><line x1="0" y1="0" x2="0" y2="6" stroke="#78716c" stroke-width="3"/></pattern></defs>`;
    for (const l of land) {
      const k = hexKey(l.hex); const [x, y] = xy(k);
      const cls = ["hex", opts.tap.includes(k) ? "tap" : "", opts.picked.includes(k) ? "picked" : ""].join(" ");
      s += `<g data-hex="${k}" data-seat="${seat}"><polygon class="${cls}" points="${hexPoints(x, y, R - 1)}" fill="${l.exhausted ? `url(#hatch${seat})` : resColour(l.resource)}"><title>${h(k)} ${h(res(l.resource))}${l.exhausted ? " (exhausted)" : ""}</title></polygon>`;
      s += `<text x="${x.toFixed(1)}" y="${(y - 8).toFixed(1)}" text-anchor="middle">${h(res(l.resource).slice(0, 5))}</text>`;
      const m = opts.members ? opts.members[k] : l.members;
      if (m > 0) s += `<circle cx="${x.toFixed(1)}" cy="${(y + 4).toFixed(1)}" r="7" fill="${col}" stroke="#000" stroke-width=".8"/><text x="${x.toFixed(1)}" y="${(y + 7).toFixed(1)}" text-anchor="middle" fill="${pos.players[seat].colour === "yellow" || pos.players[seat].colour === "white" ? "#000" : "#fff"}" style="font-weight:700">${m}</text>`;
      s += "</g>";
    }
    for (const e of opts.extra) { const [x, y] = xy(e.hex); s += `<g data-hex="${e.hex}" data-seat="${seat}"><polygon class="hex picked" points="${hexPoints(x, y, R - 1)}" fill="${resColour(e.resource)}"/><text x="${x.toFixed(1)}" y="${y.toFixed(1)}" text-anchor="middle">${h(res(e.resource))}</text></g>`; }
    for (const k of opts.frontier) { const [x, y] = xy(k); s += `<g data-hex="${k}" data-seat="${seat}"><polygon class="hex frontier" points="${hexPoints(x, y, R - 1)}"/><text x="${x.toFixed(1)}" y="${(y + 3).toFixed(1)}" text-anchor="middle" fill="#1d4ed8">${k}</text></g>`; }
    return s + "</svg>";
  }
  function renderLands() {
    const v = shown();
    const pos = v.position;
    const live = S.hist === null;
    const b = live ? S.build : null;
    const p = v.prompt;
    const html = pos.players.map((pl, seat) => {
      const opts = { tap: [], picked: [], extra: [], frontier: [], members: null };
      if (live && seat === p.seat) {
        if (p.kind === "first_member") { opts.tap = p.hexes; if (b && b.hex) opts.picked = [b.hex]; }
        if (p.kind === "restore") { opts.tap = p.hexes; opts.picked = b ? b.hexes : []; }
        if (p.kind === "place" && b && b.kind === "place") {
          opts.extra = b.placed.map(([x, r]) => ({ hex: x, resource: r }));
          if (b.placed.length < b.drawn.length) opts.frontier = frontierOf([...hexesOfLand(seat, pos), ...b.placed.map((x) => x[0])]);
        }
        if (b && b.kind === "off" && b.relocate === undefined) { opts.tap = b.targets; opts.picked = b.place; }
        if (b && (b.kind === "mov" || (b.kind === "off" && b.relocate !== undefined))) { opts.members = movedMembers(b, pos, seat); opts.tap = b.from ? hexesOfLand(seat, pos) : Object.keys(opts.members).filter((k) => opts.members[k] > 0); opts.picked = b.from ? [b.from] : []; }
        if (b && b.kind === "ach") { opts.tap = b.cands; opts.picked = b.jokers; }
      }
      return `<div class="land"><h3>${dot(pl.colour)} ${h(pl.name)} <span class="muted">${pl.supply} ${h(t("members_short"))} · ${pl.shells} ${SHELL}</span></h3>${landSvg(pos, seat, opts)}</div>`;
    });
    $("#lands").innerHTML = `<h2>${h(t("lands"))}</h2><div class="lands">${html.join("")}</div>`;
  }

  function renderBoard() {
    const v = shown();
    const pos = v.position;
    let anyProv = false;
    let cells = "";
    for (let era = 3; era >= 1; era--) {
      for (let col = 0; col < 4; col++) {
        const bt = pos.board[era - 1][col];
        if (!bt.tile) { cells += `<div class="ach down" data-testid="ach-${era}-${col + 1}">${h(t("faceDown"))} · era ${era}</div>`; continue; }
        const a = achById(bt.tile) || { name: { en: bt.tile }, slots: [], provisional: {} };
        const slots = a.slots.map((sl, i) => {
          const stone = bt.stones[i];
          anyProv = anyProv || sl.provisional;
          return `<span class="slotbox ${sl.provisional ? "prov" : ""}" title="${sl.provisional ? h(t("provisional")) : ""}" style="${stone !== undefined ? `background:${colour(pcol(stone))};color:#fff` : ""}">${sl.vp}${sl.provisional ? "*" : ""}${sl.lightning ? "⚡" : ""}</span>`;
        }).join("");
        const rp = a.provisional && (a.provisional.resource || a.provisional.track);
        anyProv = anyProv || rp;
        cells += `<div class="ach e${era}" data-testid="ach-${era}-${col + 1}"><div class="nm">${h(nm(a.name))}</div>
          <div class="${rp ? "prov" : ""}">${era}× ${h(res(a.resource))} → ${h(t(a.track))}${rp ? "*" : ""}</div><div class="slots">${slots}</div></div>`;
      }
    }
    const arrows = (pos.arrows || []).map((ar) => `<div>${dot(pcol(ar.owner))} ${h(nm((achById(ar.from) || {}).name) || ar.from)} ↗ ${h(nm((achById(ar.to) || {}).name) || ar.to)}</div>`).join("");
    $("#board").innerHTML = `<h2>${h(t("board"))}</h2><div class="boardgrid">${cells}</div>${arrows ? `<h3>${h(t("arrows"))}</h3>${arrows}` : ""}${anyProv ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  function renderTracks() {
    const v = shown();
    const pos = v.position;
    let anyProv = false;
    const html = cat().tracks.map((tr) => {
      const spaces = tr.vp.map((vp, i) => {
        const pv = tr.provisional.vp[i] || (tr.intensity && tr.provisional.intensity[i]);
        anyProv = anyProv || pv;
        const markers = pos.players.map((pl, seat) => (pl.tracks[tr.name] === i ? dot(pl.colour) : "")).join("");
        return `<div class="space ${pv ? "prov" : ""}" title="${pv ? h(t("provisional")) : ""}"><div class="markers">${markers}</div>${tr.intensity ? `<div>${"|".repeat(tr.intensity[i])}</div>` : ""}<div>${vp} ${h(t("vp"))}${pv ? "*" : ""}</div></div>`;
      }).join("");
      return `<div class="track" data-testid="track-${tr.name}"><div>${h(t(tr.name))}</div><div class="spaces">${spaces}</div></div>`;
    }).join("");
    $("#tracks").innerHTML = `<h2>${h(t("tracksTitle"))}</h2>${html}${anyProv ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  function renderChart() {
    const el = $("#chart");
    if (!S.log || !S.view || !S.view.has_game) { el.innerHTML = ""; return; }
    const tot = S.log.totals;
    const n = tot.length;
    const max = Math.max(5, ...tot.flat());
    const W = 600, H = 180, L = 28, B = 18;
    const x = (i) => L + (n > 1 ? (i / (n - 1)) * (W - L - 8) : 0);
    const y = (val) => H - B - (val / max) * (H - B - 8);
    let s = `<svg viewBox="0 0 ${W} ${H}" width="100%" data-testid="chart-svg"><line x1="${L}" y1="${H - B}" x2="${W}" y2="${H - B}" stroke="#999"/><line x1="${L}" y1="0" x2="${L}" y2="${H - B}" stroke="#999"/>`;
    for (let k = 0; k <= max; k += Math.max(1, Math.ceil(max / 5))) s += `<text x="2" y="${y(k) + 3}" font-size="10">${k}</text><line x1="${L}" x2="${W}" y1="${y(k)}" y2="${y(k)}" stroke="#eee"/>`;
    S.log.players.forEach((pl, seat) => {
      const pts = tot.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
      s += `<polyline fill="none" stroke="${colour(pl.colour)}" stroke-width="2.5" points="${pts}" data-testid="chart-line-${seat}"/>`;
    });
    if (S.hist !== null) s += `<line x1="${x(S.hist)}" x2="${x(S.hist)}" y1="0" y2="${H - B}" stroke="#1d4ed8" stroke-dasharray="3 3"/>`;
    s += `<text x="${W - 4}" y="${H - 4}" font-size="10" text-anchor="end">${h(t("move"))} → ${n - 1}</text></svg>`;
    el.innerHTML = `<h2>${h(t("chart"))}</h2>${s}<div>${S.log.players.map((pl) => `${dot(pl.colour)} ${h(pl.name)}`).join(" &nbsp; ")}</div>`;
  }

  function renderLog() {
    const el = $("#log");
    if (!S.log || !S.view || !S.view.has_game) { el.innerHTML = ""; return; }
    const cur = S.hist === null ? S.log.moves.length : S.hist;
    const rows = S.log.moves.map((m) => `<div class="${m.index + 1 === cur ? "cur" : ""}"><span class="idx">${m.index + 1}</span>
      <span>${m.chance ? `<span class="muted">(${h(t("table"))})</span>` : `${dot(pcol(m.seat))} ${h(m.player)}`}</span>
      <span class="mv" data-step="${m.index + 1}">${h(m.move)}</span><button class="chip" data-correct="${m.index}" title="${h(t("correct"))}">✎</button></div>`).reverse();
    el.innerHTML = `<h2>${h(t("log"))} <a class="muted" href="/api/journal?download=1">⤓ ${h(t("journal"))}</a></h2><div class="loglist" data-testid="log">${rows.join("")}</div>`;
  }

  function renderHistory() {
    const el = $("#history");
    if (!S.view || !S.view.has_game) { el.innerHTML = ""; return; }
    const m = S.view.moves;
    const cur = S.hist === null ? m : S.hist;
    el.innerHTML = `<span>${h(t("history"))}</span><button class="sec" data-step="${Math.max(0, cur - 1)}" data-testid="step-back">◀</button>
      <input type="range" min="0" max="${m}" value="${cur}" id="stepper" data-testid="stepper"><button class="sec" data-step="${Math.min(m, cur + 1)}" data-testid="step-fwd">▶</button>
      <span>${cur} / ${m}</span>${S.hist !== null ? `<span class="viewing">${h(t("viewing", { n: S.hist, m }))}</span><button class="act" data-do="live" data-testid="live">${h(t("backToLive"))}</button>` : ""}`;
  }

  async function stepTo(n) {
    if (!S.view) return;
    if (n >= S.view.moves) { S.hist = null; S.histView = null; render(); return; }
    const r = await api("GET", `/api/positions/${n}`);
    if (r.ok) { S.hist = n; S.histView = { ...r.data, players: S.view.players }; render(); }
  }

  // ----- correction dialog -----
  function openCorrection(index) {
    const d = $("#correct-dialog");
    const m = S.log && S.log.moves[index];
    d.innerHTML = `<h2>${h(t("correctTitle"))}</h2><p>${h(t("correctMove"))} <b>${index + 1}</b>: <code>${h(m ? m.move : "")}</code> ${h(t("with"))}:</p>
      <div class="notation"><input id="corr-text" data-testid="corr-text" value="${h(m ? m.move : "")}" autocapitalize="off" spellcheck="false"></div>
      <p>${h(t("rest"))}:</p>
      <label><input type="radio" name="rest" value="replay" checked> ${h(t("restReplay"))}</label><br>
      <label><input type="radio" name="rest" value="prefix"> ${h(t("restPrefix"))}</label><br>
      <label><input type="radio" name="rest" value="truncate"> ${h(t("restTruncate"))}</label>
      <div class="reason" id="corr-err"></div>
      <div><button class="act" id="corr-ok" data-testid="corr-ok">${h(t("confirm"))}</button><button class="sec" id="corr-cancel">${h(t("cancel"))}</button></div>`;
    d.showModal();
    $("#corr-cancel").onclick = () => d.close();
    $("#corr-ok").onclick = async () => {
      const rest = d.querySelector("input[name=rest]:checked").value;
      const r = await api("POST", "/api/corrections", { state_id: S.view.state_id, index, move: $("#corr-text").value, rest });
      if (r.ok) { d.close(); await onView(r.data.view); } else $("#corr-err").textContent = errText(r.data);
    };
  }

  // --- setup wizard -------------------------------------------------------------------------------
  function defaultSetup(c) {
    return { players: [{ name: "", colour: "red" }, { name: "", colour: "blue" }, { name: "", colour: "yellow" }],
      row: c.action_tiles.map((a) => a.id), era1: c.achievements.filter((a) => a.era === 1).slice(0, 4).map((a) => a.id),
      lands: [[], [], [], []].map(() => c.resources.slice(0, 3)), position: "" };
  }
  function shuffle(a) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }
  function setupMode() { return S.view && S.view.has_game && S.view.prompt.kind === "setup" ? "move" : "new"; }
  async function renderSetup() {
    const el = $("#view-setup");
    const mode = setupMode();
    if (mode === "new") await loadCatalog(null, true);
    const c = mode === "new" ? S.savedCatalog : S.catalog;
    if (!c) { el.innerHTML = "…"; return; }
    if (!S.setup) S.setup = defaultSetup(c);
    const st = S.setup;
    const sel = (attr, val, opts) => `<select ${attr}>${opts.map(([id, label]) => `<option value="${h(id)}" ${id === val ? "selected" : ""}>${h(label)}</option>`).join("")}</select>`;
    const colours = Object.keys(COLOURS).map((k) => [k, k]);
    const np = mode === "new" ? st.players.length : S.view.players.length;
    const names = mode === "new" ? st.players.map((p, i) => p.name || `${t("player")} ${i + 1}`) : S.view.players.map((p) => p.name);
    let html = "";
    if (mode === "new") {
      html += `<section class="card"><h2>${h(t("players"))}</h2><p class="muted">${h(t("seatHint"))}</p>` + st.players.map((p, i) => `<div class="form-row">${i + 1}.
        <input data-sp="${i}" data-testid="setup-name-${i}" placeholder="${h(t("name"))}" value="${h(p.name)}" maxlength="30">
        ${sel(`data-sc="${i}" data-testid="setup-colour-${i}"`, p.colour, colours)}
        <button class="sec" data-up="${i}" ${i ? "" : "disabled"}>▲</button><button class="sec" data-down="${i}" ${i < st.players.length - 1 ? "" : "disabled"}>▼</button>
        <button class="sec" data-rm="${i}" ${st.players.length > 2 ? "" : "disabled"}>✕</button></div>`).join("") +
        `<button class="sec" data-do="add-player" ${st.players.length < 4 ? "" : "disabled"}>+ ${h(t("addPlayer"))}</button></section>`;
    }
    const acts = c.action_tiles.map((a) => [a.id, nm(a.name)]);
    const e1 = c.achievements.filter((a) => a.era === 1).map((a) => [a.id, nm(a.name)]);
    const rs = c.resources.map((r) => [r, res(r)]);
    html += `<section class="card"><h2>${h(t("tableLayout"))}</h2><button class="sec" data-do="setup-random" data-testid="setup-random">${h(t("random"))}</button>
      <h3>${h(t("actionRow"))}</h3><div class="form-row">${st.row.map((id, i) => `${i + 1}. ${sel(`data-srow="${i}"`, id, acts)}`).join(" ")}</div>
      <h3>${h(t("era1"))}</h3><div class="form-row">${st.era1.map((id, i) => `${i + 1}. ${sel(`data-se1="${i}"`, id, e1)}`).join(" ")}</div>
      <h3>${h(t("startTiles"))}</h3>${names.slice(0, np).map((n, p) => `<div class="form-row"><span style="min-width:6rem">${h(n)}</span>${st.lands[p].map((r, k) => sel(`data-sland="${p}:${k}"`, r, rs)).join("")}</div>`).join("")}
      <div style="margin-top:.6rem"><button class="act" data-do="setup-go" data-testid="setup-go">${h(t("create"))}</button>
      ${mode === "new" ? `<button class="sec" data-do="setup-later" data-testid="setup-later">${h(t("later"))}</button>` : ""}</div>
      <div class="reason" id="setup-err" data-testid="setup-err"></div></section>`;
    if (mode === "new") html += `<section class="card"><h2>${h(t("position"))}</h2><textarea id="setup-pos" rows="6">${h(st.position)}</textarea>
      <button class="sec" data-do="setup-position">${h(t("startPosition"))}</button></section>`;
    el.innerHTML = html;
  }
  function setupNotation() {
    const st = S.setup;
    const n = setupMode() === "new" ? st.players.length : S.view.players.length;
    return `setup row=${st.row.join(",")} era1=${st.era1.join(",")} lands=${st.lands.slice(0, n).map((l) => l.join("/")).join(",")}`;
  }
  async function setupGo(withSetup) {
    const err = $("#setup-err");
    if (setupMode() === "move") {
      const ok = await submitMove(setupNotation());
      if (ok) { S.page = "game"; S.setup = null; render(); } else { err.textContent = S.error; }
      return;
    }
    if (S.view && S.view.has_game && !S.view.over && !confirm(t("confirmNew"))) return;
    const body = { players: S.setup.players.map((p, i) => ({ name: p.name.trim() || `${t("player")} ${i + 1}`, colour: p.colour })) };
    if (withSetup) body.setup = setupNotation();
    const r = await api("POST", "/api/games", body);
    if (r.ok) { S.page = "game"; S.setup = null; S.hist = null; S.log = null; S.logFor = -1; await onView(r.data.view); render(); loadLog(); } else err.textContent = errText(r.data);
  }
  function setupRandom() {
    const c = setupMode() === "new" ? S.savedCatalog : S.catalog;
    const st = S.setup;
    st.row = shuffle(c.action_tiles.map((a) => a.id));
    st.era1 = shuffle(c.achievements.filter((a) => a.era === 1).map((a) => a.id)).slice(0, 4);
    const bag = []; for (const r of c.resources) for (let i = 0; i < 10; i++) bag.push(r);
    shuffle(bag);
    st.lands = [0, 1, 2, 3].map(() => { const kept = []; while (kept.length < 3) { const r = bag.pop(); if (!kept.includes(r)) kept.push(r); else bag.unshift(r); } return kept; });
    renderSetup();
  }

  // --- box-profile editor ---------------------------------------------------------------------------
  function getPath(doc, path) { let node = doc; for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) node = node[m[1] !== undefined ? m[1] : Number(m[2])]; return node; }
  function setPath(doc, path, val) {
    const parts = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
    let node = doc; for (const p of parts.slice(0, -1)) node = node[p]; node[parts[parts.length - 1]] = val;
  }
  async function loadProfile() {
    const r = await api("GET", "/api/profile");
    if (r.ok) S.prof = { doc: JSON.parse(JSON.stringify(r.data.profile)), sources: r.data.sources, prov: new Set(r.data.provisional), checked: new Set(), status: "" };
  }
  function isProv(path) { const P = S.prof; if (P.checked.has(path)) return false; for (const p of P.prov) if (p === path || p.startsWith(path + ".") || p.startsWith(path + "[")) { let c = false; for (const k of P.checked) if (p === k || p.startsWith(k + ".") || p.startsWith(k + "[")) c = true; if (!c) return true; } return false; }
  function field(path, kind, extra = "") {
    const val = getPath(S.prof.doc, path);
    const pv = isProv(path);
    const cls = pv ? "prov-in" : "";
    const tip = pv ? `title="${h(t("provisional"))}"` : `title="${h(S.prof.sources[path] || "")}"`;
    if (kind === "bool") return `<input type="checkbox" data-path="${path}" data-kind="bool" ${val ? "checked" : ""} class="${cls}" ${tip} ${extra}>${pv ? "*" : ""}`;
    if (kind === "num") return `<input type="number" data-path="${path}" data-kind="num" value="${h(val)}" class="${cls}" ${tip} ${extra}>${pv ? "*" : ""}`;
    if (kind === "json") return `<textarea rows="3" data-path="${path}" data-kind="json" class="${cls}" ${tip}>${h(JSON.stringify(val))}</textarea>`;
    if (kind.startsWith("sel:")) return `<select data-path="${path}" data-kind="str" class="${cls}" ${tip}>${kind.slice(4).split("|").map((o) => `<option ${o === val ? "selected" : ""}>${h(o)}</option>`).join("")}</select>${pv ? "*" : ""}`;
    return `<input data-path="${path}" data-kind="str" value="${h(val)}" class="${cls}" ${tip}>${pv ? "*" : ""}`;
  }
  function checkBtn(prefix) {
    const any = [...S.prof.prov].some((p) => (p === prefix || p.startsWith(prefix + ".") || p.startsWith(prefix + "[")) && isProv(p));
    return any ? `${provTag()} <button class="chip" data-check="${prefix}" data-testid="check-${prefix}">✓ ${h(t("checked"))}</button>` : "";
  }
  async function renderProfile() {
    const el = $("#view-profile");
    if (!S.prof) { el.innerHTML = "…"; await loadProfile(); if (!S.prof) return; }
    const d = S.prof.doc;
    const open = [...S.prof.prov].filter((p) => isProv(p)).length;
    let html = `<section class="card"><h2>${h(t("profileTitle"))}: ${h(d.name)}</h2><p>${h(t("profileHint"))}</p>
      <p><b data-testid="prov-count">${h(t("provCount", { n: open }))}</b> ${open ? provTag() : ""}</p>
      <button class="sec" data-do="prof-validate" data-testid="prof-validate">${h(t("validate"))}</button>
      <button class="act" data-do="prof-save" data-testid="prof-save">${h(t("save"))}</button>
      <span id="prof-status" data-testid="prof-status">${h(S.prof.status)}</span></section>`;
    html += `<section class="card"><h2>${h(t("components"))}</h2>${Object.keys(d.components).filter((k) => !k.startsWith("_") && k !== "resources").map((k) => `<div class="form-row">${h(k)}: ${field(`components.${k}`, "num")}</div>`).join("")}</section>`;
    html += `<section class="card"><h2>${h(t("tracksTitle"))}</h2>` + ["offspring", "movement", "exploration", "strength"].map((tn) => {
      const tr = d.tracks[tn];
      const row = (key) => (tr[key] ? `<tr><th>${h(key === "vp" ? t("vp") : t("intensity"))}</th>${tr[key].map((_, i) => `<td>${field(`tracks.${tn}.${key}[${i}]`, "num")}</td>`).join("")}</tr>` : "");
      return `<h3>${h(t(tn))} ${checkBtn(`tracks.${tn}`)}</h3><table class="prof-table">${row("intensity")}${row("vp")}</table>`;
    }).join("") + "</section>";
    const resources = d.components.resources.join("|");
    html += `<section class="card"><h2>${h(t("achievementsT"))}</h2>` + d.achievements.map((a, i) => {
      const p = `achievements[${i}]`;
      return `<div class="group"><h3>${h(nm(a.name))} <span class="muted">era ${a.era}</span> ${checkBtn(p)}</h3>
        <div class="form-row">${h(t("resource"))} ${field(`${p}.resource`, "sel:" + resources)} ${h(t("track"))} ${field(`${p}.track`, "sel:offspring|movement|exploration|strength")}</div>
        <div class="form-row">${a.slots.map((s, k) => `<span>${k + 1}: ${field(`${p}.slots[${k}].vp`, "num")} ⚡${field(`${p}.slots[${k}].lightning`, "bool")}</span>`).join(" ")}</div></div>`;
    }).join("") + "</section>";
    html += `<section class="card"><h2>${h(t("events"))}</h2>` + d.events.map((e, i) => {
      const p = `events[${i}]`;
      return `<div class="group"><h3>${h(nm(e.name))} <span class="muted">era ${e.era}</span> ${checkBtn(p)}</h3>
        ${Object.keys(e.text).map((lg) => `<div class="form-row">${lg}: ${field(`${p}.text.${lg}`, "str", "")}</div>`).join("")}
        <div class="muted">${h(t("effects"))}</div>${field(`${p}.effects`, "json")}</div>`;
    }).join("") + "</section>";
    el.innerHTML = html;
  }
  function profInput(target) {
    const path = target.dataset.path;
    const kind = target.dataset.kind;
    let val;
    if (kind === "bool") val = target.checked;
    else if (kind === "num") val = target.value === "" ? NaN : Number(target.value);
    else if (kind === "json") { try { val = JSON.parse(target.value); } catch (e) { S.prof.status = `${path}: ${e.message}`; $("#prof-status").textContent = S.prof.status; return; } }
    else val = target.value;
    if (kind === "num" && !Number.isInteger(val)) { S.prof.status = `${path}: integer`; $("#prof-status").textContent = S.prof.status; return; }
    setPath(S.prof.doc, path, val);
    S.prof.checked.add(path);
    target.classList.remove("prov-in");
  }
  async function profSend(save) {
    const body = { profile: S.prof.doc, checked: [...S.prof.checked] };
    const r = await api(save ? "PUT" : "POST", save ? "/api/profile" : "/api/profile/validate", body);
    if (r.ok && save) { await loadProfile(); S.prof.status = t("saved"); S.savedCatalog = null; }
    else if (r.ok) S.prof.status = `${t("valid")} ${t("provCount", { n: r.data.provisional.length })}`;
    else S.prof.status = errText(r.data);
    renderProfile();
  }

  // --- events -------------------------------------------------------------------------------------
  document.addEventListener("click", async (ev) => {
    const el = ev.target.closest("button, [data-hex], [data-step], [data-nav]");
    if (!el) return;
    const d = el.dataset;
    if (d.nav) { S.page = d.nav; if (d.nav === "profile") S.prof = null; if (d.nav === "setup") S.setup = null; render(); return; }
    if (el.id === "lang") { S.lang = S.lang === "de" ? "en" : "de"; localStorage.setItem("tribes-lang", S.lang); render(); return; }
    if (d.step !== undefined) { stepTo(Number(d.step)); return; }
    if (d.correct !== undefined) { openCorrection(Number(d.correct)); return; }
    if (d.tile) {
      if (S.hist !== null) return;
      const g = document.querySelector(`[data-group="${d.tile}"]`);
      if (g) { g.scrollIntoView({ block: "nearest" }); g.style.outline = "3px solid #1d4ed8"; setTimeout(() => { g.style.outline = ""; }, 900); }
      return;
    }
    if (d.opt) { const [slot, i] = d.opt.split(":").map(Number); startBuild(slot, i); return; }
    const b = S.build;
    if (d.hex !== undefined || d.hexchip !== undefined) {
      const k = d.hex !== undefined ? d.hex : d.hexchip;
      if (d.seat !== undefined && Number(d.seat) !== S.view.prompt.seat) return;
      if (!b || S.hist !== null) return;
      if (b.kind === "start") { if (S.view.prompt.hexes.includes(k)) b.hex = k; }
      else if (b.kind === "restore") { const i = b.hexes.indexOf(k); if (i >= 0) b.hexes.splice(i, 1); else if (b.hexes.length < b.count && S.view.prompt.hexes.includes(k)) b.hexes.push(k); }
      else if (b.kind === "place") {
        const left = b.drawn.slice(); for (const [, r] of b.placed) left.splice(left.indexOf(r), 1);
        const fr = frontierOf([...hexesOfLand(S.view.prompt.seat, S.view.position), ...b.placed.map((x) => x[0])]);
        if (left.length && fr.includes(k)) b.placed.push([k, left[0]]);
      } else if (b.kind === "off" && b.relocate === undefined) { if (b.targets.includes(k) && b.place.length < b.need) b.place.push(k); }
      else if (b.kind === "mov" || b.kind === "off") {
        const m = movedMembers(b, S.view.position, S.view.prompt.seat);
        if (!b.from) { if (m[k] > 0) b.from = k; }
        else if (k === b.from) b.from = null;
        else { b.transfers.push([b.from, k]); b.from = null; }
      } else if (b.kind === "ach") { const i = b.jokers.indexOf(k); if (i >= 0) b.jokers.splice(i, 1); else if (b.cands.includes(k) && b.jokers.length < b.jokersNeeded) b.jokers.push(k); }
      renderEntry(); renderLands(); return;
    }
    if (b && d.from !== undefined) { b.from = b.from === d.from ? null : d.from; renderEntry(); renderLands(); return; }
    if (b && d.to !== undefined && b.from) { b.transfers.push([b.from, d.to]); b.from = null; renderEntry(); renderLands(); return; }
    if (b && d.untransfer !== undefined) { b.transfers.splice(Number(d.untransfer), 1); renderEntry(); renderLands(); return; }
    if (b && d.unpick !== undefined) { b.place.splice(Number(d.unpick), 1); renderEntry(); renderLands(); return; }
    if (b && d.unplace !== undefined) { b.placed.splice(Number(d.unplace), 1); renderEntry(); renderLands(); return; }
    if (b && d.draw !== undefined) { if (b.tiles.length < b.count) b.tiles.push(d.draw); renderEntry(); return; }
    if (b && d.undraw !== undefined) { b.tiles.splice(Number(d.undraw), 1); renderEntry(); return; }
    if (b && d.joker !== undefined) { const i = b.jokers.indexOf(d.joker); if (i >= 0) b.jokers.splice(i, 1); else if (b.jokers.length < b.jokersNeeded) b.jokers.push(d.joker); renderEntry(); renderLands(); return; }
    if (b && d.arrow !== undefined) { b.arrow = d.arrow; renderEntry(); return; }
    if (d.text !== undefined) { S.build = { kind: "text", text: d.text }; S.buildFor = S.view.state_id; renderEntry(); return; }
    if (d.check !== undefined) { const pre = d.check; for (const p of S.prof.prov) if (p === pre || p.startsWith(pre + ".") || p.startsWith(pre + "[")) S.prof.checked.add(p); renderProfile(); return; }
    switch (d.do) {
      case "confirm": if (S.build) { el.disabled = true; await submitMove(notationOf(S.build)); } break;
      case "cancel": S.build = null; S.error = null; renderEntry(); renderLands(); renderRow(); break;
      case "submit-text": { const txt = $("#notation").value.trim(); if (txt) await submitMove(txt); break; }
      case "undo": { const r = await api("POST", "/api/undo", { state_id: S.view.state_id }); await afterWrite(r); break; }
      case "correct-last": if (S.view.moves) { if (!S.log) await loadLog(); openCorrection(S.view.moves - 1); } break;
      case "live": S.hist = null; S.histView = null; render(); break;
      case "open-setup": S.page = "setup"; S.setup = null; render(); break;
      case "add-player": { const used = S.setup.players.map((p) => p.colour); S.setup.players.push({ name: "", colour: Object.keys(COLOURS).find((c) => !used.includes(c)) }); renderSetup(); break; }
      case "setup-random": setupRandom(); break;
      case "setup-go": await setupGo(true); break;
      case "setup-later": await setupGo(false); break;
      case "setup-position": {
        let pos; try { pos = JSON.parse($("#setup-pos").value); } catch (e) { $("#setup-err").textContent = String(e); break; }
        const r = await api("POST", "/api/games", { position: pos });
        if (r.ok) { S.page = "game"; S.log = null; S.logFor = -1; await onView(r.data.view); render(); loadLog(); } else $("#setup-err").textContent = errText(r.data);
        break;
      }
      case "prof-validate": await profSend(false); break;
      case "prof-save": await profSend(true); break;
      default:
        if (d.up !== undefined) { const i = Number(d.up); const p = S.setup.players; [p[i - 1], p[i]] = [p[i], p[i - 1]]; renderSetup(); }
        else if (d.down !== undefined) { const i = Number(d.down); const p = S.setup.players; [p[i + 1], p[i]] = [p[i], p[i + 1]]; renderSetup(); }
        else if (d.rm !== undefined) { S.setup.players.splice(Number(d.rm), 1); renderSetup(); }
    }
  });
  document.addEventListener("change", (ev) => {
    const el = ev.target;
    const d = el.dataset;
    if (el.id === "stepper") { stepTo(Number(el.value)); return; }
    if (d.path !== undefined) { profInput(el); return; }
    if (!S.setup) return;
    if (d.sc !== undefined) S.setup.players[Number(d.sc)].colour = el.value;
    else if (d.srow !== undefined) S.setup.row[Number(d.srow)] = el.value;
    else if (d.se1 !== undefined) S.setup.era1[Number(d.se1)] = el.value;
    else if (d.sland !== undefined) { const [p, k] = d.sland.split(":").map(Number); S.setup.lands[p][k] = el.value; }
    else if (el.id === "setup-pos") S.setup.position = el.value;
  });
  document.addEventListener("input", (ev) => {
    const el = ev.target;
    if (el.dataset && el.dataset.sp !== undefined && S.setup) S.setup.players[Number(el.dataset.sp)].name = el.value;
    if (el.id === "setup-pos" && S.setup) S.setup.position = el.value;
  });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && ev.target.id === "notation") { const txt = ev.target.value.trim(); if (txt) submitMove(txt); } });

  // --- start ----------------------------------------------------------------------------------------
  window.addEventListener("DOMContentLoaded", async () => {
    render();
    const l = await api("GET", "/api/leds");
    if (l.ok) S.leds = l.data;
    const r = await api("GET", "/api/state");
    if (r.ok) await onView(r.data);
    connect();
  });
  window.tribes = S; // for debugging in the browser console
})();
