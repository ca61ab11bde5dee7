// The Tribes module of the companion page (loaded by the shell, webui/static/shell.js, which calls
// mount(shell); the contract is docs/page-shell.md): whose turn and what the game waits for, move entry
// by tapping (tile option → hexes on the map or buttons → confirm), the action row with the shell's LED
// bar, the legal moves with the reasons for the rest, scores, lands, the achievement board and the
// tracks; the setup wizard (extends the shell's new-game form) and the Tribes box-profile editor.
// Moves, the log, the chart, history, undo and corrections are the shell's. Vanilla JS, no build step.
import { CLAUSES, STRINGS } from "./tribes-i18n.js";

const RES = { goat: "#bfe3a0", horse: "#c9a27c", wheat: "#f2dc7a", gold: "#e6b422", incense: "#c7b3e6" };
const SHELL_ICON = '<svg class="shellico" viewBox="0 0 10 10" aria-label="shell"><path d="M5 9.2 L0.8 4.2 A4.6 4.6 0 0 1 9.2 4.2 Z" fill="#e2b070" stroke="#8a5a20" stroke-width=".7"/><path d="M5 9 L2.6 3 M5 9 L5 1.6 M5 9 L7.4 3" stroke="#8a5a20" stroke-width=".6"/></svg>';
const LAYOUT = `<div class="cols">
  <div class="col" data-camera-slot>
    <section id="status" class="card"></section>
    <section id="entry" class="card"></section>
    <section id="row" class="card"></section>
    <section id="legal" class="card"></section>
  </div>
  <div class="col">
    <section id="scores" class="card"></section>
    <section id="lands" class="card"></section>
    <section id="board" class="card"></section>
    <section id="tracks" class="card"></section>
    <div data-widget="chart"></div>
    <div data-widget="log"></div>
  </div>
</div>`;

export function mount(shell) {
  const { t, h, nm, colour, dot, provTag } = shell;
  const $ = (sel, root = document) => root.querySelector(sel);
  const S = { catalog: null, catalogDigest: null, savedCatalog: null, build: null, buildFor: -1 };
  const res = (r) => t(r);
  const clause = (c) => { const w = CLAUSES[c]; return w ? w[shell.lang === "de" ? 1 : 0] : ""; };
  const resColour = (r) => RES[r] || "#ddd";
  const hexKey = (x) => (Array.isArray(x) ? `${x[0]},${x[1]}` : x);
  const parseHex = (s) => s.split(",").map(Number);
  const players = () => shell.players();
  const pcol = (seat) => shell.pcol(seat);
  const live = () => shell.live;
  const cat = () => S.catalog || { achievements: [], events: [], tracks: [], action_tiles: [], resources: [] };
  const achById = (id) => cat().achievements.find((a) => a.id === id);
  const evtById = (id) => cat().events.find((e) => e.id === id);
  const setHtml = (el, html) => { el.innerHTML = html; shell.placeWidgets(el); };

  // --- live data ----------------------------------------------------------------------------------
  async function loadCatalog(digest, saved) {
    if (!saved && digest && digest === S.catalogDigest) return;
    const r = await shell.api("GET", "/api/catalog" + (saved ? "?saved=1" : ""));
    if (!r.ok) return;
    if (saved) { S.savedCatalog = r.data; return; }
    S.catalog = r.data; S.catalogDigest = r.data.digest;
  }
  async function update(v) {
    S.build = null;
    const digest = v.has_game ? v.position.profile.digest : v.profile && v.profile.digest;
    await loadCatalog(digest, false);
  }

  // --- rendering ----------------------------------------------------------------------------------
  function render() {
    const v = shell.view;
    if (!v) return;
    if (!v.has_game) {
      $("#status").innerHTML = shell.noGame();
      for (const id of ["entry", "row", "legal", "scores", "lands", "board", "tracks"]) $("#" + id).innerHTML = "";
      if (shell.leds && shell.leds.enabled) setHtml($("#row"), rowHead());
      return;
    }
    renderStatus(); renderEntry(); renderRow(); renderLegal(); renderScores(); renderLands(); renderBoard(); renderTracks();
  }

  function waitText(v) {
    const p = v.prompt;
    return t("w_" + p.kind, { p: p.player || "", n: p.count || "" });
  }

  function renderStatus() {
    const v = shell.shown();
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
    html += shell.warnings();
    $("#status").innerHTML = html;
  }

  // ----- move entry -----
  function hexesOfLand(seat, pos) { return (pos.players[seat].land || []).map((l) => hexKey(l.hex)); }
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
    const v = shell.view;
    const tile = v.prompt.tiles.find((x) => x.slot === slot);
    const o = tile.options[optIndex];
    if (!o || !o.available) return;
    if (o.kind === "offspring") S.build = o.members > 0 ? { kind: "off", slot, need: o.members, targets: o.targets, place: [] } : { kind: "off", slot, relocate: o.relocate, targets: o.targets, transfers: [], from: null };
    else if (o.kind === "movement") S.build = { kind: "mov", slot, steps: o.intensity, transfers: [], from: null };
    else if (o.kind === "exploration") S.build = { kind: "exp", slot };
    else if (o.kind === "event") S.build = { kind: "evt", slot };
    else if (o.kind === "achievement") S.build = { kind: "ach", slot, id: o.achievement, jokersNeeded: o.jokers_needed, cands: o.joker_candidates, jokers: [], arrowFrom: o.arrow_from || [], arrow: (o.arrow_from || []).length === 1 ? o.arrow_from[0] : null };
    S.buildFor = v.state_id; shell.setError(null);
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
      html += `<p><b>${h(nm(tile.name))}</b> · ${h(t("slot"))} ${b.slot} · ${tile.cost ? `${h(t("cost"))} ${tile.cost} ${SHELL_ICON}` : h(t("free"))}</p>`;
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

  // the entry card: what to enter, the move being built with Confirm, then the shell's controls
  // (error, notation, undo, correct; while the history is viewed: back to live)
  function renderEntry() {
    const el = $("#entry");
    const v = shell.view;
    if (!v || !v.has_game) { el.innerHTML = ""; return; }
    if (!live()) { setHtml(el, `<div data-widget="controls"></div>`); return; }
    if (S.buildFor !== v.state_id && S.build && !["start", "draw", "place", "restore", "text"].includes(S.build.kind)) S.build = null;
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
    setHtml(el, html + `<div data-widget="controls"></div>`);
  }

  function renderRow() {
    const v = shell.shown();
    const pos = v.position;
    const tiles = v.prompt.kind === "choose" && live() ? v.prompt.tiles : null;
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
        <span class="cost">${cost ? `${h(t("cost"))} ${cost} ${SHELL_ICON}` : ""}</span>
        <span class="cost">${rt.shells ? `${rt.shells} ${SHELL_ICON} ${h(t("shellsOn"))}` : ""}</span></button>`;
    });
    setHtml($("#row"), `${rowHead()}<div class="rowtiles">${cards.join("")}</div>`);
  }
  // the shell's LED bar lies along the action row: its status beside the heading, the dots above the tiles
  function rowHead() {
    return `<div class="rowhead"><h2>${h(t("row"))}</h2><span data-widget="ledstat"></span></div><div data-widget="ledbar"></div>`;
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
    const v = shell.shown();
    const p = v.prompt;
    const isLive = live();
    if (p.kind !== "choose") { $("#legal").innerHTML = `<h2>${h(t("legal"))}</h2><p class="muted">${h(waitText(v))}</p>`; return; }
    const groups = p.tiles.map((tile) => {
      const head = `<h3>${tile.slot}. ${h(nm(tile.name))} <span class="muted">${tile.cost ? `${h(t("cost"))} ${tile.cost} ${SHELL_ICON}` : h(t("free"))}${tile.shells_on ? ` · +${tile.shells_on} ${SHELL_ICON}` : ""}</span></h3>`;
      if (tile.reason) return `<div class="group" data-group="${tile.slot}">${head}${reasonHtml(tile.reason)}</div>`;
      const avail = [], notAch = [], notOther = [];
      tile.options.forEach((o, i) => {
        if (o.available) avail.push(isLive ? `<button class="act" data-opt="${tile.slot}:${i}" data-testid="opt-${tile.slot}-${o.kind}${o.achievement ? "-" + o.achievement : ""}">${h(optionLabel(o))}</button>` : `<div>${h(optionLabel(o))}</div>`);
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
    const v = shell.shown();
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
    const v = shell.shown();
    const pos = v.position;
    const isLive = live();
    const b = isLive ? S.build : null;
    const p = v.prompt;
    const html = pos.players.map((pl, seat) => {
      const opts = { tap: [], picked: [], extra: [], frontier: [], members: null };
      if (isLive && seat === p.seat) {
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
      return `<div class="land"><h3>${dot(pl.colour)} ${h(pl.name)} <span class="muted">${pl.supply} ${h(t("members_short"))} · ${pl.shells} ${SHELL_ICON}</span></h3>${landSvg(pos, seat, opts)}</div>`;
    });
    $("#lands").innerHTML = `<h2>${h(t("lands"))}</h2><div class="lands">${html.join("")}</div>`;
  }

  function renderBoard() {
    const v = shell.shown();
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
    const v = shell.shown();
    const pos = v.position;
    let anyProv = false;
    const html = cat().tracks.map((tr) => {
      const spaces = tr.vp.map((vp, i) => {
        const pv = tr.provisional.vp[i] || (tr.intensity && tr.provisional.intensity[i]);
        anyProv = anyProv || pv;
        const markers = pos.players.map((pl) => (pl.tracks[tr.name] === i ? dot(pl.colour) : "")).join("");
        return `<div class="space ${pv ? "prov" : ""}" title="${pv ? h(t("provisional")) : ""}"><div class="markers">${markers}</div>${tr.intensity ? `<div>${"|".repeat(tr.intensity[i])}</div>` : ""}<div>${vp} ${h(t("vp"))}${pv ? "*" : ""}</div></div>`;
      }).join("");
      return `<div class="track" data-testid="track-${tr.name}"><div>${h(t(tr.name))}</div><div class="spaces">${spaces}</div></div>`;
    }).join("");
    $("#tracks").innerHTML = `<h2>${h(t("tracksTitle"))}</h2>${html}${anyProv ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  // --- setup wizard: the shell's players form, then the table as laid out ---------------------------
  function defaultSetup(c) {
    return { row: c.action_tiles.map((a) => a.id), era1: c.achievements.filter((a) => a.era === 1).slice(0, 4).map((a) => a.id),
      lands: [[], [], [], []].map(() => c.resources.slice(0, 3)) };
  }
  function shuffle(a) { for (let i = a.length - 1; i > 0; i--) { const j = Math.floor(Math.random() * (i + 1)); [a[i], a[j]] = [a[j], a[i]]; } return a; }
  // "move": the game waits for the setup outcome (entered as a move); "new": a new game
  function setupMode() { const v = shell.view; return v && v.has_game && v.prompt.kind === "setup" ? "move" : "new"; }
  async function newGame(el, form) {
    const mode = setupMode();
    if (mode === "new") await loadCatalog(null, true);
    const c = mode === "new" ? S.savedCatalog : S.catalog;
    if (!c) { el.innerHTML = "…"; return; }
    if (!form.tribes) form.tribes = defaultSetup(c);
    const st = form.tribes;
    const sel = (attr, val, opts) => `<select ${attr}>${opts.map(([id, label]) => `<option value="${h(id)}" ${id === val ? "selected" : ""}>${h(label)}</option>`).join("")}</select>`;
    const v = shell.view;
    const np = mode === "new" ? form.players.length : v.players.length;
    const names = mode === "new" ? form.players.map((p, i) => p.name || `${t("player")} ${i + 1}`) : v.players.map((p) => p.name);
    let html = mode === "new" ? shell.newGame.playersCard(form) : "";
    const acts = c.action_tiles.map((a) => [a.id, nm(a.name)]);
    const e1 = c.achievements.filter((a) => a.era === 1).map((a) => [a.id, nm(a.name)]);
    const rs = c.resources.map((r) => [r, res(r)]);
    html += `<section class="card"><h2>${h(t("tableLayout"))}</h2><button class="sec" data-do="setup-random" data-testid="setup-random">${h(t("random"))}</button>
      <h3>${h(t("actionRow"))}</h3><div class="form-row">${st.row.map((id, i) => `${i + 1}. ${sel(`data-srow="${i}"`, id, acts)}`).join(" ")}</div>
      <h3>${h(t("era1"))}</h3><div class="form-row">${st.era1.map((id, i) => `${i + 1}. ${sel(`data-se1="${i}"`, id, e1)}`).join(" ")}</div>
      <h3>${h(t("startTiles"))}</h3>${names.slice(0, np).map((n, p) => `<div class="form-row"><span style="min-width:6rem">${h(n)}</span>${st.lands[p].map((r, k) => sel(`data-sland="${p}:${k}"`, r, rs)).join("")}</div>`).join("")}
      <div style="margin-top:.6rem"><button class="act" data-do="setup-go" data-testid="setup-go">${h(t("create"))}</button>
      ${mode === "new" ? `<button class="sec" data-do="setup-later" data-testid="setup-later">${h(t("later"))}</button>` : ""}</div>
      ${shell.newGame.errorBox()}</section>`;
    if (mode === "new") html += shell.newGame.positionCard(form);
    el.innerHTML = html;
  }
  function setupNotation() {
    const form = shell.newGame.form;
    const st = form.tribes;
    const n = setupMode() === "new" ? form.players.length : shell.view.players.length;
    return `setup row=${st.row.join(",")} era1=${st.era1.join(",")} lands=${st.lands.slice(0, n).map((l) => l.join("/")).join(",")}`;
  }
  async function setupGo(withSetup) {
    if (setupMode() === "move") {
      const ok = await shell.submitMove(setupNotation());
      if (ok) shell.go("game"); else $("#setup-err").textContent = shell.error;
      return;
    }
    await shell.newGame.start(withSetup ? { setup: setupNotation() } : {});
  }
  function setupRandom() {
    const c = setupMode() === "new" ? S.savedCatalog : S.catalog;
    const st = shell.newGame.form.tribes;
    st.row = shuffle(c.action_tiles.map((a) => a.id));
    st.era1 = shuffle(c.achievements.filter((a) => a.era === 1).map((a) => a.id)).slice(0, 4);
    const bag = []; for (const r of c.resources) for (let i = 0; i < 10; i++) bag.push(r);
    shuffle(bag);
    st.lands = [0, 1, 2, 3].map(() => { const kept = []; while (kept.length < 3) { const r = bag.pop(); if (!kept.includes(r)) kept.push(r); else bag.unshift(r); } return kept; });
    shell.newGame.render();
  }

  // --- the Tribes box-profile editor (the shell's fields, provisional marks and save) ---------------
  async function profile(el) {
    const P = shell.profile;
    if (!P.state) { el.innerHTML = "…"; await P.load(); }
    if (P.state.none) { el.innerHTML = `<section class="card"><p>${h(P.state.none)}</p></section>`; return; }
    const { field, checkBtn } = P;
    const d = P.state.doc;
    let html = P.head();
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

  // --- events (the shell handles its own attributes first: data-nav, data-step, data-shell, …) -------
  async function onClick(ev) {
    const el = ev.target.closest("button, [data-hex]");
    if (!el) return;
    const d = el.dataset;
    const v = shell.view;
    if (d.tile) {
      if (!live()) return;
      const g = document.querySelector(`[data-group="${d.tile}"]`);
      if (g) { g.scrollIntoView({ block: "nearest" }); g.style.outline = "3px solid #1d4ed8"; setTimeout(() => { g.style.outline = ""; }, 900); }
      return;
    }
    if (d.opt) { const [slot, i] = d.opt.split(":").map(Number); startBuild(slot, i); return; }
    const b = S.build;
    if (d.hex !== undefined || d.hexchip !== undefined) {
      const k = d.hex !== undefined ? d.hex : d.hexchip;
      if (d.seat !== undefined && Number(d.seat) !== v.prompt.seat) return;
      if (!b || !live()) return;
      if (b.kind === "start") { if (v.prompt.hexes.includes(k)) b.hex = k; }
      else if (b.kind === "restore") { const i = b.hexes.indexOf(k); if (i >= 0) b.hexes.splice(i, 1); else if (b.hexes.length < b.count && v.prompt.hexes.includes(k)) b.hexes.push(k); }
      else if (b.kind === "place") {
        const left = b.drawn.slice(); for (const [, r] of b.placed) left.splice(left.indexOf(r), 1);
        const fr = frontierOf([...hexesOfLand(v.prompt.seat, v.position), ...b.placed.map((x) => x[0])]);
        if (left.length && fr.includes(k)) b.placed.push([k, left[0]]);
      } else if (b.kind === "off" && b.relocate === undefined) { if (b.targets.includes(k) && b.place.length < b.need) b.place.push(k); }
      else if (b.kind === "mov" || b.kind === "off") {
        const m = movedMembers(b, v.position, v.prompt.seat);
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
    if (d.text !== undefined) { S.build = { kind: "text", text: d.text }; S.buildFor = v.state_id; renderEntry(); return; }
    switch (d.do) {
      case "confirm": if (S.build) { el.disabled = true; await shell.submitMove(notationOf(S.build)); } break;
      case "cancel": S.build = null; shell.setError(null); renderEntry(); renderLands(); renderRow(); break;
      case "open-setup": shell.go("setup"); break;
      case "setup-random": setupRandom(); break;
      case "setup-go": await setupGo(true); break;
      case "setup-later": await setupGo(false); break;
      default: break;
    }
  }
  function onChange(ev) {
    const el = ev.target;
    const d = el.dataset || {};
    const form = shell.newGame.form;
    const st = form && form.tribes;
    if (!st) return;
    if (d.srow !== undefined) st.row[Number(d.srow)] = el.value;
    else if (d.se1 !== undefined) st.era1[Number(d.se1)] = el.value;
    else if (d.sland !== undefined) { const [p, k] = d.sland.split(":").map(Number); st.lands[p][k] = el.value; }
  }

  shell.root.innerHTML = LAYOUT;
  shell.listen("click", onClick);
  shell.listen("change", onChange);
  return { strings: STRINGS, clause, update, render, newGame, profile };
}
