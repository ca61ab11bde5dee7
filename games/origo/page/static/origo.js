// Origo's module of the companion page (loaded by the shell, webui/static/shell.js, which calls
// mount(shell); the contract is docs/page-shell.md). It draws the 10×10 board with its lands and seas
// (the board file's map, provisional), every field's shield, the founding stones with the values the
// table reported, the leader track, the scores with their parts and the tribe scorings; moves are
// entered by tapping: a field to lay a shield ("Ann lays a shield on C4"), a field to attack with the
// battle calculator (both sides' points, who wins if nobody plays on, the cards the side behind needs,
// what happens with the cards each side can still play), cards one tap each, the founding field
// revealed (value and red), tribe and final points with a number picker, refill and pass. The log,
// chart, history, undo and corrections are the shell's. Vanilla JS, no build step.
import { CLAUSES, STRINGS } from "./origo-i18n.js";

const LAND = ["#e8d5a3", "#cfe3b0", "#f0c8a8", "#d9c6e8", "#f3e1a0", "#bfe0c8", "#e9b8b8", "#d4d0a0", "#f1cfe0", "#c8d8a8", "#e6c79a", "#d0e8d8"];
const SEA = ["#a9cde8", "#9ec3e0", "#b5d6ee", "#93bada"];
const CARD_POINTS = 2;
const LAYOUT = `<div class="cols og">
  <div class="col og-a" data-camera-slot>
    <section id="og-status" class="card" data-testid="og-status"></section>
  </div>
  <div class="col og-b">
    <section id="og-board" class="card"></section>
    <div data-widget="controls"></div>
  </div>
  <div class="col og-c">
    <section id="og-scores" class="card"></section>
    <section id="og-founding" class="card"></section>
    <section id="og-regions" class="card"></section>
    <div data-widget="chart"></div>
    <div data-widget="log"></div>
  </div>
</div>`;

// The end of a battle if, from here, the side behind always answers with one more card while it has
// one (games/origo/rules/battle.py, play_out; a tie is the defender's).
export function playOut(a, d, aLeft, dLeft) {
  let usedA = 0;
  let usedD = 0;
  for (;;) {
    if (a <= d) { // the attacker is behind
      if (usedA >= aLeft) return { winner: "defender", attacker_cards: usedA, defender_cards: usedD, attacker_points: a, defender_points: d };
      usedA += 1; a += CARD_POINTS;
    } else {
      if (usedD >= dLeft) return { winner: "attacker", attacker_cards: usedA, defender_cards: usedD, attacker_points: a, defender_points: d };
      usedD += 1; d += CARD_POINTS;
    }
  }
}

export function mount(shell) {
  const { t, h, nm, dot, provTag } = shell;
  const root = shell.root;
  const $ = (sel) => root.querySelector(sel);
  const clause = (c) => { const w = CLAUSES[c]; return w ? w[shell.lang === "de" ? 1 : 0] : ""; };
  // module state: the board catalog (provisional flags), the entry being built, the pickers
  const S = {
    catalog: null, digest: null, mode: "lay", sel: null, selFor: -1,
    play: 1, showPlay: false, reveal: null, points: {}, pointsFor: null, wi: null, outcome: null, prevLive: null,
  };
  const link = document.createElement("link");
  link.rel = "stylesheet"; link.href = new URL("./origo.css", import.meta.url).href;
  document.head.append(link);

  const cards = (n) => t(n === 1 ? "card1" : "cardN", { n });
  const fields = (n) => t(n === 1 ? "field1" : "fieldN", { n });
  const shields = (n) => t(n === 1 ? "shield1" : "shieldN", { n });
  const why = (c, reason) => `<b>${h(c)}</b>${clause(c) ? ` (${h(clause(c))})` : ""}: ${h(reason)}`;
  const seatOf = (name) => { const p = shell.players().find((x) => x.name === name); return p ? p.seat : -1; };
  const pdot = (seat) => dot(shell.pcol(seat));
  const option = (v, kind) => ((v.prompt && v.prompt.options) || []).find((o) => o.move.split(" ")[0] === kind);
  const handSize = () => (S.catalog && S.catalog.components ? S.catalog.components.hand_size : 10);
  const regionOf = (v, id) => v.board.regions.find((r) => r.id === id);
  const fieldOf = (v, name) => v.board.fields.find((f) => f.name === name);
  const picker = (id, value, lo, hi) => `<span class="og-pick">
    <button class="chip" data-pick="${id}" data-d="-5" data-testid="${id}-minus5" ${value - 5 < lo ? "disabled" : ""}>−5</button><button class="chip" data-pick="${id}" data-d="-1" data-testid="${id}-minus" ${value <= lo ? "disabled" : ""}>−</button><b data-testid="${id}-val">${value}</b><button class="chip" data-pick="${id}" data-d="1" data-testid="${id}-plus" ${value >= hi ? "disabled" : ""}>+</button><button class="chip" data-pick="${id}" data-d="5" data-testid="${id}-plus5" ${value + 5 > hi ? "disabled" : ""}>+5</button></span>`;

  // --- live data --------------------------------------------------------------------------------
  async function update(v) {
    const prev = S.prevLive;
    S.prevLive = v;
    if (!v.has_game) { S.sel = null; return; }
    if (prev && prev.has_game && S.selFor !== v.state_id) {
      S.sel = null; S.wi = null; S.showPlay = false;
      if (v.phase !== "turn") S.mode = "lay";
    }
    S.outcome = null;
    const scoringKey = `${v.phase}:${v.round}`;
    if (S.pointsFor !== scoringKey) { S.points = {}; S.pointsFor = scoringKey; }
    if (prev && prev.has_game && prev.battle && !v.battle && v.last && v.last.structured.kind === "stop" && v.moves === prev.moves + 1) {
      const b = prev.battle;
      const loser = b.due_seat;
      const winner = loser === b.attacker_seat ? b.defender_seat : b.attacker_seat;
      S.outcome = { field: b.field, winner: shell.players()[winner].name, loser: shell.players()[loser].name, attackerWon: winner === b.attacker_seat, a: b.attacker_points, d: b.defender_points, state: v.state_id };
    }
    const next = v.founding_stones && v.founding_stones.next;
    if (!S.reveal || S.reveal.state !== v.state_id) S.reveal = { value: next ? next.value : 0, red: next ? next.red : false, state: v.state_id };
    const digest = v.position.profile && v.position.profile.digest;
    if (digest && digest !== S.digest) {
      const r = await shell.api("GET", "/api/catalog");
      if (r.ok) { S.catalog = r.data; S.digest = r.data.digest; }
    }
  }

  // --- rendering --------------------------------------------------------------------------------
  function render() {
    const live = shell.view;
    if (!live) return;
    if (!live.has_game) {
      $("#og-status").innerHTML = shell.noGame();
      for (const id of ["og-board", "og-scores", "og-founding", "og-regions"]) $("#" + id).innerHTML = "";
      return;
    }
    const v = shell.shown();
    renderStatus(v); renderBoard(v); renderScores(v); renderFounding(v); renderRegions(v);
  }

  function waitsText(v) {
    const p = v.prompt;
    switch (v.phase) {
      case "turn": return t("w_turn", { p: p.player });
      case "battle": return v.battle.opening ? t("w_opening", { p: p.player, f: v.battle.field }) : t("w_battle", { p: p.player, f: v.battle.field });
      case "reveal": { const land = regionOf(v, v.position.founding_land); return t("w_reveal", { land: land ? nm(land.name) : "", p: v.position.to_move }); }
      case "scoring": return t("w_scoring", { r: v.round });
      case "final": return t("w_final");
      default: return t("gameOver");
    }
  }

  // the tribe-scoring reminder (O-FOUND-4/5, O-SCORE-2) and why this round is the last, from the view's data
  function reminders(v) {
    const ts = v.tribe_scoring;
    const out = [];
    const pl = shell.players();
    if (["turn", "battle", "reveal"].includes(v.phase) && ts.rounds.length) {
      let s = t("remindRound", { r: ts.rounds[0] });
      const lastSeat = pl.length - 1;
      if (pl[lastSeat] && v.position.to_move === pl[lastSeat].name) s += " " + t("remindLastTurn", { p: pl[lastSeat].name });
      out.push(`<div class="og-remind" data-testid="og-reminder">${h(s)}${ts.rounds.length > 1 ? `<div>${h(t("carried", { rounds: ts.rounds.slice(1).join(", ") }))}</div>` : ""}</div>`);
    } else if (v.phase === "scoring" && ts.rounds.length) {
      out.push(`<div class="muted" data-testid="og-reminder">${h(t("carried", { rounds: ts.rounds.join(", ") }))}</div>`);
    }
    if (ts.lapsed) out.push(`<div class="muted" data-testid="og-lapsed">${h(t("lapsed", { n: ts.lapsed }))}</div>`);
    if (v.end && !v.over) out.push(`<div class="og-remind" data-testid="og-end">${h(t("end_" + v.end))}</div>`);
    return out.join("");
  }

  // what just happened: a founding (the leader advancing, the scoring scheduled) or a battle's outcome
  function notes(v) {
    let html = "";
    if (v.last && v.last.structured && v.last.structured.kind === "reveal") {
      const taken = v.founding_stones.track.filter((x) => x.taken);
      const st = taken[taken.length - 1];
      if (st && st.reported) {
        const r = st.reported;
        const land = regionOf(v, r.land);
        const seat = seatOf(r.by);
        const lead = v.leader_track.positions[seat];
        html += `<div class="og-note" data-testid="og-note">${pdot(seat)} ${h(t("founded", { p: r.by, land: land ? nm(land.name) : r.land, n: r.value }))}${r.red ? ` <span class="og-redtag">${h(t("red"))}</span>` : ""}
          <div data-testid="og-leader-moved">${h(t("leaderMoved", { p: r.by, k: fields(r.value), to: lead ? lead.field : "?" }))}</div>
          ${r.red ? `<div data-testid="og-scheduled">${h(scheduledText(v))}</div>` : ""}</div>`;
      }
    }
    if (S.outcome && S.outcome.state === v.state_id && shell.live) {
      const o = S.outcome;
      html += `<div class="og-note" data-testid="og-outcome">⚔ ${h(t("outcome", { f: o.field, w: o.winner, l: o.loser, a: o.a, d: o.d }))}</div>`;
    }
    return html;
  }
  function scheduledText(v) {
    const rounds = v.tribe_scoring.rounds;
    if (!rounds.length) return t("scheduledNow");
    const mine = rounds[rounds.length - 1];
    return mine === v.round ? t("scheduled", { r: mine }) : t("scheduledCarried", { r: mine });
  }

  function renderStatus(v) {
    const p = v.prompt;
    let who;
    if (v.over) who = `<span data-testid="to-move">${h(t("gameOver"))}</span>`;
    else if (v.phase === "reveal") { const s = seatOf(v.position.to_move); who = `${pdot(s)}<span data-testid="to-move">${h(v.position.to_move)}</span> <span class="muted">${h(t("theTable"))}</span>`; }
    else who = `${pdot(p.seat)}<span data-testid="to-move">${h(p.player)}</span> <span class="muted">${h(v.phase === "battle" ? t("toAnswer") : v.phase === "turn" ? t("toMove") : t("toEnter"))}</span>`;
    let html = `<div class="who">${who}<span class="muted og-round" data-testid="og-round">· ${h(t("round", { r: v.round }))}</span></div>
      <div class="og-waits" data-testid="og-waits">${h(waitsText(v))}</div>${reminders(v)}${notes(v)}`;
    if (v.over && v.ranking) {
      html += `<h2>${h(t("finalRanking"))}</h2><ol class="ranking" data-testid="ranking">${v.ranking.map((r) => `<li>${pdot(r.seat)} ${h(r.name)}: ${h(t("pointsN", { n: r.score }))}</li>`).join("")}</ol>`;
    }
    if (shell.live && !v.over) {
      if (shell.error) html += `<div class="reason" data-testid="og-error">${h(shell.error)}</div>`;
      if (v.phase === "turn") html += turnEntry(v);
      else if (v.phase === "battle") html += battleEntry(v);
      else if (v.phase === "reveal") html += revealEntry(v);
      else html += pointsEntry(v);
    }
    html += shell.warnings();
    $("#og-status").innerHTML = html;
  }

  // --- on turn: lay (tap a free field), attack (tap a ringed field), play cards, refill / pass --------
  function turnEntry(v) {
    const p = v.prompt;
    const name = p.player;
    const att = option(v, "attack");
    const targets = v.attack_targets.length;
    if (S.mode === "attack" && !att.available) S.mode = "lay";
    let html = `<div class="og-modes"><button class="chip${S.mode === "lay" ? " on" : ""}" data-og="mode-lay" data-testid="mode-lay">${h(t("modeLay"))}</button>
      <button class="chip${S.mode === "attack" ? " on" : ""}" data-og="mode-attack" data-testid="mode-attack" ${att.available ? "" : "disabled"}>⚔ ${h(t("modeAttack", { n: targets }))}</button></div>`;
    if (!att.available) html += `<div class="reason" data-testid="why-attack">${h(t("attackNo"))} — ${why(att.clause, att.reason)}</div>`;
    html += `<div class="muted og-hint">${h(S.mode === "lay" ? t("hintLay", { p: name }) : t("hintAttack", { n: targets }))}</div>`;
    if (S.sel) html += selection(v, name);
    // cards played outside a battle (optional: keeps the hand count right, O-LAY-2)
    const play = option(v, "play");
    const hand = play.hand;
    S.play = Math.max(1, Math.min(S.play, Math.max(hand, 1)));
    if (!play.available) html += `<div class="reason" data-testid="why-play">${h(t("playCards"))} — ${why(play.clause, play.reason)}</div>`;
    else if (!S.showPlay) html += `<div class="og-row"><button class="chip" data-og="show-play" data-testid="show-play">${h(t("playCards"))} …</button></div>`;
    else {
      html += `<div class="og-row"><span>${h(t("playCards"))}</span>${picker("play", S.play, 1, hand)}
      <button class="sec" data-move="play ${h(name)} ${S.play}" data-testid="play-ok">${h(t("playFact", { p: name, c: cards(S.play) }))}</button></div>`;
    }
    // the end of the turn: refill (after an action) or pass (before any)
    html += `<div class="og-row og-end">`;
    for (const kind of ["refill", "pass"]) {
      const o = option(v, kind);
      if (o.available) html += `<button class="act" data-move="${h(o.move)}" data-testid="move-${kind}">${h(t(kind + "Btn", { p: name, n: handSize() }))}</button>`;
    }
    html += `</div>`;
    for (const kind of ["refill", "pass"]) {
      const o = option(v, kind);
      if (!o.available) html += `<div class="reason" data-testid="why-${kind}">${h(t(kind + "Name"))} — ${h(t("unavailable"))}: ${why(o.clause, o.reason)}</div>`;
    }
    return html;
  }

  function fieldCaption(v, f) {
    const reg = regionOf(v, f.region);
    const kind = t(reg.kind);
    let s = `${f.name} · ${nm(reg.name)} (${kind}${reg.founded ? ", " + t("foundedBy", { p: reg.founded.by }) : reg.kind === "land" ? ", " + t("freeOf", { n: reg.free, m: reg.fields.length }) : reg.full ? ", " + t("seaFull") : ", " + t("freeOf", { n: reg.free, m: reg.fields.length })})`;
    s += f.owner_name ? ` · ${t("shieldOf", { p: f.owner_name })}` : ` · ${t("freeField")}`;
    return s;
  }

  function selection(v, name) {
    const f = fieldOf(v, S.sel);
    if (!f) return "";
    let html = `<div class="muted" data-testid="og-caption">${h(fieldCaption(v, f))}</div>`;
    if (S.mode === "lay") {
      const bad = v.checks.lay[f.name];
      if (bad) return html + `<div class="reason" data-testid="og-why">${h(t("cannotLay", { f: f.name }))} — ${why(bad[0], bad[1])}</div>`;
      const reg = regionOf(v, f.region);
      const founds = reg.kind === "land" && !reg.founded && reg.free === 1;
      return html + `<div class="og-fact"><span data-testid="og-fact">${h(t("layFact", { p: name, f: f.name }))}</span>${founds ? `<div class="og-remind" data-testid="og-founds">${h(t("willFound", { land: nm(reg.name) }))}</div>` : ""}
        <div><button class="act" data-move="lay ${h(name)} ${h(f.name)}" data-testid="og-confirm">${h(t("confirm"))}</button><button class="sec" data-og="cancel" data-testid="og-cancel">${h(t("cancel"))}</button></div></div>`;
    }
    const bad = v.checks.attack[f.name];
    if (bad) return html + `<div class="reason" data-testid="og-why">${h(t("cannotAttack", { f: f.name }))} — ${why(bad[0], bad[1])}</div>`;
    const fig = v.attack_targets.find((x) => x.field === f.name);
    if (!fig) return html;
    return html + `<div class="og-calc" data-testid="calc"><h3>${h(t("calcTitle", { a: fig.attacker, f: fig.field, d: fig.defender }))}</h3>
      <div class="muted">${h(t("previewNote"))}</div>${figuresHtml(fig)}${whatIf(fig, fig.attacker_hand, fig.defender_hand, "holdsAfter")}
      <div><button class="act" data-move="attack ${h(name)} ${h(f.name)}" data-testid="calc-attack">⚔ ${h(t("attackFact", { p: name, f: f.name }))}</button><button class="sec" data-og="cancel" data-testid="og-cancel">${h(t("cancel"))}</button></div></div>`;
  }

  // both sides' points now, who wins if nobody plays on, the cards the side behind needs
  function figuresHtml(fig) {
    const a = fig.attacker_points;
    const d = fig.defender_points;
    const attWins = fig.leading === "attacker";
    const winner = attWins ? fig.attacker : fig.defender;
    const loser = attWins ? fig.defender : fig.attacker;
    const behind = attWins ? fig.defender : fig.attacker;
    return `<div class="og-sides">
      <div class="og-side${attWins ? " lead" : ""}"><div>${pdot(seatOf(fig.attacker))} <b>${h(fig.attacker)}</b> <span class="muted">${h(t("attacker"))}</span></div>
        <div class="og-pts" data-testid="calc-att-points">${a}</div>
        <div class="muted" data-testid="calc-att-parts">${h(t("attParts", { c: cards(fig.attacker_cards), s: shields(fig.attacker_shields) }))}</div></div>
      <div class="og-side${attWins ? "" : " lead"}"><div>${pdot(seatOf(fig.defender))} <b>${h(fig.defender)}</b> <span class="muted">${h(t("defender"))}</span></div>
        <div class="og-pts" data-testid="calc-def-points">${d}</div>
        <div class="muted" data-testid="calc-def-parts">${h(t("defParts", { c: cards(fig.defender_cards), s: shields(fig.defender_shields - 1) }))}</div></div></div>
      <div data-testid="calc-leader"><b>${h(t("ifNobody", { w: winner, a, d }))}</b>${a === d ? ` ${h(t("tieNote"))}` : ""} — ${h(t("leaves", { p: loser, f: fig.field }))}</div>
      <div data-testid="calc-needs">${h(t(attWins ? "needsDef" : "needsAtt", { p: behind, c: cards(fig.cards_needed) }))}</div>`;
  }

  // the cards each side can still play (pickers, the hands by default) and how the battle ends
  function whatIf(fig, handA, handD, holds = "holds") {
    const key = fig.field;
    if (!S.wi || S.wi.key !== key) S.wi = { key, a: null, d: null };
    const wa = S.wi.a === null ? handA : Math.min(S.wi.a, handA);
    const wd = S.wi.d === null ? handD : Math.min(S.wi.d, handD);
    const out = playOut(fig.attacker_points, fig.defender_points, wa, wd);
    const w = out.winner === "attacker" ? fig.attacker : fig.defender;
    return `<div class="og-whatif"><div class="muted">${h(t(holds, { a: fig.attacker, x: handA, d: fig.defender, y: handD }))}</div>
      <div class="og-row">${h(t("canStill", { p: fig.attacker }))} ${picker("wi-a", wa, 0, handA)}</div>
      <div class="og-row">${h(t("canStill", { p: fig.defender }))} ${picker("wi-d", wd, 0, handD)}</div>
      <div data-testid="calc-playout">${h(t("playout", { w, a: out.attacker_points, d: out.defender_points, pa: fig.attacker, na: out.attacker_cards, pd: fig.defender, nd: out.defender_cards }))}</div></div>`;
  }

  // --- a battle in progress: the calculator and the answer due (a card, or stop) ---------------------
  function battleEntry(v) {
    const b = v.battle;
    const due = shell.players()[b.due_seat].name;
    const reg = regionOf(v, fieldOf(v, b.field).region);
    const card = option(v, "card");
    const a = b.attacker_points;
    const d = b.defender_points;
    let stopText;
    if (b.opening && a > d) stopText = t("stopOpening", { p: due, d: b.defender });
    else stopText = t("stopLoses", { p: due, f: b.field });
    let html = `<div class="og-calc" data-testid="calc"><h3>${h(t("calcTitle", { a: b.attacker, f: b.field, d: b.defender }))} <span class="muted">${h(nm(reg.name))}</span></h3>`;
    if (b.opening) html += `<div class="muted" data-testid="calc-opening">${h(t("openingNote", { p: b.attacker }))}</div>`;
    html += figuresHtml(b);
    html += `<div class="og-row og-answer">${card.available ? `<button class="act" data-move="${h(b.record.card)}" data-testid="calc-card">+1 ${h(t("cardFor", { p: due }))}</button>` : `<span class="reason" data-testid="why-card">${why(card.clause, card.reason)}</span>`}
      <button class="sec" data-move="${h(b.record.stop)}" data-testid="calc-stop">${h(stopText)}</button></div>`;
    html += whatIf(b, b.attacker_hand, b.defender_hand);
    return html + `</div>`;
  }

  // --- a land was founded: the table reports the founding field the stone uncovered ----------------
  function revealEntry(v) {
    const fs = v.founding_stones;
    const idx = fs.track.findIndex((x) => !x.taken);
    const st = fs.track[idx];
    const r = S.reveal;
    let html = `<div class="og-found"><div>${h(t("revealAsk"))}</div>`;
    if (st) html += `<div class="muted" data-testid="reveal-expected">${h(t("expected", { n: st.value }))}${st.red ? ` <span class="og-redtag">${h(t("red"))}</span>` : ""} ${st.provisional ? provTag() : ""}</div>`;
    html += `<div class="og-values">${Array.from({ length: fs.max_value + 1 }, (_, n) => `<button class="chip${r.value === n ? " on" : ""}" data-og="rv" data-n="${n}" data-testid="reveal-v-${n}">${n}</button>`).join("")}</div>
      <div class="og-row"><button class="chip og-redchip${r.red ? " on" : ""}" data-og="rv-red" data-testid="reveal-red">${r.red ? "✓ " : ""}${h(t("redField"))}</button></div>
      <div class="og-fact"><span data-testid="reveal-fact">${h(t(r.red ? "revealFactRed" : "revealFact", { n: r.value }))}</span>
      <div class="muted">${h(t("revealThen", { p: v.position.to_move, k: fields(r.value) }))}${r.red ? " " + h(t("revealRedThen")) : ""}</div>
      <button class="act" data-move="reveal ${r.value}${r.red ? " red" : ""}" data-testid="reveal-ok">${h(t("confirm"))}</button></div></div>`;
    return html;
  }

  // --- a tribe scoring or the final scoring: every player's points, with a number picker ------------
  function pointsEntry(v) {
    const tribe = v.phase === "scoring";
    const entries = v.position.entries || {};
    let html = `<div class="og-found"><div class="muted">${h(t(tribe ? "tribeHint" : "finalHint"))}</div>`;
    for (const pl of shell.players()) {
      const got = entries[pl.name];
      if (got !== null && got !== undefined) {
        html += `<div class="og-row" data-testid="pts-${pl.seat}-done">${dot(pl.colour)} ${h(pl.name)}: <b>${h(t("pointsN", { n: got }))}</b> ✓</div>`;
        continue;
      }
      const val = S.points[pl.name] ?? 0;
      html += `<div class="og-row og-ptsrow">${dot(pl.colour)} <span class="og-pname">${h(pl.name)}</span>${picker(`pts-${pl.seat}`, val, 0, 99)}
        <button class="act" data-move="points ${h(pl.name)} ${val}" data-testid="pts-${pl.seat}-ok">${h(t(tribe ? "tribeFact" : "finalFact", { p: pl.name, n: val }))}</button></div>`;
    }
    return html + `</div>`;
  }

  // --- the board: lands and seas, shields, founding stones ----------------------------------------
  function labelCells(v) {
    const out = {};
    for (const reg of v.board.regions) {
      const cells = reg.fields.map((n) => fieldOf(v, n));
      const cx = cells.reduce((s, c) => s + c.col, 0) / cells.length;
      const cy = cells.reduce((s, c) => s + c.row, 0) / cells.length;
      let best = cells[0];
      let bd = Infinity;
      for (const c of cells) { const dd = (c.col - cx) ** 2 + (c.row - cy) ** 2; if (dd < bd) { bd = dd; best = c; } }
      out[best.name] = reg;
    }
    return out;
  }
  function renderBoard(v) {
    const b = v.board;
    const cols = b.columns.length;
    const at = {};
    for (const f of b.fields) at[`${f.col},${f.row}`] = f;
    const regIndex = {};
    let li = 0;
    let si = 0;
    for (const r of b.regions) regIndex[r.id] = r.kind === "sea" ? SEA[si++ % SEA.length] : LAND[li++ % LAND.length];
    const labels = labelCells(v);
    const isLive = shell.live && v.phase === "turn";
    const targets = new Set(isLive && S.mode === "attack" ? v.attack_targets.map((x) => x.field) : []);
    let cells = `<div class="hd"></div>` + b.columns.map((c) => `<div class="hd">${c}</div>`).join("");
    for (let y = 0; y < b.rows.length; y++) {
      cells += `<div class="hd">${b.rows[y]}</div>`;
      for (let x = 0; x < cols; x++) {
        const f = at[`${x},${y}`];
        if (!f) { cells += `<div class="og-void"></div>`; continue; }
        const diff = (dx, dy) => { const n = at[`${x + dx},${y + dy}`]; return !n || n.region !== f.region; };
        const cls = ["og-cell", f.kind, diff(0, -1) ? "bt" : "", diff(0, 1) ? "bb" : "", diff(-1, 0) ? "bl" : "", diff(1, 0) ? "br" : "",
          targets.has(f.name) ? "tgt" : "", S.sel === f.name && shell.live ? "sel" : "", f.contested ? "contested" : ""].filter(Boolean).join(" ");
        const reg = labels[f.name];
        let inner = "";
        if (f.owner !== null) inner += `<span class="og-shield" style="background:${shell.colour(f.colour)}" data-testid="shield-${f.name}" title="${h(f.owner_name)}"></span>`;
        if (reg) {
          inner += `<span class="og-lbl">${h(reg.id)}</span>`;
          if (reg.founded) inner += `<span class="og-stone${reg.founded.red ? " red" : ""}" data-testid="stone-on-${reg.id}" title="${h(t("foundedBy", { p: reg.founded.by }))}">${reg.founded.value}</span>`;
        }
        cells += `<button class="${cls}" style="background:${regIndex[f.region]}" data-field="${f.name}" data-testid="field-${f.name}" title="${h(fieldCaption(v, f))}" aria-label="${h(f.name)}">${inner}</button>`;
      }
    }
    const prov = S.catalog && S.catalog.map_provisional;
    $("#og-board").innerHTML = `<h2>${h(t("boardTitle"))} ${prov ? `<span data-testid="board-prov">${provTag()}</span>` : ""}</h2>
      <div class="og-board" style="--cols:${cols}" data-testid="og-board">${cells}</div>
      <div class="muted og-legend">${h(t("legend"))}</div>`;
  }

  // --- scores with their parts --------------------------------------------------------------------
  function renderScores(v) {
    const rows = v.scores.map((s) => `<div class="og-score" data-testid="score-${s.seat}">
      <div class="og-scorehead">${dot(s.colour)} <b>${h(s.name)}</b><span class="og-total" data-testid="score-total-${s.seat}">${s.total}</span></div>
      <div class="muted" data-testid="score-parts-${s.seat}">${h(t("parts", { tribe: s.tribe, final: s.final, leader: s.leader, lands: s.lands_founded }))}</div>
      <div class="muted" data-testid="score-shields-${s.seat}">${h(t("shieldsParts", { board: s.on_board, supply: s.supply, out: s.out, hand: s.hand }))}</div></div>`).join("");
    const ts = v.tribe_scoring;
    $("#og-scores").innerHTML = `<h2>${h(t("scores"))}</h2>${rows}<div class="muted" data-testid="og-scorings">${h(t("scoringsLine", { held: ts.held, due: ts.scheduled }))}</div>`;
  }

  // --- the founding track (stones and the fields they uncovered) and the leader track ---------------
  function renderFounding(v) {
    const fs = v.founding_stones;
    let anyProv = false;
    const stones = fs.track.map((st) => {
      anyProv = anyProv || st.provisional;
      const rep = st.reported;
      const val = rep ? rep.value : st.value;
      const red = rep ? rep.red : st.red;
      const title = rep ? t("stoneTaken", { land: rep.land, p: rep.by }) + (rep.differs ? " — " + t("stoneDiffers", { n: st.value }) : "") : t("stoneBoard");
      return `<div class="og-tstone${red ? " red" : ""}${st.taken ? " taken" : ""}${st.provisional && !st.taken ? " prov" : ""}" data-testid="stone-${st.index}" title="${h(title)}">
        <div class="v">${val}${st.provisional && !st.taken ? "*" : ""}</div><div class="l">${rep ? `${pdot(seatOf(rep.by))}${h(rep.land)}${rep.differs ? " ≠" : ""}` : "&nbsp;"}</div></div>`;
    }).join("");
    const lt = v.leader_track;
    // the leader that just advanced (the last move reported a founding field)
    let moved = null;
    if (v.last && v.last.structured && v.last.structured.kind === "reveal") {
      const taken = fs.track.filter((x) => x.taken);
      const rep = taken.length ? taken[taken.length - 1].reported : null;
      if (rep) moved = { seat: seatOf(rep.by), n: rep.value };
    }
    const pathProv = S.catalog && S.catalog.path && S.catalog.path.provisional;
    const leaders = lt.positions.map((p) => `<div class="og-leader" data-testid="leader-${p.seat}">${dot(p.colour)} <span class="og-pname">${h(p.name)}</span>
      <span class="og-bar"><span style="width:${Math.round((100 * p.field) / Math.max(lt.length, 1))}%;background:${shell.colour(p.colour)}"></span></span><b data-testid="leader-field-${p.seat}">${p.field}</b><span class="muted">/${lt.length}</span>${moved && moved.seat === p.seat ? `<span class="og-adv" data-testid="leader-advance-${p.seat}">+${moved.n}</span>` : ""}</div>`).join("");
    $("#og-founding").innerHTML = `<h2>${h(t("foundingTitle"))} <span class="muted">${h(t("stonesLeft", { n: fs.left, m: fs.stones }))}</span></h2>
      <div class="og-track">${stones}</div>${anyProv ? `<div class="muted">* ${h(t("stoneBoard"))} ${provTag()}</div>` : ""}
      <h2 class="og-h2b">${h(t("leaderTitle"))} ${pathProv ? provTag() : ""}</h2>${leaders}`;
  }

  // --- lands and seas: free fields, founded by whom, attackable ------------------------------------
  function renderRegions(v) {
    const provNames = S.catalog && S.catalog.regions.some((r) => r.provisional);
    const rows = v.board.regions.map((r) => `<tr data-testid="region-${r.id}"><td>${h(nm(r.name))} <span class="muted">${h(r.id)}</span></td>
      <td>${h(t(r.kind))}</td><td>${r.free}/${r.fields.length}</td>
      <td>${r.founded ? `${pdot(r.founded.seat)} <span class="og-stone-inline${r.founded.red ? " red" : ""}">${r.founded.value}</span>` : r.kind === "sea" && r.full ? "≋" : ""}${r.attackable ? " ⚔" : ""}</td></tr>`).join("");
    $("#og-regions").innerHTML = `<h2>${h(t("regionsTitle"))} ${provNames ? provTag() : ""}</h2>
      <table class="og-regions"><tr><th>${h(t("region"))}</th><th>${h(t("kind"))}</th><th>${h(t("free"))}</th><th>${h(t("stone"))}</th></tr>${rows}</table>
      <div class="muted">⚔ ${h(t("attackableNote"))}</div>`;
  }

  // --- events -------------------------------------------------------------------------------------
  async function onClick(ev) {
    const el = ev.target.closest("button");
    if (!el || !root.contains(el)) return;
    const d = el.dataset;
    const v = shell.view;
    if (!v || !v.has_game) return;
    if (d.move !== undefined) {
      if (!shell.live) return;
      el.disabled = true;
      const ok = await shell.submitMove(d.move);
      if (!ok) el.disabled = false;
      return;
    }
    if (d.field !== undefined) {
      if (!shell.live || v.phase !== "turn") return;
      S.sel = d.field;
      S.selFor = v.state_id;
      shell.setError(null);
      render();
      if (window.innerWidth < 900 && v.phase === "turn") $("#og-status").scrollIntoView({ block: "nearest" });
      return;
    }
    if (d.pick !== undefined) {
      const step = Number(d.d);
      const id = d.pick;
      if (id === "play") S.play += step;
      else if (id === "wi-a" || id === "wi-d") {
        const fig = v.battle || v.attack_targets.find((x) => x.field === S.sel);
        if (!fig) return;
        const hand = id === "wi-a" ? fig.attacker_hand : fig.defender_hand;
        const k = id === "wi-a" ? "a" : "d";
        const cur = S.wi[k] === null ? hand : Math.min(S.wi[k], hand);
        S.wi[k] = Math.max(0, Math.min(hand, cur + step));
      } else if (id.startsWith("pts-")) {
        const pl = shell.players()[Number(id.slice(4))];
        S.points[pl.name] = Math.max(0, Math.min(99, (S.points[pl.name] ?? 0) + step));
      }
      render();
      return;
    }
    switch (d.og) {
      case "mode-lay": S.mode = "lay"; S.sel = null; render(); break;
      case "mode-attack": S.mode = "attack"; S.sel = null; render(); break;
      case "show-play": S.showPlay = true; render(); break;
      case "cancel": S.sel = null; shell.setError(null); render(); break;
      case "rv": S.reveal.value = Number(d.n); render(); break;
      case "rv-red": S.reveal.red = !S.reveal.red; render(); break;
      default: break;
    }
  }

  function unmount() { link.remove(); }

  root.innerHTML = LAYOUT;
  shell.listen("click", onClick);
  return { strings: STRINGS, clause, update, render, unmount };
}
