// The companion page's shell, game-neutral: the live view over one SSE stream, the game's browser module
// loaded with import(view.game.script) and mounted with mount(shell), moves and their stale-state
// handling, the sticky turn banner (the module's who and what, the shell's one-tap Undo), the move log
// with the history stepper, the score chart, the correction dialog (the replacement picked from the
// moves possible there), the end-of-game summary (ranking with tie-breaks, a chart per score part, the
// record to download, the export to BG Stats), the demo's speed, disabled controls that say why on
// tap, the LED bar (widgets the module places), language, navigation, pairing, a generic new-game form
// and a generic box-profile editor (a module may extend or replace both). The contract for game
// modules is docs/page-shell.md. Vanilla JS, no build step.
import { STRINGS } from "./i18n.js";

const $ = (sel, root = document) => root.querySelector(sel);
// settings kept in the browser; the keys of the Tribes-only page ("tribes-…") are still read
const store = {
  get: (k) => localStorage.getItem(`companion-${k}`) ?? localStorage.getItem(`tribes-${k}`),
  set: (k, v) => localStorage.setItem(`companion-${k}`, v),
};
const S = {
  view: null, lang: store.get("lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en"),
  pairCode: null, started: false, conn: null,
  error: null, hist: null, histView: null, log: null, logFor: -1,
  page: "game", form: null, prof: null, leds: null,
  mod: null, // the mounted game module: {id, script, title, root, api (what mount returned), strings, listeners}
  loading: null, // {script, promise} while a module loads
  camera: null, // the tracker's status in camera mode (camera.js tells: companion:camera), else null
  typed: false, // the "type a move" field is open
};

// --- helpers ------------------------------------------------------------------------------------
function t(key, vars) {
  const G = (S.mod && S.mod.strings) || {};
  let s = (G[S.lang] && G[S.lang][key]) ?? (STRINGS[S.lang] && STRINGS[S.lang][key]) ?? (G.en && G.en[key]) ?? STRINGS.en[key] ?? key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replaceAll(`{${k}}`, v);
  return s;
}
const h = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
const nm = (o) => (o ? o[S.lang] || o.en || Object.values(o)[0] || "" : "");
const COLOURS = { red: "#d33b2f", blue: "#2563eb", yellow: "#eab308", black: "#222222", green: "#16a34a",
  white: "#f4f4f4", purple: "#8b5cf6", orange: "#f97316", grey: "#888888", brown: "#8b5a2b" };
const colour = (c) => (/^#[0-9a-fA-F]{6}$/.test(c || "") ? c : COLOURS[c] || "#888"); // never markup in a style attribute
const dot = (c) => `<span class="dot" style="background:${colour(c)}"></span>`;
const provTag = () => `<span class="provtag" title="${h(t("provisional"))}">${h(t("provisional"))}</span>`;
const players = () => (S.view && S.view.players) || [];
const pcol = (seat) => (players()[seat] || {}).colour;
const shown = () => (S.hist !== null && S.histView ? S.histView : S.view);
const clause = (c) => (c && S.mod && S.mod.api.clause ? S.mod.api.clause(c) || "" : "");
const undoText = (u) => (u.reason ? t("u_" + u.reason) : u.message);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
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
// a rule's reason in the reader's language: the module's words for its template (key, args), else the text
function reasonText(r) {
  if (!r) return "";
  const said = r.key && S.mod && S.mod.api.reason ? S.mod.api.reason(r) : "";
  return said || r.text || r.reason || "";
}
function errText(data) {
  const e = (data && data.error) || {};
  let s = e.message || "error";
  if (e.clause && clause(e.clause)) s = `${e.clause} (${clause(e.clause)}): ${reasonText({ key: e.key, args: e.args, text: e.reason }) || s}`;
  else if (e.key) s = reasonText({ key: e.key, args: e.args, text: s });
  return s;
}
// what the camera tracker says (status, prompt, desync: {key, args, message}) in the reader's language:
// tr_<key> with its arguments — an option (moves to take back and play), places and regions the game's
// module puts in words (fact, factValue, region), numbers and names as they are; else the English
function optionLabel(o) {
  const moves = (o.moves || []).join(" · ");
  if (!moves && !o.back) return t("opt_nothing");
  if (!o.back) return moves;
  return t(o.back === 1 ? "opt_back1" : "opt_backn", { n: o.back, moves: moves || t("opt_none") });
}
function trackerText(x, names) {
  if (!x) return "";
  const tpl = x.key ? t("tr_" + x.key) : null;
  if (!tpl || tpl === "tr_" + x.key) return x.message || x.reason || "";
  const m = (S.mod && S.mod.api) || {};
  const nm = names || (S.camera && S.camera.names) || {};
  const arg = (v) => {
    if (v === null || v === undefined) return "";
    if (typeof v !== "object") return String(v);
    if (v.option) return optionLabel(v.option);
    if (v.regions) return m.region ? v.regions.map((r) => m.region(r, nm)).join(", ") : v.text;
    if (v.places) return m.fact ? v.places.map((k) => m.fact(k, nm)).join(", ") : v.text;
    if (v.facts) return m.fact && m.factValue ? v.facts.map((f) => `${m.fact(f.key, nm)}: ${m.factValue(f.key, f.seen)}`).join("; ") : v.text;
    return v.text || "";
  };
  return tpl.replace(/\{(\w+)\}/g, (all, k) => (x.args && k in x.args ? arg(x.args[k]) : all));
}
// a fact of a desync in words: where, and what was seen and expected there
function factText(f, names) {
  const m = (S.mod && S.mod.api) || {};
  const nm = names || (S.camera && S.camera.names) || {};
  if (!(m.fact && m.factValue && f.key)) return { where: f.where, seen: f.seen, expected: f.expected };
  return { where: m.fact(f.key, nm), seen: m.factValue(f.key, f.seen_value), expected: m.factValue(f.key, f.expected_value) };
}
// attributes of a control that cannot be used now: it looks disabled and says why when tapped
const disabled = (why) => `aria-disabled="true" data-why="${h(why)}" title="${h(why)}"`;
let whyTimer = null;
function showWhy(el, why) {
  let box = $("#why");
  if (!box) {
    box = document.createElement("div");
    box.id = "why"; box.className = "whytip"; box.dataset.testid = "why-tip"; box.setAttribute("role", "status");
    document.body.append(box);
  }
  box.textContent = why;
  box.hidden = false;
  const r = el.getBoundingClientRect();
  box.style.top = `${Math.min(window.innerHeight - 60, r.bottom + 6)}px`;
  box.style.left = `${Math.max(8, Math.min(window.innerWidth - 288, r.left))}px`;
  clearTimeout(whyTimer);
  whyTimer = setTimeout(() => { box.hidden = true; }, 4000);
}

// --- pairing ------------------------------------------------------------------------------------
// A device other than the host pairs once with the code shown on the host's screen (typed, or the
// QR code's ?pair=CODE): POST /api/pair sets a cookie that the page, its event stream and the camera
// picture then carry. The code itself is never kept in the browser.
(function pairFromUrl() {
  const u = new URL(location.href);
  const p = u.searchParams.get("pair");
  if (p) { S.pairCode = p; u.searchParams.delete("pair"); history.replaceState(null, "", u.pathname + u.search); }
})();
localStorage.removeItem("companion-token"); localStorage.removeItem("tribes-token"); // kept by earlier versions
async function pairWith(code) {
  const r = await api("POST", "/api/pair", { code });
  if (r.ok) { $("#pairbox").hidden = true; return true; }
  if (r.status !== 401) showPairing(); // 401 opened it already
  const err = $("#pairerr"); if (err) err.textContent = errText(r.data);
  return false;
}
function showPairing() {
  const box = $("#pairbox");
  if (!box.hidden && $("#tokin")) return;
  box.hidden = false;
  box.innerHTML = `${h(t("pairing"))}<div class="form-row"><input id="tokin" data-testid="pair-code" placeholder="${h(t("token"))}" autocapitalize="characters" autocomplete="off" spellcheck="false">
    <button class="act" id="tokok" data-testid="pair-ok">${h(t("ok"))}</button></div><div class="reason" id="pairerr" data-testid="pair-error"></div>`;
  $("#tokok").onclick = async () => { if (await pairWith($("#tokin").value.trim())) start(); };
}

// --- widgets: elements the shell keeps up to date wherever the game module puts them ------------
const W = {};
function makeWidget(name, tag, attrs) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.dataset.widgetOf = name;
  W[name] = el;
}
makeWidget("controls", "div", { class: "controls" });
makeWidget("chart", "section", { id: "chart", class: "card" });
makeWidget("log", "section", { id: "log", class: "card" });
makeWidget("ledstat", "span", { id: "ledstat" });
makeWidget("ledbar", "div", { id: "ledbar", class: "ledbar", "data-testid": "leds", hidden: "" });
makeWidget("summary", "section", { id: "summary", class: "card summary", "data-testid": "summary" });
const AUTO_PLACED = ["summary", "controls", "chart", "log"]; // appended below the game's part when it did not place them

// Replace every placeholder [data-widget=NAME] under root with the widget (keeping the focus in it).
function placeWidgets(root) {
  if (!root) return;
  const active = document.activeElement;
  for (const ph of root.querySelectorAll("[data-widget]")) {
    const w = W[ph.dataset.widget];
    if (!w || w === ph) continue;
    ph.replaceWith(w);
    if (active && w.contains(active) && document.activeElement !== active) active.focus();
  }
}

// --- live data ----------------------------------------------------------------------------------
// The log is fetched incrementally: with the state id of the log the page has, the server sends only
// the moves since (or the whole log after an undo, a correction or another game: since is null then).
let logLoading = null, logAgain = false; // one fetch at a time; a change meanwhile fetches once more
async function loadLog() {
  if (logLoading) { logAgain = true; return logLoading; }
  logLoading = (async () => { do { logAgain = false; await loadLogOnce(); } while (logAgain); })();
  try { await logLoading; } finally { logLoading = null; }
}
async function loadLogOnce() {
  if (!S.view || !S.view.has_game || S.logFor === S.view.state_id) return;
  const want = S.view.state_id;
  const have = S.log ? S.logFor : -1;
  const r = await api("GET", have >= 0 ? `/api/log?since=${have}` : "/api/log");
  if (!r.ok || r.data.state_id < want || !S.view.has_game) return;
  if (S.logFor >= r.data.state_id) return; // a newer answer came first
  const d = r.data;
  if (d.since === null || d.since === undefined) S.log = d;
  else if (S.log && S.logFor === d.since) {
    const old = S.log;
    S.log = { state_id: d.state_id, players: d.players, moves: old.moves.slice(0, d.from).concat(d.moves),
      totals: old.totals.slice(0, d.from + 1).concat(d.totals), entries: old.entries.concat(d.entries) };
    if (d.standing && old.standing) S.log.standing = old.standing.slice(0, d.from + 1).concat(d.standing);
  } else { S.log = null; S.logFor = -1; return loadLogOnce(); } // the page's log changed meanwhile: fetch it whole
  S.logFor = d.state_id;
  renderLog(); renderChart(); renderHistory();
}
async function onView(v) {
  if (S.view && v.state_id < S.view.state_id) return; // an older view arriving late
  if (S.view && S.view.state_id === v.state_id && S.view.has_game === v.has_game) return; // the same view
  const prev = S.view;
  S.view = v; S.error = null;
  if (!prev || prev.journal !== v.journal || prev.game.id !== v.game.id) {
    S.hist = null; S.histView = null; S.log = null; S.logFor = -1; // another game: its own log and history
  }
  await ensureModule(v.game);
  if (S.view !== v) return; // a newer view came meanwhile: it draws itself
  if (S.mod && S.mod.api.update) await S.mod.api.update(v);
  if (S.view !== v) return;
  render();
  loadLog();
}
function connect() {
  const es = new EventSource("/api/events");
  es.addEventListener("state", (e) => { onView(JSON.parse(e.data)); });
  es.addEventListener("leds", (e) => { onLeds(JSON.parse(e.data)); });
  es.onopen = () => { S.conn = "on"; renderConn(); };
  es.onerror = () => { S.conn = "off"; renderConn(); };
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
  S.error = errText(r.data);
  if (S.page === "game") render();
  return false;
}

// the last refused write, shown by the controls (null clears it)
function setError(text) { S.error = text || null; renderControls(); }

// --- the game module ------------------------------------------------------------------------------
async function ensureModule(game) {
  if (S.mod && S.mod.id === game.id && S.mod.script === game.script) return;
  if (!S.loading || S.loading.script !== game.script) S.loading = { script: game.script, promise: loadModule(game) };
  await S.loading.promise;
}
async function loadModule(game) {
  const failed = (e) => {
    if (S.loading && S.loading.script === game.script) S.loading = null;
    unmount();
    message(`${t("moduleFailed", { game: game.title })}: ${e}`);
  };
  let ns;
  try { ns = await import(game.script); } catch (e) { failed(e); return; }
  if (S.loading && S.loading.script !== game.script) return; // another game was asked for meanwhile
  unmount();
  const root = document.createElement("div");
  root.id = "game-root"; root.dataset.game = game.id; root.dataset.testid = "game-root";
  $("#game-root").replaceWith(root);
  S.mod = { id: game.id, script: game.script, title: game.title, root, api: {}, strings: ns.strings || {}, listeners: [] };
  if (S.form && S.form.game !== game.id) S.form = null; // names typed while the module loaded stay
  // another game's box is dropped; this game's (or one loaded before the first view: the same game) stays,
  // with the boxes ticked while the module loaded
  if (S.prof && S.prof.game && S.prof.game !== game.id) S.prof = null;
  try {
    const got = (await ns.mount(shell)) || {};
    S.mod.api = got;
    if (got.strings) S.mod.strings = got.strings;
  } catch (e) { failed(e); return; }
  S.loading = null;
  document.dispatchEvent(new CustomEvent("companion:mounted", { detail: { game: game.id } }));
}
function unmount() {
  const m = S.mod;
  if (!m) return;
  S.mod = null;
  try { if (m.api.unmount) m.api.unmount(); } finally {
    for (const [type, fn] of m.listeners) document.removeEventListener(type, fn);
    const empty = document.createElement("div");
    empty.id = "game-root";
    m.root.replaceWith(empty);
  }
}
function listen(type, fn) {
  if (!S.mod) throw new Error("shell.listen: only while a module is mounted");
  document.addEventListener(type, fn);
  S.mod.listeners.push([type, fn]);
}

// --- rendering ----------------------------------------------------------------------------------
function renderConn() {
  const c = $("#conn");
  if (!S.conn) return;
  c.className = "conn " + S.conn; c.textContent = t(S.conn === "on" ? "live" : "offline");
}
function render() {
  document.documentElement.lang = S.lang;
  const g = S.view && S.view.game;
  if (g) { const title = t("title", { game: g.title }); $("#title").textContent = title; $("#title").title = title; document.title = title; }
  document.querySelectorAll("[data-t]").forEach((el) => {
    el.textContent = t(el.dataset.t);
    if (el.dataset.tShort) { el.dataset.short = t(el.dataset.tShort); el.setAttribute("aria-label", t(el.dataset.t)); }
  });
  $("#lang").textContent = t("lang");
  $("#lang").dataset.short = t("langShort");
  $("#lang").setAttribute("aria-label", t("lang"));
  renderConn();
  document.querySelectorAll("[data-nav]").forEach((b) => b.classList.toggle("on", b.dataset.nav === S.page));
  const navProfile = $("#top [data-nav=profile]");
  if (navProfile) navProfile.hidden = !!g && g.profile === false;
  for (const p of ["game", "setup", "profile"]) $(`#view-${p}`).hidden = S.page !== p;
  if (S.page === "setup") return renderNewGame();
  if (S.page === "profile") return renderProfilePage();
  if (!S.view) { renderBanner(); return; }
  renderHistory();
  if (S.mod) {
    if (S.mod.api.render) S.mod.api.render();
    placeWidgets(S.mod.root);
  }
  const extra = $("#shell-extra");
  for (const name of AUTO_PLACED) if (!W[name].isConnected) extra.append(W[name]);
  renderBanner(); renderDemo();
  renderControls(); renderChart(); renderLog(); renderLeds(); renderSummary();
}

// the sticky turn banner: who and what to do now in their colour (the module's banner()), with Undo
const hasBanner = () => !!(S.mod && S.mod.api.banner && S.view && S.view.has_game);
function undoButton() {
  const u = S.view.undo;
  const what = u.move ? `<span class="undo-what">${h(u.move)}</span>` : "";
  const tip = u.allowed ? (u.chance ? t("undoChance", { m: u.move }) : t("undoMove", { m: u.move })) : undoText(u);
  return `<button class="sec undo" data-shell="undo" data-testid="undo" ${u.allowed ? `title="${h(tip)}"` : disabled(tip)}>↶ ${h(t("undo"))}${what}</button>`;
}
function renderBanner() {
  const el = $("#turn");
  if (!el) return;
  if (!hasBanner() || S.page !== "game") { el.hidden = true; el.innerHTML = ""; return; }
  const b = S.mod.api.banner() || {};
  el.hidden = false;
  el.style.setProperty("--pc", b.colour ? colour(b.colour) : "var(--accent)");
  el.classList.toggle("over", !!S.view.over);
  const viewing = S.hist !== null ? `<div class="viewing">${h(t("viewing", { n: S.hist, m: S.view.moves }))}</div>` : "";
  const act = S.hist === null ? undoButton() : `<button class="act" data-shell="live">${h(t("backToLive"))}</button>`;
  el.innerHTML = `<div class="turn-who">${viewing}${b.html || ""}</div><div class="turn-act">${act}</div>`;
}
// a demo's speed (serve --demo, demo): the live view says which speeds it offers
function renderDemo() {
  const el = $("#demobar");
  if (!el) return;
  const d = S.view && S.view.demo;
  if (!d || S.page !== "game") { el.hidden = true; el.innerHTML = ""; return; }
  el.hidden = false;
  const label = (v) => (v === 0.5 ? "½" : String(v));
  el.innerHTML = `<span>${h(t("demoSpeed"))}</span>` + d.speeds.map((v) => `<button class="chip${v === d.speed ? " on" : ""}" data-shell="demo-speed" data-speed="${v}" data-testid="demo-speed-${String(v).replace(".", "_")}" aria-pressed="${v === d.speed}">×${label(v)}</button>`).join("");
  el.dataset.testid = "demo-speed";
}

// the last error, Undo (when the module has no banner to put it in), Correct the last move, and a field to
// type a move (folded: moves are tapped); while an earlier position is shown: which one, and back to live
function renderControls() {
  const el = W.controls;
  const v = S.view;
  if (!v || !v.has_game) { el.innerHTML = ""; el.hidden = true; return; }
  el.hidden = false;
  if (S.hist !== null) {
    el.innerHTML = `<p class="viewing">${h(t("viewing", { n: S.hist, m: v.moves }))}</p><button class="sec" data-shell="live">${h(t("backToLive"))}</button>`;
    return;
  }
  let html = S.error ? `<div class="reason" data-testid="error">${h(S.error)}</div>` : "";
  html += `<div class="ctlrow">${hasBanner() ? "" : undoButton()}
    <button class="sec" data-shell="correct-last" data-testid="correct" ${v.moves ? "" : disabled(t("u_nothing"))}>✎ ${h(t("correctLast"))}</button></div>
    <details class="typed" data-shell-typed ${S.typed ? "open" : ""}><summary data-testid="typed">⌨ ${h(t("typeMove"))}</summary>
    <div class="notation"><input id="notation" data-testid="notation" placeholder="${h(t("notation"))}" autocapitalize="off" autocomplete="off" spellcheck="false">
    <button class="act" data-shell="submit-text" data-testid="submit-text">${h(t("submit"))}</button></div></details>`;
  const typed = $("#notation", el);
  const keep = typed ? { value: typed.value, focus: document.activeElement === typed } : null;
  el.innerHTML = html;
  if (keep && keep.value) { const n = $("#notation", el); n.value = keep.value; if (keep.focus) n.focus(); }
}

// the score after every move: with `standing` in the log (what is earned so far) a solid line for it and
// a thin dashed one for the score if the game ended now (which may go down: majorities change hands)
function renderChart() {
  const el = W.chart;
  if (!S.log || !S.view || !S.view.has_game) { el.innerHTML = ""; return; }
  const tot = S.log.totals;
  const now = S.log.standing || null;
  const n = tot.length;
  const max = Math.max(5, ...tot.flat(), ...(now ? now.flat() : []));
  const Wd = 600, H = 180, L = 28, B = 18;
  const x = (i) => L + (n > 1 ? (i / (n - 1)) * (Wd - L - 8) : 0);
  const y = (val) => H - B - (val / max) * (H - B - 8);
  const line = (rows, seat) => rows.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(" ");
  let s = `<svg viewBox="0 0 ${Wd} ${H}" width="100%" data-testid="chart-svg" role="img" aria-label="${h(t("chart"))}"><line x1="${L}" y1="${H - B}" x2="${Wd}" y2="${H - B}" stroke="#999"/><line x1="${L}" y1="0" x2="${L}" y2="${H - B}" stroke="#999"/>`;
  for (let k = 0; k <= max; k += Math.max(1, Math.ceil(max / 5))) s += `<text x="2" y="${y(k) + 3}" font-size="10">${k}</text><line x1="${L}" x2="${Wd}" y1="${y(k)}" y2="${y(k)}" stroke="#eee"/>`;
  S.log.players.forEach((pl, seat) => {
    const c = colour(pl.colour);
    if (now) {
      s += `<polyline fill="none" stroke="${c}" stroke-width="1.3" stroke-dasharray="4 3" opacity=".8" points="${line(tot, seat)}" data-testid="chart-proj-${seat}"/>`;
      s += `<polyline fill="none" stroke="${c}" stroke-width="2.5" points="${line(now, seat)}" data-testid="chart-line-${seat}"/>`;
    } else s += `<polyline fill="none" stroke="${c}" stroke-width="2.5" points="${line(tot, seat)}" data-testid="chart-line-${seat}"/>`;
  });
  if (S.hist !== null) s += `<line x1="${x(S.hist)}" x2="${x(S.hist)}" y1="0" y2="${H - B}" stroke="#1d4ed8" stroke-dasharray="3 3"/>`;
  s += `<text x="${Wd - 4}" y="${H - 4}" font-size="10" text-anchor="end">${h(t("move"))} → ${n - 1}</text></svg>`;
  const note = now ? `<p class="muted" data-testid="chart-note">${h(t("chartNote"))}</p>` : "";
  el.innerHTML = `<h2>${h(t("chart"))}</h2>${s}<div>${S.log.players.map((pl) => `${dot(pl.colour)} ${h(pl.name)}`).join(" &nbsp; ")}</div>${note}`;
}

// --- the end of the game: ranking with tie-breaks, the score by part, the record, BG Stats -----------
const PART_COLOURS = ["#8b5a2b", "#2e9e5b", "#2563eb", "#d97706", "#9333ea", "#db2777", "#0891b2", "#65a30d"];
// "2024-05-01T19:02:03Z" → "2024-05-01 19:02:03" (UTC, as BG Stats wants it)
const bgDate = (iso) => (iso || new Date().toISOString()).replace("T", " ").replace(/(\.\d+)?Z$/, "").slice(0, 19);
// BG Stats' documented link to create a play: https://app.bgstatsapp.com/createPlay.html?data=<JSON>
function bgStatsPlay(v) {
  const g = v.game;
  const r = v.result;
  const play = {
    sourceName: "Table companion",
    sourcePlayId: `${g.id}:${v.journal || "game"}:${v.started || ""}`,
    playDate: bgDate(v.started),
    game: { name: g.title, bggId: g.bgg_id, sourceGameId: g.id, highestWins: g.highest_wins !== false, noPoints: false },
    players: r.ranking.map((s) => ({
      name: s.name, sourcePlayerId: `${g.id}:${s.name}`, score: String(s.score), winner: s.place === 1, startPlayer: s.seat === 0,
    })),
  };
  if (play.game.bggId === null || play.game.bggId === undefined) delete play.game.bggId;
  return play;
}
const bgStatsUrl = (v) => `https://app.bgstatsapp.com/createPlay.html?data=${encodeURIComponent(JSON.stringify(bgStatsPlay(v)))}`;
function renderSummary() {
  const el = W.summary;
  const v = S.view;
  if (!v || !v.has_game || !v.over || !v.result || S.hist !== null) { el.innerHTML = ""; el.hidden = true; return; }
  el.hidden = false;
  const r = v.result;
  const word = (k) => t(`tb_${k}`) === `tb_${k}` ? k : t(`tb_${k}`);
  const rows = r.ranking.map((s, i) => {
    const prev = r.ranking[i - 1], next = r.ranking[i + 1];
    const level = (prev && prev.score === s.score) || (next && next.score === s.score);
    const tb = level && Object.keys(s.tiebreak).length ? ` <span class="muted">(${Object.entries(s.tiebreak).map(([k, val]) => `${h(word(k))} ${h(val)}`).join(", ")})</span>` : "";
    const shared = (prev && prev.place === s.place) || (next && next.place === s.place) ? ` <span class="muted">${h(t("sharedPlace"))}</span>` : "";
    return `<li data-testid="summary-rank-${s.seat}">${s.place}. ${dot(pcol(s.seat))} <b>${h(s.name)}</b> ${h(s.score)} ${h(t("points"))}${tb}${shared}</li>`;
  }).join("");
  const tied = r.ranking.some((s, i) => i && r.ranking[i - 1].score === s.score);
  const parts = (S.mod && S.mod.api.scoreParts) || [];
  let chart = "";
  if (parts.length) {
    const by = Object.fromEntries(r.scores.map((b) => [b.seat, b]));
    const max = Math.max(1, ...r.scores.map((b) => parts.reduce((a, k) => a + Math.max(0, b[k] || 0), 0)));
    const Wd = 600, rowH = 30, L = 90;
    const bars = r.ranking.map((s, i) => {
      let x0 = L;
      const b = by[s.seat] || {};
      const segs = parts.map((k, j) => {
        const val = Math.max(0, b[k] || 0);
        const w = (val / max) * (Wd - L - 40);
        const seg = val ? `<rect x="${x0.toFixed(1)}" y="${i * rowH + 6}" width="${w.toFixed(1)}" height="${rowH - 12}" fill="${PART_COLOURS[j % PART_COLOURS.length]}" data-testid="summary-bar-${s.seat}-${k}"><title>${h(t(`part_${k}`))}: ${val}</title></rect>` : "";
        x0 += w;
        return seg;
      }).join("");
      return `<text x="0" y="${i * rowH + rowH / 2 + 4}" font-size="12">${h(s.name)}</text>${segs}<text x="${(x0 + 4).toFixed(1)}" y="${i * rowH + rowH / 2 + 4}" font-size="12" font-weight="700">${h(s.score)}</text>`;
    }).join("");
    chart = `<h3>${h(t("byPart"))}</h3><svg viewBox="0 0 ${Wd} ${r.ranking.length * rowH}" width="100%" data-testid="summary-chart" role="img" aria-label="${h(t("byPart"))}">${bars}</svg>
      <div class="partkey">${parts.map((k, j) => `<span><i style="background:${PART_COLOURS[j % PART_COLOURS.length]}"></i>${h(t(`part_${k}`))}</span>`).join("")}</div>`;
  }
  el.innerHTML = `<h2>${h(t("finalRanking"))}</h2><ol class="ranking plain" data-testid="summary-ranking">${rows}</ol>
    ${tied && S.mod && S.mod.api.tiebreakNote ? `<p class="muted">${h(S.mod.api.tiebreakNote())}</p>` : ""}${chart}
    <div class="ctlrow"><a class="sec btnlink" href="/api/journal?download=1" data-testid="summary-record">⤓ ${h(t("journal"))}</a>
    <a class="act btnlink" href="${h(bgStatsUrl(v))}" target="_blank" rel="noopener" data-testid="bgstats">${h(t("bgStats"))}</a></div>`;
}

function renderLog() {
  const el = W.log;
  if (!S.log || !S.view || !S.view.has_game) { el.innerHTML = ""; return; }
  const cur = S.hist === null ? S.log.moves.length : S.hist;
  const rows = S.log.moves.map((m) => `<div class="${m.index + 1 === cur ? "cur" : ""}"><span class="idx">${m.index + 1}</span>
    <span>${m.chance ? `<span class="muted">(${h(t("table"))})</span>` : `${dot(pcol(m.seat))} ${h(m.player)}`}</span>
    <span class="mv" data-step="${m.index + 1}">${h(m.move)}</span><button class="chip" data-correct="${m.index}" title="${h(t("correct"))}">✎</button></div>`).reverse();
  el.innerHTML = `<h2>${h(t("log"))} <a class="muted" href="/api/journal?download=1">⤓ ${h(t("journal"))}</a></h2><div id="history" class="history"></div><div class="loglist" data-testid="log">${rows.join("")}</div>`;
  renderHistory();
}

// the history stepper, at the top of the move log
function renderHistory() {
  const el = $("#history", W.log);
  if (!el) return;
  if (!S.view || !S.view.has_game) { el.innerHTML = ""; return; }
  const m = S.view.moves;
  const cur = S.hist === null ? m : S.hist;
  el.innerHTML = `<span>${h(t("history"))}</span><button class="sec" data-step="${Math.max(0, cur - 1)}" data-testid="step-back">◀</button>
    <input type="range" min="0" max="${m}" value="${cur}" id="stepper" data-testid="stepper"><button class="sec" data-step="${Math.min(m, cur + 1)}" data-testid="step-fwd">▶</button>
    <span>${cur} / ${m}</span>${S.hist !== null ? `<span class="viewing">${h(t("viewing", { n: S.hist, m }))}</span><button class="act" data-shell="live" data-testid="live">${h(t("backToLive"))}</button>` : ""}`;
}

async function stepTo(n) {
  if (!S.view || !S.view.has_game) return;
  if (n >= S.view.moves) { S.hist = null; S.histView = null; render(); return; }
  const r = await api("GET", `/api/positions/${n}`);
  if (r.ok) { S.hist = n; S.histView = { ...r.data, players: S.view.players }; render(); }
}

// ----- correction dialog: the replacement is picked from the moves possible there (typing is folded away) -----
async function openCorrection(index) {
  const d = $("#correct-dialog");
  const m = S.log && S.log.moves[index];
  const was = m ? m.move : "";
  const r = await api("GET", `/api/positions/${index}?moves=400`);
  const alts = r.ok ? r.data.alternatives || [] : [];
  const more = r.ok && r.data.alternatives_more;
  const group = (mv) => mv.split(" ")[0];
  const groups = [...new Set(alts.map(group))];
  const C = { pick: null, group: groups.includes(group(was)) ? group(was) : groups.length === 1 ? groups[0] : null };
  const last = index === (S.log ? S.log.moves.length : 0) - 1;
  function draw() {
    const pickable = C.group === null ? [] : alts.filter((x) => group(x) === C.group);
    d.innerHTML = `<h2>${h(t("correctTitle"))}</h2><p>${h(t("correctMove"))} <b>${index + 1}</b>${m && m.player ? ` (${h(m.player)})` : ""}: <code>${h(was)}</code> ${h(t("with"))}:</p>
      ${groups.length > 1 ? `<div class="picker" data-testid="corr-groups">${groups.map((g) => `<button class="chip${g === C.group ? " on" : ""}" data-corr-group="${h(g)}">${h(g)}</button>`).join("")}</div>` : ""}
      <div class="picker" data-testid="corr-moves">${pickable.map((x) => `<button class="chip${x === C.pick ? " on" : ""}${x === was ? " was" : ""}" data-corr-pick="${h(x)}" title="${x === was ? h(t("corrWas")) : ""}">${h(x)}</button>`).join("")}</div>
      ${!alts.length ? `<p class="muted">${h(t("corrNone"))}</p>` : more ? `<p class="muted">${h(t("corrMore"))}</p>` : ""}
      <details class="typed" ${alts.length ? "" : "open"}><summary>⌨ ${h(t("typeInstead"))}</summary>
      <div class="notation"><input id="corr-text" data-testid="corr-text" value="${h(C.pick || was)}" autocapitalize="off" spellcheck="false"></div></details>
      ${last ? "" : `<p>${h(t("rest"))}:</p>
      <label><input type="radio" name="rest" value="replay" checked> ${h(t("restReplay"))}</label><br>
      <label><input type="radio" name="rest" value="prefix"> ${h(t("restPrefix"))}</label><br>
      <label><input type="radio" name="rest" value="truncate"> ${h(t("restTruncate"))}</label>`}
      <div class="reason" id="corr-err"></div>
      <div><button class="act" id="corr-ok" data-testid="corr-ok">${h(t("confirm"))}</button><button class="sec" id="corr-cancel">${h(t("cancel"))}</button></div>`;
    $("#corr-cancel").onclick = () => d.close();
    d.querySelectorAll("[data-corr-group]").forEach((b) => { b.onclick = () => { C.group = b.dataset.corrGroup; draw(); }; });
    d.querySelectorAll("[data-corr-pick]").forEach((b) => { b.onclick = () => { C.pick = b.dataset.corrPick; draw(); }; });
    $("#corr-ok").onclick = async () => {
      const restEl = d.querySelector("input[name=rest]:checked");
      const rest = restEl ? restEl.value : "replay";
      const move = $("#corr-text").value.trim();
      const w = await api("POST", "/api/corrections", { state_id: S.view.state_id, index, move, rest });
      if (w.ok) { d.close(); await onView(w.data.view); } else $("#corr-err").textContent = errText(w.data);
    };
  }
  draw();
  if (!d.open) d.showModal();
}

// ----- the LED strip (the same picture as the strip; GET /api/leds, event: leds) -----
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
  const was = !!(S.leds && S.leds.enabled);
  S.leds = d;
  if (was !== !!d.enabled && S.page === "game") render(); else renderLeds();
  if (d.pulse) animatePulse(d);
}
function renderLeds() {
  const bar = W.ledbar, stat = W.ledstat;
  const L = S.leds;
  if (!L || !L.enabled) { bar.hidden = true; stat.innerHTML = ""; return; }
  const tip = [t("ledTip_" + L.status), L.detail, L.port ? `${t("ledPort")}: ${L.port}` : "",
    L.protocol ? `${t("ledProtocol")}: ${L.protocol}${L.firmware ? ` (${L.firmware})` : ""}` : "", ...(L.warnings || [])].filter(Boolean).join("\n");
  stat.innerHTML = `<span class="ledstat ${h(L.status)}" data-testid="leds-status" data-status="${h(L.status)}" title="${h(tip)}">${h(t("ledStrip"))}${L.virtual ? ` (${h(t("ledVirtual"))})` : ""}: ${h(t("led_" + L.status))}</span>`;
  const n = L.frame.length;
  const slotOf = new Array(n).fill(0);
  (L.layout || []).forEach((leds, k) => { for (const i of leds) if (i < n) slotOf[i] = k + 1; });
  const order = [...Array(n).keys()];
  if (L.direction === "reverse") order.reverse(); // slot 1 on the left
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
// the pulse on the slot just taken: towards the pulse colour and back, sin(pi * t / duration)
function animatePulse(L) {
  const p = L.pulse;
  const start = performance.now() - p.elapsed_s * 1000;
  const dur = p.duration_s * 1000;
  const step = (now) => {
    if (S.leds !== L) return; // a newer picture took over
    const e = now - start;
    const amt = e >= dur ? 0 : Math.sin((Math.PI * e) / dur);
    for (const i of p.leds) {
      const el = W.ledbar.querySelector(`[data-testid=led-${i}]`);
      const base = L.frame[i];
      if (el && base) paintLed(el, base.map((v, k) => Math.round(v + (p.colour[k] - v) * amt)), L.brightness);
    }
    if (e < dur) requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
}

// --- the new-game form (generic; a module may extend or replace it) ------------------------------
const colourChoices = () => [...new Set([...((S.view && S.view.game.colours) || []), ...Object.keys(COLOURS)])];
function newForm() {
  const g = S.view.game;
  const n = Math.min(g.max_players, Math.max(g.min_players, 3));
  const cols = colourChoices();
  return { game: g.id, players: Array.from({ length: n }, (_, i) => ({ name: "", colour: cols[i % cols.length] })), position: "" };
}
// the form may be gone when a drawing started before the game did finishes (the form of that drawing)
const formOr = (form) => form || S.form || (S.form = newForm());
function playersCard(form) {
  const g = S.view.game;
  const ps = formOr(form).players;
  const opts = (val) => colourChoices().map((c) => `<option value="${h(c)}" ${c === val ? "selected" : ""}>${h(c)}</option>`).join("");
  return `<section class="card"><h2>${h(t("players"))}</h2><p class="muted">${h(t("seatHint"))}</p>` + ps.map((p, i) => `<div class="form-row">${i + 1}.
      <input data-player-name="${i}" data-testid="setup-name-${i}" placeholder="${h(t("name"))}" value="${h(p.name)}" maxlength="30">
      <select data-player-colour="${i}" data-testid="setup-colour-${i}">${opts(p.colour)}</select>
      <button class="sec" data-shell="player-up" data-i="${i}" ${i ? "" : "disabled"}>▲</button><button class="sec" data-shell="player-down" data-i="${i}" ${i < ps.length - 1 ? "" : "disabled"}>▼</button>
      <button class="sec" data-shell="player-rm" data-i="${i}" data-testid="setup-rm-${i}" ${ps.length > g.min_players ? "" : "disabled"}>✕</button></div>`).join("") +
    `<button class="sec" data-shell="add-player" data-testid="setup-add" ${ps.length < g.max_players ? "" : "disabled"}>+ ${h(t("addPlayer"))}</button></section>`;
}
const errorBox = () => `<div class="reason" id="setup-err" data-testid="setup-err"></div>`;
function positionCard(form) {
  return `<section class="card"><h2>${h(t("position"))}</h2><textarea id="setup-pos" data-testid="setup-pos" rows="6">${h(formOr(form).position)}</textarea>
    <button class="sec" data-shell="start-position" data-testid="setup-position">${h(t("startPosition"))}</button></section>`;
}
async function created(r) {
  if (r.ok) { S.page = "game"; S.form = null; S.hist = null; S.histView = null; S.log = null; S.logFor = -1; await onView(r.data.view); render(); loadLog(); return true; }
  const err = $("#setup-err"); if (err) err.textContent = errText(r.data);
  return false;
}
// POST /api/games with the form's players (seat order) and the module's extra fields
async function startGame(extra = {}) {
  if (S.view && S.view.has_game && !S.view.over && !confirm(t("confirmNew"))) return false;
  const body = { game: S.view.game.id, players: S.form.players.map((p, i) => ({ name: p.name.trim() || `${t("player")} ${i + 1}`, colour: p.colour })), ...extra };
  return created(await api("POST", "/api/games", body));
}
async function startFromPosition() {
  let pos;
  try { pos = JSON.parse(S.form.position); } catch (e) { $("#setup-err").textContent = String(e); return false; }
  return created(await api("POST", "/api/games", { game: S.view.game.id, position: pos }));
}
async function renderNewGame() {
  const el = $("#view-setup");
  if (!S.view) { el.innerHTML = "…"; return; }
  if (!S.form) S.form = newForm();
  if (S.mod && S.mod.api.newGame) return S.mod.api.newGame(el, S.form);
  el.innerHTML = playersCard() + `<section class="card"><button class="act" data-shell="start" data-testid="setup-go">${h(t("create"))}</button>${errorBox()}</section>` + positionCard();
}

// --- the box-profile editor (generic; a module may replace it) -----------------------------------
const under = (p, prefix) => p === prefix || p.startsWith(prefix + ".") || p.startsWith(prefix + "[");
function getPath(doc, path) { let node = doc; for (const m of path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) node = node[m[1] !== undefined ? m[1] : Number(m[2])]; return node; }
function setPath(doc, path, val) {
  const parts = [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
  let node = doc; for (const p of parts.slice(0, -1)) node = node[p]; node[parts[parts.length - 1]] = val;
}
async function loadProfile() {
  const game = S.view && S.view.game ? S.view.game.id : null; // whose box: kept while that game's page mounts
  const r = await api("GET", "/api/profile");
  if (r.ok) S.prof = { game, doc: JSON.parse(JSON.stringify(r.data.profile)), sources: r.data.sources || {}, prov: new Set(r.data.provisional || []), checked: new Set(), status: "" };
  else S.prof = { game, none: r.status === 404 ? t("noProfile") : errText(r.data) };
  return S.prof;
}
function isProv(path) {
  const P = S.prof;
  if (P.checked.has(path)) return false;
  for (const p of P.prov) if (under(p, path)) { let c = false; for (const k of P.checked) if (under(p, k)) c = true; if (!c) return true; }
  return false;
}
function field(path, kind, extra = "") {
  const val = getPath(S.prof.doc, path);
  const pv = isProv(path);
  const cls = pv ? "prov-in" : "";
  const tip = pv ? `title="${h(t("provisional"))}"` : `title="${h(S.prof.sources[path] || "")}"`;
  const mark = pv ? "*" : "";
  if (kind === "bool") return `<input type="checkbox" data-path="${path}" data-kind="bool" ${val ? "checked" : ""} class="${cls}" ${tip} ${extra}>${mark}`;
  if (kind === "num" || kind === "float") return `<input type="number" data-path="${path}" data-kind="${kind}" value="${h(val)}" class="${cls}" ${tip} ${kind === "float" ? 'step="any"' : ""} ${extra}>${mark}`;
  if (kind === "json") return `<textarea rows="3" data-path="${path}" data-kind="json" class="${cls}" ${tip}>${h(JSON.stringify(val))}</textarea>`;
  if (kind.startsWith("sel:")) return `<select data-path="${path}" data-kind="str" class="${cls}" ${tip}>${kind.slice(4).split("|").map((o) => `<option ${o === val ? "selected" : ""}>${h(o)}</option>`).join("")}</select>${mark}`;
  return `<input data-path="${path}" data-kind="str" value="${h(val)}" class="${cls}" ${tip} ${extra}>${mark}`;
}
function checkBtn(prefix) {
  const any = [...S.prof.prov].some((p) => under(p, prefix) && isProv(p));
  return any ? `${provTag()} <button class="chip" data-check="${prefix}" data-testid="check-${prefix}">✓ ${h(t("checked"))}</button>` : "";
}
function profileHead() {
  const d = S.prof.doc;
  const open = [...S.prof.prov].filter((p) => isProv(p)).length;
  return `<section class="card"><h2>${h(t("profileTitle"))}: ${h(d.name)}</h2><p>${h(t("profileHint"))}</p>
    <p><b data-testid="prov-count">${h(t("provCount", { n: open }))}</b> ${open ? provTag() : ""}</p>
    <button class="sec" data-shell="prof-validate" data-testid="prof-validate">${h(t("validate"))}</button>
    <button class="act" data-shell="prof-save" data-testid="prof-save">${h(t("save"))}</button>
    <span id="prof-status" data-testid="prof-status">${h(S.prof.status)}</span></section>`;
}
// any profile document: one card per top-level entry, a group per object, one field per value
const HIDDEN_KEYS = new Set(["format", "version", "name"]);
function kindOf(v) { return typeof v === "boolean" ? "bool" : typeof v === "number" ? (Number.isInteger(v) ? "num" : "float") : typeof v === "string" ? "str" : "json"; }
const scalar = (v) => v === null || typeof v !== "object";
function nodeHtml(path, key, val) {
  if (scalar(val)) return `<div class="form-row"><span>${h(key)}</span> ${field(path, kindOf(val))}</div>`;
  if (Array.isArray(val) && val.every(scalar)) return `<div class="form-row"><span>${h(key)}</span> ${val.map((v, i) => field(`${path}[${i}]`, kindOf(v))).join(" ")}</div>`;
  const entries = Array.isArray(val) ? val.map((v, i) => [`${path}[${i}]`, `${key} ${i + 1}${v && v.id ? ` · ${v.id}` : ""}`, v]) : Object.entries(val).filter(([k]) => !k.startsWith("_")).map(([k, v]) => [`${path}.${k}`, k, v]);
  return `<div class="group" data-profile-path="${h(path)}"><h3>${h(key)} ${checkBtn(path)}</h3>${entries.map(([p, k, v]) => nodeHtml(p, k, v)).join("")}</div>`;
}
function genericProfile() {
  const d = S.prof.doc;
  return profileHead() + Object.entries(d).filter(([k]) => !k.startsWith("_") && !HIDDEN_KEYS.has(k)).map(([k, v]) =>
    `<section class="card" data-profile-path="${h(k)}"><h2>${h(k)} ${scalar(v) ? "" : checkBtn(k)}</h2>${scalar(v) ? nodeHtml(k, k, v) :
      (Array.isArray(v) && !v.every(scalar) ? v.map((x, i) => nodeHtml(`${k}[${i}]`, `${k} ${i + 1}${x && x.id ? ` · ${x.id}` : ""}`, x)).join("") :
        Array.isArray(v) ? nodeHtml(k, k, v) : Object.entries(v).filter(([c]) => !c.startsWith("_")).map(([c, x]) => nodeHtml(`${k}.${c}`, c, x)).join(""))}</section>`).join("");
}
async function renderProfilePage() {
  const el = $("#view-profile");
  if (S.mod && S.mod.api.profile) return S.mod.api.profile(el);
  // one load at a time: a render while the profile is still loading (a live update) waits for the same
  // load, so a second one cannot land later and wipe the boxes ticked meanwhile
  if (!S.prof) {
    el.innerHTML = "…";
    if (!S.profLoading) S.profLoading = loadProfile().finally(() => { S.profLoading = null; });
    await S.profLoading;
  }
  if (!S.prof) return; // left and entered again while loading: that render draws it
  if (S.prof.none) { el.innerHTML = `<section class="card"><p data-testid="prof-none">${h(S.prof.none)}</p></section>`; return; }
  el.innerHTML = genericProfile();
}
function profInput(target) {
  const path = target.dataset.path;
  const kind = target.dataset.kind;
  const fail = (why) => { S.prof.status = `${path}: ${why}`; $("#prof-status").textContent = S.prof.status; };
  let val;
  if (kind === "bool") val = target.checked;
  else if (kind === "num" || kind === "float") val = target.value === "" ? NaN : Number(target.value);
  else if (kind === "json") { try { val = JSON.parse(target.value); } catch (e) { fail(e.message); return; } }
  else val = target.value;
  if (kind === "num" && !Number.isInteger(val)) { fail("integer"); return; }
  if (kind === "float" && !Number.isFinite(val)) { fail("number"); return; }
  setPath(S.prof.doc, path, val);
  S.prof.checked.add(path);
  target.classList.remove("prov-in");
}
async function profSend(save) {
  const body = { profile: S.prof.doc, checked: [...S.prof.checked] };
  const r = await api(save ? "PUT" : "POST", save ? "/api/profile" : "/api/profile/validate", body);
  if (r.ok && save) { await loadProfile(); S.prof.status = t("saved"); }
  else if (r.ok) S.prof.status = `${t("valid")} ${t("provCount", { n: r.data.provisional.length })}`;
  else S.prof.status = errText(r.data);
  renderProfilePage();
}

// --- navigation and events ----------------------------------------------------------------------
function go(page) {
  S.page = page;
  if (page === "profile") S.prof = null;
  if (page === "setup") S.form = null;
  render();
}
function setLang(lang) {
  S.lang = lang; store.set("lang", lang);
  render();
  document.dispatchEvent(new CustomEvent("companion:lang", { detail: { lang } }));
}
document.addEventListener("click", async (ev) => {
  const off = ev.target.closest('[aria-disabled="true"]');
  if (off) { ev.preventDefault(); ev.stopImmediatePropagation(); showWhy(off, off.dataset.why || off.title || ""); return; }
  const el = ev.target.closest("button, [data-step], [data-nav]");
  if (!el) return;
  const d = el.dataset;
  const mine = () => ev.stopImmediatePropagation(); // the shell's own: not passed on to the module
  if (d.nav) { mine(); go(d.nav); return; }
  if (el.id === "lang") { mine(); setLang(S.lang === "de" ? "en" : "de"); return; }
  if (d.step !== undefined) { mine(); stepTo(Number(d.step)); return; }
  if (d.correct !== undefined) { mine(); openCorrection(Number(d.correct)); return; }
  if (d.check !== undefined && S.prof && S.prof.prov) {
    mine();
    for (const p of S.prof.prov) if (under(p, d.check)) S.prof.checked.add(p);
    renderProfilePage(); return;
  }
  if (!d.shell) return;
  mine();
  const i = Number(d.i);
  const ps = S.form && S.form.players;
  switch (d.shell) {
    case "submit-text": { const txt = $("#notation").value.trim(); if (txt) await submitMove(txt); break; }
    case "undo": {
      const u = S.view.undo;
      if (await afterWrite(await api("POST", "/api/undo", { state_id: S.view.state_id }))) message(t(u.chance ? "undoneChance" : "undone", { m: u.move }), true);
      break;
    }
    case "demo-speed": {
      const r = await api("POST", "/api/demo", { speed: Number(d.speed) });
      if (r.ok && S.view) { S.view = { ...S.view, demo: r.data.demo }; renderDemo(); } else if (!r.ok) message(errText(r.data));
      break;
    }
    case "correct-last": if (S.view.moves) { if (!S.log || S.logFor !== S.view.state_id) await loadLog(); openCorrection(S.view.moves - 1); } break;
    case "live": S.hist = null; S.histView = null; render(); break;
    case "add-player": { const used = ps.map((p) => p.colour); ps.push({ name: "", colour: colourChoices().find((c) => !used.includes(c)) }); renderNewGame(); break; }
    case "player-up": [ps[i - 1], ps[i]] = [ps[i], ps[i - 1]]; renderNewGame(); break;
    case "player-down": [ps[i + 1], ps[i]] = [ps[i], ps[i + 1]]; renderNewGame(); break;
    case "player-rm": ps.splice(i, 1); renderNewGame(); break;
    case "start": el.disabled = true; if (!(await startGame())) el.disabled = false; break;
    case "start-position": await startFromPosition(); break;
    case "prof-validate": await profSend(false); break;
    case "prof-save": await profSend(true); break;
    default: break;
  }
});
document.addEventListener("toggle", (ev) => {
  if (ev.target.dataset && ev.target.dataset.shellTyped !== undefined) S.typed = ev.target.open;
}, true);
// camera mode (camera.js): the tracker's status; the module draws what the camera cannot read as questions
document.addEventListener("companion:camera", (ev) => {
  const was = S.camera;
  S.camera = ev.detail || null;
  const key = (c) => (c ? `${c.enabled}:${c.kind}:${c.prompt ? c.prompt.id : ""}` : "");
  if (key(was) !== key(S.camera) && S.page === "game" && S.view) render();
});
document.addEventListener("change", (ev) => {
  const el = ev.target;
  const d = el.dataset || {};
  if (el.id === "stepper") { stepTo(Number(el.value)); return; }
  if (d.path !== undefined && S.prof && S.prof.doc) { profInput(el); return; }
  if (d.playerColour !== undefined && S.form) S.form.players[Number(d.playerColour)].colour = el.value;
});
document.addEventListener("input", (ev) => {
  const el = ev.target;
  const d = el.dataset || {};
  if (d.playerName !== undefined && S.form) S.form.players[Number(d.playerName)].name = el.value;
  if (el.id === "setup-pos" && S.form) S.form.position = el.value;
});
document.addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && ev.target.id === "notation") { const txt = ev.target.value.trim(); if (txt) submitMove(txt); }
});

// --- what a game module gets: mount(shell) ---------------------------------------------------------
const shell = Object.freeze({
  // texts and looks
  get lang() { return S.lang; }, t, h, nm, colour, dot, provTag, COLOURS,
  // the live view, the position shown (an earlier one while the history stepper is used)
  get view() { return S.view; }, shown, get hist() { return S.hist; }, get live() { return S.hist === null; },
  players, pcol, get leds() { return S.leds; }, get error() { return S.error; }, setError,
  get root() { return S.mod ? S.mod.root : null; },
  // the server
  api, submitMove, afterWrite, message, errText, clause, undoText, reason: reasonText,
  // camera mode: the tracker's status (null without a camera)
  get camera() { return S.camera && S.camera.enabled ? S.camera : null; },
  disabled, showWhy, trackerText, optionLabel, factText,
  // the page
  render, go, listen, placeWidgets, widget: (name) => W[name],
  noGame: () => `<h2>${h(t("noGame"))}</h2><button class="act" data-nav="setup">${h(t("startOne"))}</button>`,
  warnings: () => ((S.view && S.view.warnings) || []).map((w) => `<div class="reason">${h(t("warn"))}: ${h(w)}</div>`).join(""),
  newGame: Object.freeze({
    get form() { return S.form; }, playersCard, positionCard, errorBox, start: startGame, startFromPosition,
    render: renderNewGame,
  }),
  profile: Object.freeze({
    get state() { return S.prof; }, load: loadProfile, head: profileHead, field, checkBtn, isProv, generic: genericProfile,
    render: renderProfilePage, getPath,
  }),
});
window.companion = shell; // for camera.js and for debugging in the browser console

// --- start ----------------------------------------------------------------------------------------
async function start() {
  if (S.started) return;
  render();
  if (S.pairCode) { const code = S.pairCode; S.pairCode = null; if (!(await pairWith(code))) return; }
  const r = await api("GET", "/api/state");
  if (!r.ok) { if (r.status !== 401) message(errText(r.data)); return; } // 401: the pairing box is open
  if (S.started) return;
  S.started = true;
  const l = await api("GET", "/api/leds");
  if (l.ok) S.leds = l.data;
  await onView(r.data);
  connect();
  document.dispatchEvent(new CustomEvent("companion:started"));
}
if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
