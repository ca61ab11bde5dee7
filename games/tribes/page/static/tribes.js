// The Tribes module of the companion page (loaded by the shell, webui/static/shell.js, which calls
// mount(shell); the contract is docs/page-shell.md), phone first: the turn banner's who and what to do
// now, a strip of player panels (points now and if the game ended now, shells, members left), the
// action row as tiles that all fit the screen, move entry by tapping (a tile's action, or an
// achievement — each listed once — with the hand tile to take, then hexes on the map or buttons, then
// Confirm), the reasons for the rest grouped, the scores with their breakdown (earned so far beside
// the final score if the game ended now), lands, the achievement board, the tracks and a legend of
// every symbol; in camera mode only what the camera cannot read is asked. The setup wizard (extends the
// shell's new-game form) and the Tribes box-profile editor. Moves, the log, the chart, history, undo,
// corrections and the end-of-game summary are the shell's. Every text in English and German
// (tribes-i18n.js: STRINGS, the clauses in words, the engine's reasons as templates). Vanilla JS.
import { CLAUSES, REASONS, STRINGS, fillReason } from "./tribes-i18n.js";

const RES = { goat: "#bfe3a0", horse: "#c9a27c", wheat: "#f2dc7a", gold: "#e6b422", incense: "#c7b3e6" };
const SHELL_ICON = '<svg class="shellico" viewBox="0 0 10 10" role="img" aria-label="shell"><path d="M5 9.2 L0.8 4.2 A4.6 4.6 0 0 1 9.2 4.2 Z" fill="#e2b070" stroke="#8a5a20" stroke-width=".7"/><path d="M5 9 L2.6 3 M5 9 L5 1.6 M5 9 L7.4 3" stroke="#8a5a20" stroke-width=".6"/></svg>';
const MEMBER_ICON = '<svg class="ico" viewBox="0 0 10 10" role="img" aria-label="member"><circle cx="5" cy="2.5" r="2" fill="currentColor"/><path d="M1.4 9.7 C1.4 5.4 8.6 5.4 8.6 9.7 Z" fill="currentColor"/></svg>';
const HAND_ICON = '<svg class="ico" viewBox="0 0 10 10" role="img" aria-label="hand"><path d="M3 9.6 L1.9 5.6 C1.7 4.7 2.8 4.4 3.1 5.2 L3.4 5.9 L3.4 1.6 C3.4 0.8 4.5 0.8 4.5 1.6 L4.5 4.4 L4.6 1.1 C4.6 0.3 5.7 0.3 5.7 1.1 L5.7 4.4 L5.9 1.6 C5.9 0.9 7 0.9 7 1.6 L7 4.9 L7.2 2.6 C7.2 2 8.2 2 8.2 2.6 L8 6.8 C7.9 8.5 7.2 9.6 6.2 9.6 Z" fill="#f1c27d" stroke="#8a5a20" stroke-width=".5"/></svg>';
const ICON = { offspring: MEMBER_ICON, movement: "➜", exploration: "⬡", hand: HAND_ICON, lightning: "⚡", arrow: "↗", relocate: "↔", members: MEMBER_ICON };
const PARTS = ["bear_teeth", "offspring", "movement", "exploration", "most_members", "most_tiles"];
const LAYOUT = `<section id="players" class="pstrip" data-testid="players"></section>
<section id="row" class="card rowcard"></section>
<div class="cols">
  <div class="col" data-camera-slot>
    <div data-widget="summary"></div>
    <section id="entry" class="card"></section>
  </div>
  <div class="col">
    <section id="scores" class="card"></section>
    <section id="lands" class="card"></section>
    <section id="board" class="card"></section>
    <section id="tracks" class="card"></section>
    <div data-widget="chart"></div>
    <div data-widget="log"></div>
    <section id="legend" class="card" data-testid="legend"></section>
  </div>
</div>`;

export function mount(shell) {
  const { t, h, nm, colour, dot } = shell;
  const $ = (sel, root = document) => root.querySelector(sel);
  const S = { catalog: null, catalogDigest: null, savedCatalog: null, build: null, buildFor: -1, pick: null };
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
  const tileById = (id) => cat().action_tiles.find((a) => a.id === id);
  const setHtml = (el, html) => { el.innerHTML = html; shell.placeWidgets(el); };
  const prov = (on) => (on ? ` class="prov" title="${h(t("provisional"))}"` : "");
  const shells = (n) => `${n}${SHELL_ICON}`;
  const camera = () => shell.camera; // camera mode: the tracker's status, else null

  // --- words: reasons and notes from their templates, camera facts, names ---------------------------
  function say(kind, v) {
    if (kind === "achievement") { const a = achById(v); return a ? nm(a.name) : String(v); }
    if (kind === "tile") { const a = tileById(v); return a ? nm(a.name) : String(v); }
    return t(v);
  }
  function reasonText(r) {
    if (!r) return "";
    const tpl = r.key && REASONS[r.key];
    return tpl ? fillReason(tpl[shell.lang === "de" ? 1 : 0], r.args || {}, say) : r.text || "";
  }
  const noteText = (o) => (o.note_key ? reasonText({ key: o.note_key, args: o.note_args, text: o.note }) : o.note || "");
  function reasonHtml(r, testid = "") {
    if (!r) return "";
    const w = clause(r.clause);
    return `<div class="reason"${testid ? ` data-testid="${h(testid)}"` : ""}><b>${h(r.clause)}</b>${w ? ` (${h(w)})` : ""}: ${h(reasonText(r))}</div>`;
  }
  // what the camera reads, in words (the tracker's facts: games/tribes/tracker/facts.py)
  const seatName = (names, ls) => (names && names[String(ls)]) || `${t("seat")} ${ls}`;
  function region(id, names) {
    return id.startsWith("land:") ? t("landOf", { p: seatName(names, id.slice(5)) }) : id;
  }
  function fact(key, names) {
    const [kind, a, b] = key;
    switch (kind) {
      case "land": return t("f_land", { p: seatName(names, a), hex: b });
      case "members": return t("f_members", { p: seatName(names, a), hex: b });
      case "slot": return t("f_slot", { n: a });
      case "slotshells": return t("f_slotshells", { n: a });
      case "filled": return t("f_filled", { n: a });
      case "board": return t("f_board", { e: a, c: b + 1 });
      case "face": return t("f_face", { e: a, c: b + 1 });
      case "stones": return t("f_stones", { e: a, c: b + 1 });
      case "track": return t("f_track", { c: t(a), tr: t(b) });
      case "shells": return t("f_shells", { p: seatName(names, a) });
      default: return t("f_arrow", { c: t(a) });
    }
  }
  function factValue(key, v) {
    const kind = key[0];
    if (kind === "land") return v === null ? t("v_noTile") : v[1] ? t("v_exhausted") : res(v[0]);
    if (kind === "members") return (v || []).map(([c, n]) => `${n} ${t(c)}`).join(", ") || t("v_noMembers");
    if (kind === "slot") { if (v === null) return t("v_empty"); const e = v[1] ? evtById(v[0]) : tileById(v[0]); return e ? nm(e.name) : v[0]; }
    if (kind === "board") { if (v === null) return t("faceDown"); const a = achById(v); return a ? nm(a.name) : v; }
    if (kind === "face") return v ? t("v_faceUp") : t("faceDown");
    if (kind === "filled") return v ? t("v_aTile") : t("v_empty");
    if (kind === "stones") return (v || []).map((c) => (c ? t(c) : "-")).join(", ") || t("v_noStones");
    if (kind === "arrow") return v === null ? t("v_notLaid") : `${v[0]} ↗ ${v[1]}`;
    return String(v);
  }

  // --- live data ----------------------------------------------------------------------------------
  async function loadCatalog(digest, saved) {
    if (!saved && digest && digest === S.catalogDigest) return;
    const r = await shell.api("GET", "/api/catalog" + (saved ? "?saved=1" : ""));
    if (!r.ok) return;
    if (saved) { S.savedCatalog = r.data; return; }
    S.catalog = r.data; S.catalogDigest = r.data.digest;
  }
  async function update(v) {
    S.build = null; S.pick = null;
    const digest = v.has_game ? v.position.profile.digest : v.profile && v.profile.digest;
    await loadCatalog(digest, false);
  }

  // --- the turn banner: who, and what to do now (the shell adds Undo) -------------------------------
  function waitText(v) {
    const p = v.prompt;
    return t("w_" + p.kind, { p: p.player || "", n: p.count || "" });
  }
  function round(v) { return Math.floor(v.position.turn / Math.max(1, players().length)) + 1; }
  function banner() {
    const v = shell.shown();
    if (!v || !v.position) return null;
    const p = v.prompt;
    const e3 = v.era3;
    const era3 = `<span data-testid="era3" title="${h(t("era3End"))}">${h(t("era3Short", { d: e3.done, n: e3.needed }))}</span>`;
    if (v.over) {
      const top = (v.result && v.result.ranking.filter((r) => r.place === 1)) || [];
      const win = top.length ? t(top.length > 1 ? "winners" : "winner", { p: top.map((r) => r.name).join(" & "), n: top[0].score }) : "";
      return { colour: top.length === 1 ? pcol(top[0].seat) : null, html: `<div class="who"><span data-testid="to-move">${h(t("gameOver"))}</span></div><div class="what" data-testid="context">${h(win)}</div>` };
    }
    // a chance outcome (tiles drawn, a tile turned up): the table tells, for the player whose turn it is
    const who = `${dot(pcol(p.seat))}<span data-testid="to-move">${h(p.player)}</span>${p.chance ? ` <span class="tablewho">(${h(t("table"))})</span>` : ""}`;
    return {
      colour: pcol(p.seat),
      html: `<div class="who">${who} <span class="muted">${h(t("round"))} ${round(v)} · ${era3}</span></div><div class="what" data-testid="context">${h(waitText(v))}</div>`,
    };
  }

  // --- rendering ----------------------------------------------------------------------------------
  function render() {
    const v = shell.view;
    if (!v) return;
    if (!v.has_game) {
      $("#players").innerHTML = "";
      setHtml($("#row"), shell.leds && shell.leds.enabled ? rowHead() : "");
      $("#entry").innerHTML = shell.noGame();
      for (const id of ["scores", "lands", "board", "tracks"]) $("#" + id).innerHTML = "";
      renderLegend();
      return;
    }
    renderPlayers(); renderRow(); renderEntry(); renderScores(); renderLands(); renderBoard(); renderTracks(); renderLegend();
  }

  // the player panels: points earned so far (and if the game ended now), shells, members left
  function renderPlayers() {
    const v = shell.shown();
    const p = v.prompt;
    const by = Object.fromEntries(v.scores.map((s) => [s.seat, s]));
    $("#players").innerHTML = v.position.players.map((pl, seat) => {
      const s = by[seat];
      const on = !v.over && p.seat === seat;
      return `<div class="pp${on ? " on" : ""}" style="--pc:${colour(pl.colour)}" data-testid="pp-${seat}">
        <div class="ppn">${dot(pl.colour)} ${h(pl.name)}</div>
        <div class="ppv"><b data-testid="vp-${seat}" title="${h(t("nowTip"))}">${s.standing}</b><span class="muted" title="${h(t("finalTip"))}"> → ${s.total}</span> <small>${h(t("vp"))}</small></div>
        <div class="pps"><span data-testid="shells-${seat}" title="${h(t("shells"))}">${shells(pl.shells)}</span> <span data-testid="members-${seat}" title="${h(t("membersLeft"))}">${ICON.members}${pl.supply}</span></div></div>`;
    }).join("");
  }

  // the action row: every tile fits (two lines on a phone); cost, shells on it, free, hand, event
  function tileName(rt) {
    if (rt.event !== undefined) { const e = evtById(rt.event); return e ? nm(e.name) : rt.event; }
    const a = tileById(rt.tile);
    return a ? t(a.action) : rt.tile;
  }
  const tileShort = (rt) => (rt.event !== undefined ? tileName(rt) : t("short_" + (tileById(rt.tile) || { action: "" }).action));
  function renderRow() {
    const v = shell.shown();
    const pos = v.position;
    const choosing = v.prompt.kind === "choose" && live();
    const tiles = choosing ? v.prompt.tiles : null;
    const cards = pos.row.map((rt, i) => {
      const slot = i + 1;
      const isEvt = rt.event !== undefined;
      const info = tiles ? tiles[i] : null;
      const a = isEvt ? null : tileById(rt.tile);
      const free = slot === 1 && v.free_slot === 1;
      const no = info && !info.affordable;
      const cls = ["tile", isEvt ? "evt" : "", free ? "free" : "", no ? "no" : "", S.pick === slot || (S.build && S.build.slot === slot) ? "sel" : ""].join(" ");
      const cost = slot - 1;
      const e = isEvt ? evtById(rt.event) : null;
      const why = no ? shell.disabled(reasonText(info.reason)) : "";
      return `<button class="${cls}" data-testid="tile-${slot}" data-tile="${slot}" ${why} aria-label="${h(`${slot}. ${isEvt ? t("event") + " " : ""}${tileName(rt)}`)}">
        <span class="slot">${slot}${free ? ` <span class="freebadge">${h(t("free"))}</span>` : cost ? ` <span class="cost">${shells(cost)}</span>` : ""}</span>
        <span class="nm">${h(tileShort(rt))}${a && a.hand ? ` <span class="hand" title="${h(t("handTip"))}">${ICON.hand}</span>` : ""}</span>
        ${isEvt ? `<span class="evtag"${prov(e && e.provisional)}>${ICON.lightning} ${h(t("event"))}${e ? ` · ${h(t("eraN", { e: e.era }))}` : ""}</span>` : ""}
        ${rt.shells ? `<span class="on">+${shells(rt.shells)}</span>` : ""}</button>`;
    });
    setHtml($("#row"), `${rowHead()}<div class="rowtiles" data-testid="row" style="--n:${cards.length};--cols:${cards.length <= 6 ? 3 : 4}">${cards.join("")}</div>`);
  }
  // the shell's LED bar lies along the action row: its status beside the heading, the dots above the tiles
  function rowHead() {
    return `<div class="rowhead"><h2>${h(t("row"))}</h2><span data-widget="ledstat"></span></div><div data-widget="ledbar"></div>`;
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
    if (o.kind === "offspring") S.build = o.members > 0 ? { kind: "off", slot, need: o.members, targets: o.targets, place: [], o } : { kind: "off", slot, relocate: o.relocate, targets: o.targets, transfers: [], from: null, o };
    else if (o.kind === "movement") S.build = { kind: "mov", slot, steps: o.intensity, transfers: [], from: null, o };
    else if (o.kind === "exploration") S.build = { kind: "exp", slot, o };
    else if (o.kind === "event") S.build = { kind: "evt", slot, o };
    else if (o.kind === "achievement") S.build = { kind: "ach", slot, id: o.achievement, jokersNeeded: o.jokers_needed, cands: o.joker_candidates, jokers: [], arrowFrom: o.arrow_from || [], arrow: (o.arrow_from || []).length === 1 ? o.arrow_from[0] : null, o };
    S.buildFor = v.state_id; S.pick = null; shell.setError(null);
    renderEntry(); renderRow(); renderLands();
    $("#entry").scrollIntoView({ block: "nearest" });
  }
  function chip(label, attrs, on = false) { return `<button class="chip${on ? " on" : ""}" ${attrs}>${h(label)}</button>`; }
  function movedMembers(b, pos, seat) {
    const m = {}; for (const l of pos.players[seat].land) m[hexKey(l.hex)] = l.members;
    for (const [a, c] of b.transfers) { m[a] -= 1; m[c] = (m[c] || 0) + 1; }
    return m;
  }
  const costText = (tile) => (tile.cost ? `${tile.cost}${SHELL_ICON}` : h(t("free")));
  // a tile's action in a few signs: +2 👤, 3 ➜, 2 ⬡ (the legend says what they mean)
  function actionSigns(o) {
    if (o.kind === "offspring") return o.members ? `+${o.members} ${ICON.offspring}` : `${o.relocate} ${ICON.relocate}`;
    if (o.kind === "movement") return `${o.intensity} ${ICON.movement}`;
    if (o.kind === "exploration") return o.draw ? `${o.draw} ${ICON.exploration}` : o.restore && o.restore.length ? `↺ ${o.restore.length}` : "–";
    return "";
  }
  function achSigns(o) {
    const a = o.achievement ? achById(o.achievement) : null;
    const pv = a && a.slots[o.slot - 1] && a.slots[o.slot - 1].provisional;
    return `<span${prov(pv)}>${o.vp} ${h(t("vp"))}</span>${o.lightning ? ` ${ICON.lightning}` : ""}${o.jokers_needed ? ` · ${h(t(o.jokers_needed === 1 ? "joker1" : "jokerN", { n: o.jokers_needed }))}` : ""}${o.via_arrow ? ` · ${ICON.arrow}` : ""}`;
  }

  // what the player to move can do: each affordable tile's action, the achievements once (with the
  // hand tiles to take), and the reasons for the rest grouped
  function chooseOverview(v) {
    const p = v.prompt;
    const tiles = p.tiles;
    const acts = [];
    for (const tile of tiles) {
      if (!tile.affordable) continue;
      const o = tile.options[0];
      const i = 0;
      const label = tile.event ? `${ICON.lightning} ${nm(o.name)}` : t(o.kind);
      const sign = tile.event ? (o.affects_you ? "" : ` · ${t("notYou")}`) : ` ${actionSigns(o)}`;
      acts.push(`<button class="act opt${S.pick === tile.slot ? " sel" : ""}" data-opt="${tile.slot}:${i}" data-testid="opt-${tile.slot}-${o.kind}"><span class="oslot">${tile.slot}</span> ${h(label)}<span class="osign">${sign}</span> <span class="ocost">${costText(tile)}</span></button>`);
    }
    const hands = tiles.filter((x) => !x.event && x.options.some((o) => o.kind === "achievement"));
    const payable = hands.filter((x) => x.affordable);
    const src = payable[0] || hands[0];
    let ach = "";
    const why = [];
    for (const tile of tiles) if (!tile.affordable) why.push({ r: tile.reason, subject: `${t("slot")} ${tile.slot}` });
    if (src) {
      const opts = src.options.map((o, i) => [o, i]).filter(([o]) => o.kind === "achievement");
      const open = payable.length ? opts.filter(([o]) => o.available) : [];
      if (payable.length) for (const [o] of opts) if (!o.available) why.push({ r: o.reason, subject: o.achievement ? nm((achById(o.achievement) || {}).name || { en: o.achievement }) : "" });
      const vias = (o) => payable.map((x) => [x, x.options.findIndex((y) => y.kind === "achievement" && y.achievement === o.achievement)]).filter(([, i]) => i >= 0);
      const items = open.map(([o]) => {
        const a = achById(o.achievement);
        const picking = S.pick === `ach:${o.achievement}`;
        const via = picking ? `<div class="via">${h(t("viaTile"))}: ${vias(o).map(([x, i]) => `<button class="chip" data-opt="${x.slot}:${i}" data-testid="opt-${x.slot}-achievement-${o.achievement}">${x.slot} · ${costText(x)}</button>`).join("")}</div>` : "";
        return `<div class="achopt"><button class="act opt${picking ? " sel" : ""}" data-achpick="${h(o.achievement)}" data-testid="ach-${o.achievement}">${ICON.hand} ${h(a ? nm(a.name) : o.achievement)} <span class="osign">${achSigns(o)}</span></button>${via}</div>`;
      });
      const head = payable.length ? t("achWith", { s: payable.map((x) => `${x.slot}`).join(", ") }) : t("achNoHand");
      ach = `<h3>${h(t("achievementsNow"))} <span class="muted">${h(head)}</span></h3>${items.join("") || `<p class="muted">${h(t("achNone"))}</p>`}`;
    }
    return `<h3>${h(t("chooseTile"))}</h3><div class="opts" data-testid="options">${acts.join("")}</div>${ach}${whyNot(why)}`;
  }
  // the reasons for what cannot be done, identical ones once (with what they concern), by clause
  function whyNot(items) {
    const real = items.filter((x) => x.r);
    if (!real.length) return "";
    const groups = new Map();
    for (const x of real) { const k = x.r.key || x.r.text; if (!groups.has(k)) groups.set(k, []); groups.get(k).push(x); }
    const lines = [...groups.entries()].map(([k, xs]) => {
      const r = xs[0].r;
      if (k === "face_down") {
        const byEra = {};
        for (const x of xs) (byEra[x.r.args.era] = byEra[x.r.args.era] || []).push(x.r.args.col);
        const list = Object.entries(byEra).map(([e, cs]) => t("eraCols", { e, c: cs.join(", ") })).join("; ");
        return `<div class="reason" data-testid="why-face_down"><b>${h(r.clause)}</b> (${h(clause(r.clause))}): ${h(t("grpFaceDown", { n: xs.length, list }))}</div>`;
      }
      const texts = [...new Set(xs.map((x) => reasonText(x.r)))];
      if (texts.length === 1) {
        const who = xs.length > 1 ? ` <span class="muted">(${h(xs.map((x) => x.subject).filter(Boolean).join(", "))})</span>` : "";
        return reasonHtml(r, `why-${r.key}`).replace(/<\/div>$/, `${who}</div>`);
      }
      return xs.map((x) => reasonHtml(x.r, `why-${r.key}`)).join("");
    });
    return `<details class="why" id="legal" data-testid="why"><summary>${h(t("why"))} (${groups.size})</summary>${lines.join("")}</details>`;
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
    if (p.kind === "game_over") return "";
    if (p.kind === "first_member") {
      if (!b) S.build = { kind: "start", hex: null };
      html += `<p>${h(t("firstMember"))}: ${h(t("tapHexes"))}</p>` + p.hexes.map((x) => chip(x, `data-hexchip="${x}"`, S.build.hex === x)).join("");
    } else if (p.kind === "draw") {
      if (!b) S.build = { kind: "draw", count: p.count, tiles: [] };
      const bb = S.build;
      html += `<p>${h(t("drawn", { n: p.count }))}</p>` + Object.entries(p.bag).map(([r, k]) => {
        const left = k - bb.tiles.filter((x) => x === r).length;
        const off = left <= 0 ? shell.disabled(t("bagOut", { r: res(r) })) : bb.tiles.length >= bb.count ? shell.disabled(t("drawnAll", { n: bb.count })) : "";
        return `<button class="chip res" style="--rc:${resColour(r)}" data-draw="${r}" ${off}>+ ${h(res(r))} <span class="muted">(${k} ${h(t("bag"))})</span></button>`;
      }).join("");
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
      if (b && b.kind === "text" && !isAch) { const e = evtById(b.text.split(" ")[1]); if (e) html += `<p class="muted"${prov(e.provisional)}>${h(nm(e.text))}</p>`; }
    } else if (p.kind === "event") {
      const e = evtById(p.event);
      html += `<p><b>${h(e ? nm(e.name) : p.event)}</b> <span${prov(e && e.provisional)}>${e ? h(nm(e.text)) : ""}</span></p><p>${h(t("answer"))} (${h(p.player)}):</p>`;
      html += p.answers.map((a) => chip(a, `data-text="${h(a)}"`, b && b.text === a)).join("");
    } else if (p.kind === "choose") {
      if (!b) return chooseOverview(v);
      const tile = p.tiles.find((x) => x.slot === b.slot);
      html += `<p><b>${tile.slot}. ${h(tile.event ? nm(tile.name) : t(b.o.kind === "achievement" ? "achievement" : b.o.kind))}</b> · ${costText(tile)}${tile.shells_on ? ` · +${shells(tile.shells_on)} ${h(t("shellsOn"))}` : ""}</p>`;
      const note = noteText(b.o);
      if (note) html += `<p class="muted">${h(note)}</p>`;
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
        html += `<p>${h(t("achievement"))}: <b>${h(a ? nm(a.name) : b.id)}</b> · ${achSigns(b.o)}</p>`;
        if (b.jokersNeeded) html += `<p>${h(t("chooseJokers", { n: b.jokersNeeded }))}</p>` + b.cands.map((x) => chip(x, `data-joker="${x}"`, b.jokers.includes(x))).join("");
        if (b.arrowFrom.length) html += `<p>${h(t("chooseArrow"))}:</p>` + b.arrowFrom.map((id) => chip(nm((achById(id) || {}).name) || id, `data-arrow="${id}"`, b.arrow === id)).join("");
      } else if (b.kind === "exp") html += `<p class="muted">${h(camera() ? t("exploreNoteCam") : t("exploreNote"))}</p>`;
      else if (b.kind === "evt") {
        const o = b.o;
        html += `<p${prov((evtById(o.event) || {}).provisional)}>${h(nm(o.text))}</p><p class="muted">${h(t("eventNote"))}</p>`;
      }
    }
    return html;
  }

  // what the camera cannot read is asked; the rest is shown as what it read
  const CAMERA_READS = new Set(["first_member", "choose", "draw", "place", "restore", "reveal", "event_reveal"]);
  function cameraNote(v) {
    const last = v.last ? `<p class="muted" data-testid="cam-last">${h(t("camLast"))}: <code>${h(v.last.move)}</code></p>` : "";
    return `<p data-testid="cam-reads">${h(t("camReads"))}</p>${last}`;
  }

  // the entry card: what to enter, the move being built with Confirm, then the shell's controls
  // (error, correct, a move to type; while the history is viewed: back to live)
  function renderEntry() {
    const el = $("#entry");
    const v = shell.view;
    if (!v || !v.has_game) { el.innerHTML = ""; return; }
    if (!live()) { setHtml(el, `<div data-widget="controls"></div>`); return; }
    if (S.buildFor !== v.state_id && S.build && !["start", "draw", "place", "restore", "text"].includes(S.build.kind)) S.build = null;
    const cam = camera() && CAMERA_READS.has(v.prompt.kind) && !v.over;
    let body = entryBody(v);
    const b = S.build;
    S.buildFor = v.state_id;
    if (b && !(v.prompt.kind === "choose" && !b.slot && b.kind !== "text")) {
      const text = notationOf(b);
      const ready = buildReady(b) && text;
      body += `<div class="confirm">${text ? `<span class="preview" data-testid="preview">${h(text)}</span>` : ""}
        <button class="act" id="confirm" data-testid="confirm" data-do="confirm" ${ready ? "" : shell.disabled(t("notReady"))}>${h(t("confirm"))}</button>
        <button class="sec" data-do="cancel">${h(t("cancel"))}</button></div>`;
    }
    let html = v.over ? "" : `<h2>${h(t("enter"))}</h2>`;
    if (cam) html += cameraNote(v) + `<details class="byhand" data-testid="byhand"${S.byHand ? " open" : ""}><summary>${h(t("byHand"))}</summary>${body}</details>`;
    else html += body;
    setHtml(el, html + `<div data-widget="controls"></div>`);
    const d = $("details.byhand", el);
    if (d) d.addEventListener("toggle", () => { S.byHand = d.open; });
  }

  // the scores: earned so far beside the final score if the game ended now, each with its parts
  function renderScores() {
    const v = shell.shown();
    const c = cat();
    const trackProv = (seat, name) => { const tr = c.tracks.find((x) => x.name === name); const idx = v.position.players[seat].tracks[name]; return !!(tr && tr.provisional.vp[idx]); };
    const part = (k, n, pv = false) => (n ? `<span class="part"${prov(pv)}>${h(t("part_" + k))} ${n}</span>` : "");
    const rows = v.scores.map((s) => {
      const pl = v.position.players[s.seat];
      const tracks = ["offspring", "movement", "exploration"].map((k) => part(k, s[k], trackProv(s.seat, k))).join("");
      const now = [part("bear_teeth", s.bear_teeth), tracks].join("") || `<span class="part">0</span>`;
      const end = [part("most_members", s.most_members), part("most_tiles", s.most_tiles)].join("");
      return `<tr data-testid="score-row-${s.seat}"><td class="pl">${dot(pl.colour)} ${h(s.name)}</td>
        <td class="total"><span data-testid="score-now-${s.seat}">${s.standing}</span><div class="parts">${now}</div></td>
        <td class="total"><span data-testid="score-total-${s.seat}">${s.total}</span><div class="parts">${end ? `+ ${end}` : `<span class="part">${h(t("noMajority"))}</span>`}</div></td>
        <td class="tb"><span data-testid="score-shells-${s.seat}">${shells(s.shells)}</span><div class="parts"><span class="part">${h(t("exhaustedN", { n: s.exhausted }))}</span></div></td></tr>`;
    });
    $("#scores").innerHTML = `<h2>${h(t("scores"))}</h2><table class="scoretable"><thead><tr><th>${h(t("player"))}</th><th title="${h(t("nowTip"))}">${h(t("scoreNow"))}</th>
      <th title="${h(t("finalTip"))}">${h(t("scoreFinal"))}</th><th title="${h(t("tieTip"))}">${h(t("tiebreak"))}</th></tr></thead><tbody>${rows.join("")}</tbody></table>
      <p class="muted">${h(t("scoreNote"))}</p>`;
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
    let s = `<svg viewBox="${x0.toFixed(1)} ${y0.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}" width="${(w * 1.5).toFixed(0)}" data-testid="land-${seat}" role="img" aria-label="${h(t("landOf", { p: pos.players[seat].name }))}">`;
    s += `<defs><pattern id="hatch${seat}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#a8a29e"/><line x1="0" y1="0" x2="0" y2="6" stroke="#78716c" stroke-width="3"/></pattern></defs>`;
    for (const l of land) {
      const k = hexKey(l.hex); const [x, y] = xy(k);
      const cls = ["hex", opts.tap.includes(k) ? "tap" : "", opts.picked.includes(k) ? "picked" : ""].join(" ");
      s += `<g data-hex="${k}" data-seat="${seat}"><polygon class="${cls}" points="${hexPoints(x, y, R - 1)}" fill="${l.exhausted ? `url(#hatch${seat})` : resColour(l.resource)}"><title>${h(k)} ${h(res(l.resource))}${l.exhausted ? ` (${h(t("exhaustedWord"))})` : ""}</title></polygon>`;
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
      return `<div class="land"><h3>${dot(pl.colour)} ${h(pl.name)} <span class="muted">${ICON.members}${pl.supply} · ${shells(pl.shells)}</span></h3>${landSvg(pos, seat, opts)}</div>`;
    });
    $("#lands").innerHTML = `<h2>${h(t("lands"))}</h2><div class="lands">${html.join("")}</div>`;
  }

  // the achievement board, era 3 on top; provisional values dotted (the legend says so)
  function renderBoard() {
    const v = shell.shown();
    const pos = v.position;
    let cells = "";
    for (let era = 3; era >= 1; era--) {
      cells += `<div class="eral">${h(t("eraN", { e: era }))}</div>`;
      for (let col = 0; col < 4; col++) {
        const bt = pos.board[era - 1][col];
        if (!bt.tile) { cells += `<div class="ach down" data-testid="ach-${era}-${col + 1}" title="${h(t("faceDown"))}">?</div>`; continue; }
        const a = achById(bt.tile) || { name: { en: bt.tile }, slots: [], provisional: {} };
        const slots = a.slots.map((sl, i) => {
          const stone = bt.stones[i];
          return `<span class="slotbox${sl.provisional ? " prov" : ""}" title="${sl.provisional ? h(t("provisional")) : ""}" style="${stone !== undefined ? `background:${colour(pcol(stone))};color:#fff` : ""}">${sl.vp}${sl.lightning ? ICON.lightning : ""}</span>`;
        }).join("");
        const rp = a.provisional && (a.provisional.resource || a.provisional.track);
        cells += `<div class="ach e${era}" data-testid="ach-${era}-${col + 1}"><div class="nm">${h(nm(a.name))}</div>
          <div${prov(rp)}>${era}× ${h(res(a.resource))} → ${h(t(a.track))}</div><div class="slots">${slots}</div></div>`;
      }
    }
    const arrows = (pos.arrows || []).map((ar) => `<div>${dot(pcol(ar.owner))} ${h(nm((achById(ar.from) || {}).name) || ar.from)} ${ICON.arrow} ${h(nm((achById(ar.to) || {}).name) || ar.to)}</div>`).join("");
    $("#board").innerHTML = `<h2>${h(t("board"))}</h2><div class="boardgrid">${cells}</div>${arrows ? `<h3>${h(t("arrows"))}</h3>${arrows}` : ""}`;
  }

  function renderTracks() {
    const v = shell.shown();
    const pos = v.position;
    const html = cat().tracks.map((tr) => {
      const spaces = tr.vp.map((vp, i) => {
        const pv = tr.provisional.vp[i] || (tr.intensity && tr.provisional.intensity[i]);
        const markers = pos.players.map((pl) => (pl.tracks[tr.name] === i ? dot(pl.colour) : "")).join("");
        return `<div class="space${pv ? " prov" : ""}" title="${pv ? h(t("provisional")) : ""}"><div class="markers">${markers}</div>${tr.intensity ? `<div>${"|".repeat(tr.intensity[i])}</div>` : ""}<div>${vp} ${h(t("vp"))}</div></div>`;
      }).join("");
      return `<div class="track" data-testid="track-${tr.name}"><div>${h(t(tr.name))}</div><div class="spaces">${spaces}</div></div>`;
    }).join("");
    $("#tracks").innerHTML = `<h2>${h(t("tracksTitle"))}</h2>${html}`;
  }

  // every symbol the page uses, said once
  function renderLegend() {
    const items = [
      [`<span class="freebadge">${h(t("free"))}</span>`, t("lg_free")], [SHELL_ICON, t("lg_shell")], [ICON.hand, t("lg_hand")],
      [ICON.offspring, t("lg_offspring")], [ICON.relocate, t("lg_relocate")], [ICON.movement, t("lg_movement")],
      [ICON.exploration, t("lg_exploration")], [ICON.lightning, t("lg_lightning")], [t("joker1"), t("lg_joker")],
      [ICON.arrow, t("lg_arrow")], [`<span class="hatch"></span>`, t("lg_exhausted")], [`<span class="prov">12</span>`, t("lg_prov")],
      [`7 <span class="muted">→ 11</span>`, t("lg_points")], ["?", t("lg_facedown")],
    ];
    $("#legend").innerHTML = `<details><summary><h2>${h(t("legend"))}</h2></summary><dl class="legend">${items.map(([k, d]) => `<dt>${k.startsWith("<") || k.length <= 3 ? k : h(k)}</dt><dd>${h(d)}</dd>`).join("")}</dl></details>`;
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
      return `<div class="group"><h3>${h(nm(a.name))} <span class="muted">${h(t("eraN", { e: a.era }))}</span> ${checkBtn(p)}</h3>
        <div class="form-row">${h(t("resource"))} ${field(`${p}.resource`, "sel:" + resources)} ${h(t("track"))} ${field(`${p}.track`, "sel:offspring|movement|exploration|strength")}</div>
        <div class="form-row">${a.slots.map((s, k) => `<span>${k + 1}: ${field(`${p}.slots[${k}].vp`, "num")} ⚡${field(`${p}.slots[${k}].lightning`, "bool")}</span>`).join(" ")}</div></div>`;
    }).join("") + "</section>";
    html += `<section class="card"><h2>${h(t("events"))}</h2>` + d.events.map((e, i) => {
      const p = `events[${i}]`;
      return `<div class="group"><h3>${h(nm(e.name))} <span class="muted">${h(t("eraN", { e: e.era }))}</span> ${checkBtn(p)}</h3>
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
      if (!live() || v.prompt.kind !== "choose") return;
      const slot = Number(d.tile);
      S.build = null;
      S.pick = S.pick === slot ? null : slot;
      const tile = v.prompt.tiles.find((x) => x.slot === slot);
      if (tile && tile.affordable && tile.options.filter((o) => o.available).length === 1) { startBuild(slot, tile.options.findIndex((o) => o.available)); return; }
      renderRow(); renderEntry();
      const opt = document.querySelector(`[data-opt^="${slot}:"]`);
      if (opt) opt.scrollIntoView({ block: "nearest" });
      return;
    }
    if (d.achpick) { // an achievement: with the one hand tile to pay for at once, else pick the tile
      S.build = null;
      S.pick = S.pick === `ach:${d.achpick}` ? null : `ach:${d.achpick}`;
      const isIt = (o) => o.kind === "achievement" && o.achievement === d.achpick && o.available;
      const tiles = v.prompt.tiles.filter((x) => x.affordable && x.options.some(isIt));
      if (tiles.length === 1) { startBuild(tiles[0].slot, tiles[0].options.findIndex(isIt)); return; }
      renderEntry();
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
      case "cancel": S.build = null; S.pick = null; shell.setError(null); renderEntry(); renderLands(); renderRow(); break;
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
  return {
    strings: STRINGS, clause, update, render, newGame, profile, banner, reason: reasonText, fact, factValue, region,
    scoreParts: PARTS, tiebreakNote: () => t("tieRule"),
  };
}
