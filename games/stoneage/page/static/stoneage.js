// The Stone Age module of the companion page (loaded by the shell, webui/static/shell.js, which calls
// mount(shell); the contract is docs/page-shell.md). It draws whose turn it is and what to do now, and
// every move is entered by tapping: while placing, every place with how many people it still takes (the
// closed ones greyed, the reason and clause on tap) and a people picker; while carrying out, the
// player's own places in any order, with the payment for cards and buildings picked by tapping
// resources; each roll entered die by die by tapping pips, with the yield and the best use of the tools
// ("one more pip would give …") before the tools are confirmed; the dice-for-everyone pick; the feeding
// check before it happens and the choice when short; the cards and buildings the table turns up. Beside
// it the board, each tribe's tableau, and the live and projected final score of every player with the
// full breakdown (sets, each multiplier, resources). The log, the chart, history, undo and corrections
// are the shell's. Vanilla JS, no build step.
import { CLAUSES, STRINGS } from "./stoneage-i18n.js";

const RES = ["wood", "clay", "stone", "gold"];
const RES_COLOUR = { food: "#5f9e3a", wood: "#8b5a2b", clay: "#c8643c", stone: "#8d939b", gold: "#e0b000" };
const DICE_PLACES = ["hunt", "wood", "clay", "stone", "gold"];
const VILLAGE = ["toolmaker", "hut", "field"];
const MULTIPLIERS = ["farmer", "toolmaker", "hutbuilder", "shaman"];
const CARD_GROUPS = ["food", "resource", "roll", "points", "tool_once", "agriculture", "tool", "any_resources", "extra_card", "dice_bar"];
const LAYOUT = `<div class="cols sa">
  <div class="col" data-camera-slot>
    <section id="sa-status" class="card"></section>
    <section id="sa-entry" class="card"></section>
    <section id="sa-feed" class="card"></section>
  </div>
  <div class="col">
    <section id="sa-scores" class="card"></section>
    <section id="sa-board" class="card"></section>
    <section id="sa-tribes" class="card"></section>
    <div data-widget="chart"></div>
    <div data-widget="log"></div>
  </div>
</div>`;
const PIPS = { 1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]], 4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]], 6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]] };

export function mount(shell) {
  const { t, h, dot, provTag } = shell;
  const root = shell.root;
  const $ = (sel) => root.querySelector(sel);
  const S = { cat: null, digest: null, sel: null, selFor: -1 };
  const clause = (c) => { const w = CLAUSES[c]; return w ? w[shell.lang === "de" ? 1 : 0] : ""; };
  const live = () => shell.live;

  // --- the box catalog (cards, buildings, provisional values) ----------------------------------------
  async function loadCatalog(digest) {
    if (digest && digest === S.digest && S.cat) return;
    const r = await shell.api("GET", "/api/catalog");
    if (r.ok) { S.cat = r.data; S.digest = r.data.digest; }
  }
  async function update(v) {
    if (S.selFor !== v.state_id) S.sel = null; // a half-entered move belongs to the view it was begun in
    const digest = v.has_game ? v.box && v.box.digest : v.profile && v.profile.digest;
    await loadCatalog(digest);
  }
  const cardOf = (id) => (S.cat ? S.cat.cards.find((c) => c.id === id) : null);
  const bldOf = (id) => (S.cat ? S.cat.buildings.find((b) => b.id === id) : null);
  const isProvCard = (id) => { const c = cardOf(id); return !!(c && (c.provisional.top || c.provisional.bottom)); };
  const compProv = (k) => !!(S.cat && S.cat.components[k] && S.cat.components[k].provisional);

  // --- words -------------------------------------------------------------------------------------
  const resName = (r) => t("r_" + r);
  const placeName = (p) => (p.startsWith("card") ? t("card_n", { n: p.slice(4) }) : p.startsWith("building") ? t("stack_n", { n: p.slice(8) }) : t("p_" + p));
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const rollText = (n, what) => t(n === 1 ? "rollN_1" : "rollN", { n, r: yieldName(what) });
  const ppl = (n) => t(n === 1 ? "people_1" : "people_n", { n });
  const yieldName = (what) => resName(what === "hunt" ? "food" : what);
  const resIcon = (r) => `<span class="sa-res" style="background:${RES_COLOUR[r]}"></span>`;
  const resList = (obj, withZero = false) => Object.entries(obj).filter(([, n]) => n || withZero).map(([r, n]) => `<span class="sa-resn">${resIcon(r)}${n} ${h(resName(r))}</span>`).join(" ") || `<span class="muted">${h(t("noneYet"))}</span>`;
  const payWords = (pay) => RES.filter((r) => pay[r]).map((r) => `${pay[r]} ${resName(r)}`).join(", ");
  const giveName = (g) => (g === "tool" ? t("g_tool") : g === "agriculture" ? t("g_agriculture") : resName(g));
  function cardTop(c) {
    const tp = c.top;
    const r = tp.resource ? resName(tp.resource) : "";
    return t("top_" + tp.kind, { n: tp.amount, r, d: tp.dice, v: tp.value });
  }
  function cardBottom(c) {
    const b = c.bottom;
    return b.culture ? t("cu_" + b.culture) : t("mult_fig", { f: b.figures, m: t("m_" + b.multiplier) });
  }
  // a card in words: its top (what it gives at once) and its bottom (the final scoring), provisional marked
  function cardHtml(id, fallback = "") {
    const c = cardOf(id);
    if (!c) return h(fallback || id || "");
    const pb = c.provisional.bottom, pt = c.provisional.top;
    return `<span class="sa-top${pt ? " prov" : ""}">${h(cardTop(c))}${pt ? "*" : ""}</span> · <span class="sa-bot ${c.bottom.culture ? "cult" : "mult"}${pb ? " prov" : ""}" ${pb ? `title="${h(t("provisional"))}"` : ""}>${h(cardBottom(c))}${pb ? "*" : ""}</span>`;
  }
  function bldWords(b) {
    if (b.kind === "fixed") return t("b_fixed", { pay: payWords(b.cost), p: b.points });
    if (b.kind === "count") return t("b_count", { c: b.count, k: b.kinds });
    return t("b_range", { lo: b.min, hi: b.max });
  }
  function bldHtml(id, fallback = "") {
    const b = bldOf(id);
    if (!b) return h(fallback || id || "");
    return `${h(bldWords(b))}${b.provisional ? `*` : ""}`;
  }
  function reasonHtml(cl, text, testid = "") {
    const w = clause(cl);
    return `<div class="reason"${testid ? ` data-testid="${h(testid)}"` : ""}><b>${h(cl)}</b>${w ? ` (${h(w)})` : ""}: ${h(text)}</div>`;
  }
  function dieSvg(face, size = 30) {
    const dots = (PIPS[face] || []).map(([x, y]) => `<circle cx="${x * 5}" cy="${y * 5}" r="1.7"/>`).join("");
    return `<svg class="sa-die" viewBox="0 0 20 20" width="${size}" height="${size}" aria-label="${face}"><rect x=".8" y=".8" width="18.4" height="18.4" rx="3.5" fill="#fff" stroke="#333" stroke-width="1.2"/>${dots}</svg>`;
  }
  const seatOf = (v, name) => (v.tableau || []).findIndex((p) => p.name === name);
  const colourOf = (v, seat) => ((v.tableau || [])[seat] || {}).colour || shell.pcol(seat);
  const byDots = (v, by) => Object.entries(by || {}).map(([name, n]) => `<span class="sa-by" title="${h(name)}">${dot(colourOf(v, seatOf(v, name)))}${n}</span>`).join("");

  // --- rendering -----------------------------------------------------------------------------------
  function render() {
    const lv = shell.view;
    if (!lv) return;
    if (!lv.has_game) {
      $("#sa-status").innerHTML = shell.noGame() + shell.warnings();
      for (const id of ["sa-entry", "sa-feed", "sa-scores", "sa-board", "sa-tribes"]) $("#" + id).innerHTML = "";
      return;
    }
    const v = shell.shown();
    renderStatus(v); renderEntry(v); renderFeeding(v); renderScores(v); renderBoard(v); renderTribes(v);
  }

  function renderStatus(v) {
    const p = v.prompt;
    const tb = v.tableau;
    let who;
    if (v.over) who = `<span data-testid="to-move">${h(t("gameOver"))}</span>`;
    else if (p.kind === "reveal") who = `<span data-testid="to-move">${h(t("theTable"))}</span> <span class="muted">${h(t("tableReports"))}</span>`;
    else who = `${dot(colourOf(v, p.seat))}<span data-testid="to-move">${h(p.name)}</span> <span class="muted">${h(p.kind === "roll" ? t("rolls") : p.kind === "draw" ? t("draws") : t("toMove"))}</span>`;
    const sec = { place: 0, act: 1, roll: 1, tools: 1, bar: 1, draw: 1, feed: 2 }[p.kind];
    const steps = ["sec_place", "sec_act", "sec_feed"].map((k, i) => `<span class="sa-step${i === sec ? " on" : ""}">${i + 1}. ${h(t(k))}</span>`).join("");
    const start = tb[p.start_player !== undefined ? p.start_player : 0];
    let html = `<div class="who">${who}</div>
      <div class="sa-steps"><b data-testid="round">${h(t("round", { n: v.round }))}</b> ${v.over ? "" : steps}</div>
      <div class="muted" data-testid="phase">${v.over ? "" : h(t("ph_" + p.kind))}${start && !v.over ? ` · ${dot(start.colour)} ${h(start.name)}: ${h(t("startPlayer"))}` : ""}</div>`;
    if (p.kind === "place") {
      const me = tb[p.seat];
      html += `<div class="muted" data-testid="people-left">${h(t("peopleLeft", { n: p.people_left, m: me.people }))}</div>`;
    }
    if (v.over) {
      html += `<p>${h(t("endedBy", { why: t("endedBy_" + v.ended) }))}</p><h2>${h(t("finalRanking"))}</h2><ol class="ranking" data-testid="ranking">${v.ranking.map((r) =>
        `<li>${dot(colourOf(v, r.seat))} ${h(r.name)}: <b>${r.total}</b> ${h(t("points"))} <span class="muted">(${h(t("tbShort", { n: r.tiebreak }))})</span></li>`).join("")}</ol>`;
    }
    if (shell.view.warnings) html += shell.warnings();
    $("#sa-status").innerHTML = html;
  }

  // ----- move entry: one card that shows what to do now and builds the move being entered -----
  function selFor(kind) { return S.sel && S.sel.kind === kind ? S.sel : null; }
  function setSel(sel) {
    S.sel = sel; S.selFor = shell.view.state_id; shell.setError(null); renderEntry(shell.shown());
    const pick = $("#sa-entry .sa-pick");
    if (pick && sel.kind === "act") pick.scrollIntoView({ block: "nearest" });
  }
  function confirmBar(ready, preview, label, testid = "confirm") {
    return `<div class="sa-confirm">${preview ? `<span class="preview" data-testid="preview">${h(preview)}</span>` : ""}
      <button class="act" data-sa="confirm" data-testid="${testid}" ${ready ? "" : "disabled"}>${h(label || t("confirm"))}</button>
      <button class="sec" data-sa="cancel" data-testid="cancel">${h(t("cancel"))}</button></div>`;
  }

  function renderEntry(v) {
    const el = $("#sa-entry");
    if (!live() || v.over) { el.innerHTML = `<div data-widget="controls"></div>`; shell.placeWidgets(el); return; }
    const p = v.prompt;
    let html;
    if (selFor("any")) html = anyEntry(v);
    else {
      switch (p.kind) {
        case "place": html = placeEntry(v); break;
        case "act": html = actEntry(v); break;
        case "roll": html = rollEntry(v); break;
        case "tools": html = toolsEntry(v); break;
        case "bar": html = barEntry(v); break;
        case "feed": html = feedEntry(v); break;
        case "reveal": case "draw": html = revealEntry(v); break;
        default: html = `<p class="muted">${h(p.text)}</p>`;
      }
      if (p.any_card && !selFor("any")) {
        html += `<div class="sa-any"><button class="sec" data-sa="any" data-testid="any-card">${h(t("anyTitle", { n: p.any_card.amount }))}</button> <span class="muted">${h(p.any_card.clause)}</span></div>`;
      }
    }
    el.innerHTML = html + `<div data-widget="controls"></div>`;
    shell.placeWidgets(el);
  }

  // the places as tiles: name, who stands there, how many people it still takes, the card or building
  function placeTiles(v, opts, tappable, selected) {
    const groups = [["village", VILLAGE], ["resourcesT", DICE_PLACES], ["cardsT", null], ["buildingsT", null]];
    let html = "";
    for (const [title, names] of groups) {
      const list = opts.filter((o) => (names ? names.includes(o.place) : title === "cardsT" ? o.kind === "card" : o.kind === "building"));
      if (!list.length) continue;
      html += `<div class="sa-ghead">${h(t(title))}</div>`;
      for (const o of list) {
        const closed = tappable && !o.open;
        const cls = ["sa-place", o.kind, closed ? "closed" : "", selected === o.place ? "sel" : ""].join(" ");
        const attrs = `class="${cls}" data-testid="place-${o.place}"${tappable ? ` data-sa="place" data-arg="${o.place}"` : ""}`;
        let room = "";
        if (o.room !== undefined) {
          if (o.kind === "dice") room = o.room === null ? t("takesAny") : o.room ? t("takesMore", { n: o.room }) : t("full");
          else if (o.kind === "village") room = o.room ? t("exactly", { n: o.room }) : t("full");
          else room = o.room ? "" : (o.kind === "card" ? (o.card ? t("full") : t("noCard")) : (o.building ? t("full") : t("noBuilding")));
        }
        let body = "";
        if (o.kind === "card") body = o.card ? `<span class="sa-txt">${cardHtml(o.card, o.text)}</span><span class="sa-cost">${h(t("cost", { n: o.cost }))}</span>` : "";
        if (o.kind === "building") body = o.building ? `<span class="sa-txt">${bldHtml(o.building, o.text)}</span><span class="sa-cost">${h(t("left", { n: o.left }))}</span>` : "";
        const div = o.kind === "dice" && S.cat ? ` <span class="muted">${h(t("div", { n: S.cat.divisors[o.place] }))}</span>` : "";
        const inner = `<span class="sa-nm">${h(placeName(o.place))}${div}</span>${body}<span class="sa-occ">${byDots(v, o.by)}</span>${room ? `<span class="sa-room" data-testid="room-${o.place}">${h(room)}</span>` : ""}`;
        html += tappable ? `<button ${attrs}>${inner}</button>` : `<div ${attrs}>${inner}</div>`;
      }
    }
    return `<div class="sa-grid">${html}</div>`;
  }

  function placeEntry(v) {
    const p = v.prompt;
    const sel = selFor("place");
    let html = `<h2>${h(t("placeTitle", { p: p.name }))}</h2><p class="muted">${h(t("tapPlace"))}</p>`;
    html += placeTiles(v, p.options, true, sel && sel.place);
    if (sel) {
      const o = p.options.find((x) => x.place === sel.place);
      if (o && !o.open) html += `<div class="sa-pick stick"><b>${h(t("closedWhy", { p: placeName(o.place) }))}</b>${reasonHtml(o.clause, o.reason, "why-" + o.place)}</div>`;
      else if (o) {
        const { min, max } = o.people;
        html += `<div class="sa-pick stick" data-testid="pick-${o.place}"><b>${h(placeName(o.place))}</b>`;
        if (o.kind === "card") html += ` — ${cardHtml(o.card, o.text)} · ${h(t("cost", { n: o.cost }))}`;
        if (o.kind === "building") html += ` — ${bldHtml(o.building, o.text)}`;
        if (min === max) { sel.people = min; html += `<div>${h(t("exactly", { n: min }))} (${h(ppl(min))})</div>`; }
        else {
          html += `<div>${h(t("howMany"))} ${Array.from({ length: max - min + 1 }, (_, i) => min + i).map((n) =>
            `<button class="chip${sel.people === n ? " on" : ""}" data-sa="people" data-arg="${n}" data-testid="people-${n}">${n}</button>`).join("")}</div>`;
        }
        const ready = !!sel.people;
        const text = ready ? (DICE_PLACES.includes(o.place) ? `place ${o.place} ${sel.people}` : `place ${o.place}`) : "";
        html += confirmBar(ready, text) + "</div>";
      }
    }
    return html;
  }

  // a payment picked by tapping resources: + and − per kind, within what the player has
  function payPicker(sel, have, limit) {
    const total = RES.reduce((a, r) => a + (sel.pay[r] || 0), 0);
    return `<div class="sa-pay">${RES.map((r) => {
      const n = sel.pay[r] || 0;
      const canAdd = total < limit && (have === null || n < have[r]);
      return `<div class="sa-payrow"><button class="chip" data-sa="pay+" data-arg="${r}" data-testid="pay-${r}" ${canAdd ? "" : "disabled"}>+ ${resIcon(r)} ${h(resName(r))}</button>
        <b class="sa-paid" data-testid="paid-${r}">${n}</b><button class="chip" data-sa="pay-" data-arg="${r}" data-testid="unpay-${r}" ${n ? "" : "disabled"}>−</button>
        ${have === null ? "" : `<span class="muted">${h(t("have", { n: have[r] }))}</span>`}</div>`;
    }).join("")}<div class="muted" data-testid="pay-total">${h(t("chosen", { n: total }))}</div></div>`;
  }
  const payTotal = (pay) => RES.reduce((a, r) => a + (pay[r] || 0), 0);
  const payNotation = (pay) => RES.flatMap((r) => Array(pay[r] || 0).fill(r)).join(",");
  const payJson = (pay) => Object.fromEntries(RES.filter((r) => pay[r]).map((r) => [r, pay[r]]));
  function payFromMove(text) {
    const pay = { wood: 0, clay: 0, stone: 0, gold: 0 };
    const list = (text || "").split(" ")[2];
    if (list && list !== "-") for (const r of list.split(",")) if (r in pay) pay[r] += 1;
    return pay;
  }
  const emptyPay = () => ({ wood: 0, clay: 0, stone: 0, gold: 0 });

  function actEntry(v) {
    const p = v.prompt;
    const sel = selFor("act");
    let html = `<h2>${h(t("actTitle", { p: p.name }))}</h2><p class="muted">${h(t("tapAct"))}</p><div class="sa-acts">`;
    for (const o of p.options) {
      let what = "";
      if (o.kind === "dice") what = rollText(o.people, o.place);
      else if (o.kind === "village") what = t("v_" + o.place);
      else if (o.kind === "card") what = "";
      const body = o.kind === "card" ? `${cardHtml(o.card, o.text)} · ${h(t("cost", { n: o.cost }))}` : o.kind === "building" ? bldHtml(o.building, o.text) : h(what);
      const nopay = (o.kind === "card" || o.kind === "building") && !o.can_pay;
      html += `<button class="sa-act${sel && sel.place === o.place ? " sel" : ""}${nopay ? " nopay" : ""}" data-sa="act" data-arg="${o.place}" data-testid="act-${o.place}">
        <b>${h(placeName(o.place))}</b> <span class="muted">${h(ppl(o.people))}</span><br><span>${body}</span>${nopay ? ` <span class="muted">(${h(t("cannotPay"))})</span>` : ""}</button>`;
    }
    html += "</div>";
    if (!sel) return html;
    const o = p.options.find((x) => x.place === sel.place);
    if (!o) return html;
    html += `<div class="sa-pick" data-testid="pick-${o.place}"><b>${h(placeName(o.place))}</b>`;
    if (o.kind === "dice" || o.kind === "village") {
      html += confirmBar(true, `take ${o.place}`, o.kind === "dice" ? rollText(o.people, o.place) : t("takeIt"));
    } else {
      const have = p.resources;
      const skip = `<button class="sec" data-sa="skip" data-testid="skip">${h(t("skip"))}</button>`;
      if (!o.can_pay) html += reasonHtml(o.reason.split(":")[0], o.reason.split(": ").slice(1).join(": "), "why-" + o.place) + skip;
      else if (o.kind === "card") {
        html += ` — ${cardHtml(o.card, o.text)}<div>${h(t("payExactly", { n: o.cost }))}</div>${payPicker(sel, have, o.cost)}`;
        html += confirmBar(payTotal(sel.pay) === o.cost, `buy ${o.place} ${payNotation(sel.pay)}`, t("buy")) + skip;
      } else {
        const b = bldOf(o.building);
        if (b && b.kind === "fixed") {
          sel.pay = { ...b.cost };
          html += ` — ${bldHtml(o.building, o.text)}<div>${h(t("payWith"))}: ${resList(b.cost)}</div>`;
          html += confirmBar(true, `buy ${o.place} ${payNotation(sel.pay)}`, t("buy")) + skip;
        } else if (b) {
          const lim = b.kind === "count" ? b.count : b.max;
          const hint = b.kind === "count" ? t("payCount", { n: b.count, k: b.kinds }) : t("payRange", { lo: b.min, hi: b.max });
          const n = payTotal(sel.pay);
          const kinds = RES.filter((r) => sel.pay[r]).length;
          const ok = b.kind === "count" ? n === b.count && kinds === b.kinds : n >= b.min && n <= b.max;
          const pts = RES.reduce((a, r) => a + (sel.pay[r] || 0) * S.cat.values[r], 0);
          html += ` — ${bldHtml(o.building, o.text)}<div>${h(hint)}</div>${payPicker(sel, have, lim)}<div data-testid="bld-points">${h(t("gives", { n: pts }))}</div>`;
          html += confirmBar(ok, `buy ${o.place} ${payNotation(sel.pay)}`, t("buy")) + skip;
        }
      }
    }
    return html + "</div>";
  }

  function rollEntry(v) {
    const p = v.prompt;
    const sel = selFor("roll") || { dice: [] };
    const bar = p.what === "bar";
    const n = p.dice;
    let html = `<h2>${h(bar ? t("rollBar", { n }) : t("rollTitle", { n, r: yieldName(p.what) }))}</h2><p class="muted">${h(t("tapPips"))}</p>`;
    const full = sel.dice.length >= n;
    html += `<div class="sa-pips">${[1, 2, 3, 4, 5, 6].map((f) => `<button class="sa-pip" data-sa="pip" data-arg="${f}" data-testid="pip-${f}" ${full ? "disabled" : ""}>${dieSvg(f, 40)}<span>${f}</span></button>`).join("")}</div>`;
    html += `<div class="sa-dice" data-testid="dice-entered">${sel.dice.map((f, i) => `<button class="sa-diebtn" data-sa="unpip" data-arg="${i}" data-testid="die-${i}">${dieSvg(f, 30)}</button>`).join("")}
      ${Array.from({ length: n - sel.dice.length }, () => `<span class="sa-dieslot"></span>`).join("")} <span class="muted">${full ? "" : h(t("diceLeft", { n: n - sel.dice.length }))}</span></div>`;
    if (bar && S.cat) {
      html += `<div class="muted">${S.cat.dice_bar.map((g, i) => `${dieSvg(i + 1, 16)} ${h(giveName(g))}`).join(" · ")}</div>`;
    } else if (v.roll) {
      const r = v.roll;
      const pips = sel.dice.reduce((a, b) => a + b, 0);
      if (sel.dice.length) {
        const y = Math.floor(pips / r.divisor);
        html += `<div data-testid="roll-yield"><b>${h(t("yieldNow", { pips, d: r.divisor, y, r: yieldName(r.what) }))}</b>${r.tools_available ? ` · ${h(t("withAll", { t: r.tools_available, y: Math.floor((pips + r.tools_available) / r.divisor) }))}` : ""}</div>`;
      } else {
        const ex = (d) => Object.entries(d).reduce((a, [y, q]) => a + Number(y) * q, 0).toFixed(1);
        html += `<div class="muted" data-testid="roll-expected">${h(t("expected", { y: ex(r.yield_without_tools), r: yieldName(r.what) }))}${r.tools_available ? `, ${h(t("expectedTools", { y: ex(r.yield_with_all_tools) }))}` : ""}</div>`;
      }
    }
    const dice = [...sel.dice].sort((a, b) => a - b);
    return html + confirmBar(sel.dice.length === n, `roll ${p.what} ${dice.join(",")}`);
  }

  function toolsEntry(v) {
    const p = v.prompt;
    const r = p.roll;
    const me = v.tableau[p.seat];
    const tools = me.tools_unused, once = me.once_tools;
    let sel = selFor("tools");
    if (!sel) { sel = fromOption(r.best, tools, once); S.sel = sel; S.selFor = shell.view.state_id; }
    const gives = yieldName(r.what);
    let html = `<h2>${h(t("toolsTitle", { p: p.name }))}</h2>`;
    html += `<div class="sa-dice">${r.dice.map((f) => dieSvg(f, 28)).join("")} <b>${h(t("yieldNow", { pips: r.pips, d: r.divisor, y: r.base, r: gives }))}</b> <span class="muted">(${h(t("base"))})</span></div>`;
    const bestTools = [...r.best.tools.map(String), ...r.best.once.map((x) => `${t("once")} ${x}`)].join(", ") || t("noTools");
    const onePip = r.one_more_pip > r.max ? t("onePip", { y: r.one_more_pip }) : t("onePipSame", { y: r.one_more_pip });
    html += `<div class="sa-best" data-testid="tools-best"><b>${h(t("best"))}:</b> ${h(bestTools)} → ${h(t("result", { pips: r.best.total, y: r.max, r: gives }))}${r.best.waste ? ` <span class="muted">(${h(t("waste", { n: r.best.waste }))})</span>` : ""}
      <div data-testid="one-more-pip">${h(onePip)} <span class="muted">(${h(t("shortPips", { n: r.short }))})</span></div></div>`;
    html += `<h3>${h(t("options"))}</h3><div class="sa-topts">${r.options.map((o, i) => {
      const label = [...o.tools.map(String), ...o.once.map((x) => `${t("once")} ${x}`)].join(", ") || t("noTools");
      return `<button class="chip" data-sa="topt" data-arg="${i}" data-testid="topt-${o.yield}">${o.yield} ${h(gives)} ← ${h(label)}</button>`;
    }).join("")}</div>`;
    html += `<h3>${h(t("toolsSel"))}</h3><div>${tools.map((x, i) => `<button class="chip${sel.tools[i] ? " on" : ""}" data-sa="tool" data-arg="${i}" data-testid="tool-${i}">${h(t("tools"))} ${x}</button>`).join("")}
      ${once.map((x, i) => `<button class="chip${sel.once[i] ? " on" : ""}" data-sa="once" data-arg="${i}" data-testid="once-${i}">${h(t("once"))} ${x}</button>`).join("")}</div>`;
    const tv = tools.filter((_, i) => sel.tools[i]), ov = once.filter((_, i) => sel.once[i]);
    const total = r.pips + tv.reduce((a, b) => a + b, 0) + ov.reduce((a, b) => a + b, 0);
    const y = Math.floor(total / r.divisor);
    html += `<div data-testid="tools-result"><b>${h(t("result", { pips: total, y, r: gives }))}</b></div>`;
    const text = "tools " + ([...tv.map(String), ...ov.map((x) => `once${x}`)].join(",") || "-");
    return html + confirmBar(true, text, t("confirmTools"));
  }
  function fromOption(o, tools, once) {
    const pick = (vals, want) => { const on = vals.map(() => false); for (const w of want) { const i = vals.findIndex((x, k) => x === w && !on[k]); if (i >= 0) on[i] = true; } return on; };
    return { kind: "tools", tools: pick(tools, o.tools), once: pick(once, o.once) };
  }

  function barEntry(v) {
    const p = v.prompt;
    const sel = selFor("pick");
    let html = `<h2>${h(t("pickTitle", { p: p.name }))}</h2><div class="sa-dice">${p.dice.map((f) => dieSvg(f, 28)).join("")}</div><div>`;
    html += p.options.map((o) => `<button class="sa-act${sel && sel.face === o.face ? " sel" : ""}" data-sa="pick" data-arg="${o.face}" data-testid="pick-${o.face}">${dieSvg(o.face, 24)} ${h(giveName(o.gives))}</button>`).join("");
    return html + "</div>" + (sel ? confirmBar(true, `pick ${sel.face}`) : "");
  }

  function feedEntry(v) {
    const p = v.prompt;
    const f = p.feeding;
    let sel = selFor("feed");
    if (!sel) { sel = { kind: "feed", pay: f.pay ? { ...f.pay } : emptyPay() }; S.sel = sel; S.selFor = shell.view.state_id; }
    let html = `<h2>${h(t("feedTitle", { p: p.name, n: f.short }))}</h2>
      <div>${h(t("feedLineNow", { food: f.food, agri: f.agriculture, mouths: f.mouths }))}</div>`;
    if (f.can_pay) {
      html += `<div class="sa-pick"><b>${h(t("payRes", { n: f.short }))}</b> <span class="muted">${h(t("costPay", { n: f.short }))}</span>${payPicker(sel, p.resources, f.short)}`;
      html += confirmBar(payTotal(sel.pay) === f.short, `feed ${payNotation(sel.pay)}`, t("payRes", { n: f.short })) + "</div>";
    }
    html += `<div class="sa-pick"><button class="sec" data-sa="starve" data-testid="starve">${h(t("starve"))}</button> <span class="muted">${h(t("costStarve"))}</span></div>`;
    return html;
  }

  function revealEntry(v) {
    const p = v.prompt;
    const c = v.chance || { choices: [] };
    const isCard = c.kind === "draw" || c.reveals === "card";
    const head = c.kind === "draw" ? t("drawCard", { p: p.name }) : isCard ? t("revealCard", { n: c.slot }) : t("revealBuilding", { n: c.slot });
    let sel = selFor("reveal");
    if (!sel && c.choices.length === 1) { sel = { kind: "reveal", id: c.choices[0].id }; S.sel = sel; S.selFor = shell.view.state_id; }
    let html = `<h2>${h(head)}</h2><p class="muted">${h(t("candidates", { n: c.choices.length }))}${p.fixed_order ? ` · ${h(t("fixedOrder"))}` : ""}</p>`;
    const groupOf = (id) => { if (isCard) { const cc = cardOf(id); return cc ? cc.top.kind : ""; } const b = bldOf(id); return b ? b.kind : ""; };
    const order = isCard ? CARD_GROUPS : ["fixed", "count", "range"];
    const gname = (g) => t({ agriculture: "g_agriculture_t", tool: "g_tool_t" }[g] || "g_" + g);
    for (const g of [...order, ""]) {
      const items = c.choices.filter((x) => groupOf(x.id) === g);
      if (!items.length) continue;
      html += `<div class="sa-ghead">${h(g ? gname(g) : "?")}</div><div class="sa-reveal">${items.map((x) =>
        `<button class="sa-rv${sel && sel.id === x.id ? " sel" : ""}" data-sa="reveal" data-arg="${h(x.id)}" data-testid="reveal-${h(x.id)}"><span class="muted">${h(x.id)}</span> ${isCard ? cardHtml(x.id, x.text) : bldHtml(x.id, x.text)}</button>`).join("")}</div>`;
    }
    if (sel) html += `<div class="sa-pick stick"><b>${sel.id}</b> ${isCard ? cardHtml(sel.id) : bldHtml(sel.id)}${confirmBar(true, `${c.kind === "draw" ? "draw" : "reveal"} ${sel.id}`)}</div>`;
    return html;
  }

  function anyEntry(v) {
    const p = v.prompt;
    const sel = selFor("any");
    const n = p.any_card.amount;
    return `<h2>${h(t("anyTitle", { n }))}</h2><div>${h(t("anyPick", { n }))}</div>${payPicker(sel, null, n)}` +
      confirmBar(payTotal(sel.pay) === n, `any ${payNotation(sel.pay)}`);
  }

  // the move the entry card has built, as structured JSON (webui: POST /api/moves)
  function builtMove(v) {
    const p = v.prompt, sel = S.sel;
    if (!sel) return null;
    switch (sel.kind) {
      case "place": return DICE_PLACES.includes(sel.place) ? { kind: "place", place: sel.place, people: sel.people } : { kind: "place", place: sel.place };
      case "act": {
        const o = p.options.find((x) => x.place === sel.place);
        if (o.kind === "dice" || o.kind === "village") return { kind: "take", place: o.place };
        return { kind: "buy", place: o.place, pay: payJson(sel.pay) };
      }
      case "roll": return { kind: "roll", what: p.what, dice: [...sel.dice].sort((a, b) => a - b) };
      case "tools": {
        const me = v.tableau[p.seat];
        return { kind: "tools", tools: me.tools_unused.filter((_, i) => sel.tools[i]), once: me.once_tools.filter((_, i) => sel.once[i]) };
      }
      case "pick": return { kind: "pick", face: sel.face };
      case "feed": return { kind: "feed", pay: payJson(sel.pay) };
      case "any": return { kind: "any", take: payJson(sel.pay) };
      case "reveal": return { kind: v.chance && v.chance.kind === "draw" ? "draw" : "reveal", id: sel.id };
      default: return null;
    }
  }
  async function send(move) {
    const r = await shell.api("POST", "/api/moves", { state_id: shell.view.state_id, move });
    const ok = await shell.afterWrite(r);
    if (ok) {
      // (the move being built was dropped by update(); the new view may have begun the next one)
      // the next thing to do is at the top again: bring whose turn it is back into view
      const st = $("#sa-status");
      if (st && st.getBoundingClientRect().top < 0) window.scrollTo(0, 0);
    }
    return ok;
  }

  // ----- the feeding check of every player, before it happens -----
  function renderFeeding(v) {
    const el = $("#sa-feed");
    if (v.over) { el.innerHTML = ""; return; }
    const rows = v.feeding.map((f) => {
      let state;
      if (f.fed) state = `<span class="sa-ok">${h(t("fed"))}</span>`;
      else if (f.enough && !f.short_expected) state = `<span class="sa-ok">${h(t("enough"))}</span>`;
      else if (f.short) state = `<span class="sa-bad">${h(t("shortN", { n: f.short }))}</span>${f.hunting_expected ? ` <span class="muted">${h(t("afterHunt", { n: f.short_expected }))}</span>` : ""} <span class="muted">· ${h(f.can_pay ? t("canPay", { n: f.short }) : t("cannotFeed"))}</span>`;
      else state = `<span class="sa-ok">${h(t("enough"))}</span>`;
      const hunt = f.hunting_expected && !f.fed ? `<div class="muted">${h(t("huntExp", { n: f.hunting_expected }))}</div>` : "";
      return `<div class="sa-feedrow" data-testid="feed-${f.seat}">${dot(colourOf(v, f.seat))} <b>${h(f.name)}</b>: ${f.fed ? "" : h(t(v.phase === "feed" ? "feedLineNow" : "feedLine", { food: f.food, agri: f.agriculture, mouths: f.mouths }))}${f.new_people ? ` ${h(t("newPerson"))}` : ""} → ${state}${hunt}</div>`;
    });
    el.innerHTML = `<h2>${h(t("feedCheck"))} <span class="muted">${h(v.phase === "feed" ? "" : t("feedBefore"))}</span></h2>${rows.join("")}`;
  }

  // ----- scores: the track now and the projected final score with every part -----
  function renderScores(v) {
    const el = $("#sa-scores");
    let anyProv = false;
    const blocks = v.scores.map((s) => {
      const tb = v.tableau[s.seat];
      const tp = s.track_parts;
      const starve = tp.starved ? t("starvedN", { n: tp.starved }) : "";
      const provCards = tb.cards.filter((c) => isProvCard(c));
      let rows = `<tr><td>${h(t("trackRow"))} <span class="muted">${h(t("trackParts", { b: tp.buildings, c: tp.cards, s: starve }))}</span></td><td data-testid="score-track-${s.seat}">${s.track}</td></tr>`;
      const sets = s.culture.sets.map((set, i) => `${h(t("setN", { n: i + 1 }))}: ${set.map((c) => h(t("cu_" + c))).join(", ")} (${set.length}² = ${s.culture.squares[i]})`).join("<br>");
      rows += `<tr><td>${h(t("cultureRow"))}<div class="muted">${sets || h(t("noSets"))}</div></td><td data-testid="score-culture-${s.seat}">+${s.culture.points}</td></tr>`;
      for (const m of MULTIPLIERS) {
        const x = s.multipliers[m];
        if (!x) continue;
        const prov = provCards.some((c) => { const cc = cardOf(c); return cc && cc.bottom.multiplier === m; });
        anyProv = anyProv || prov;
        rows += `<tr class="${x.figures ? "" : "sa-zero"}${prov ? " prov" : ""}" ${prov ? `title="${h(t("provisional"))}"` : ""}><td>${h(t("multRow", { m: cap(t("m_" + m)), f: x.figures, q: x.quantity, what: t("q_" + m) }))}${prov ? "*" : ""}</td><td data-testid="score-${m}-${s.seat}">+${x.points}</td></tr>`;
      }
      rows += `<tr><td>${h(t("resRow", { n: s.resources }))}</td><td data-testid="score-res-${s.seat}">+${s.resources}</td></tr>`;
      if (s.any_cards) rows += `<tr><td>${h(t("anyRow"))}</td><td>+${s.any_cards}</td></tr>`;
      rows += `<tr class="sa-sum"><td>${h(s.final ? t("finalRow") : t("projRow"))}</td><td>${s.projected}</td></tr>`;
      rows += `<tr><td class="muted">${h(t("tiebreak"))}</td><td class="muted">${s.tiebreak}</td></tr>`;
      return `<div class="sa-score" data-testid="score-${s.seat}"><div class="sa-scorehead">${dot(tb.colour)} <b>${h(s.name)}</b>
        <span class="sa-big" data-testid="score-total-${s.seat}">${s.projected}</span> <span class="muted">${h(s.final ? "" : t("projected"))} · ${h(t("now"))} ${s.track}</span></div>
        <table class="sa-break" data-testid="breakdown-${s.seat}">${rows}</table></div>`;
    });
    el.innerHTML = `<h2>${h(t("scores"))}</h2><div class="sa-scores">${blocks.join("")}</div>${anyProv ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  // ----- the board (while placing, the entry card shows it to tap) -----
  function boardOptions(v) {
    if (v.prompt.kind === "place" && v.prompt.options) return v.prompt.options;
    const b = v.board;
    const opts = Object.entries(b.places).map(([place, by]) => ({ place, kind: DICE_PLACES.includes(place) ? "dice" : "village", by }));
    for (const c of b.cards) opts.push({ place: c.place, kind: "card", card: c.card, cost: c.cost, text: c.text, by: Object.fromEntries(c.by.map((n) => [n, 1])) });
    for (const s of b.stacks) opts.push({ place: s.place, kind: "building", building: s.top, text: s.text, left: s.left, by: Object.fromEntries(s.by.map((n) => [n, 1])) });
    return opts;
  }
  function renderBoard(v) {
    const el = $("#sa-board");
    if (live() && v.prompt.kind === "place" && !v.over) { el.innerHTML = ""; return; } // drawn in the entry card
    el.innerHTML = `<h2>${h(t("board"))} <span class="muted">${h(t("deck", { n: v.board.deck }))}</span></h2>${placeTiles(v, boardOptions(v), false, null)}`;
  }

  // ----- each tribe's tableau -----
  function renderTribes(v) {
    const el = $("#sa-tribes");
    const maxTools = S.cat ? S.cat.components.max_tools.value : null;
    const tp = compProv("max_tools");
    const rows = v.tableau.map((p) => {
      // used this round: each value as often as the player holds it more than unused
      const usedLeft = {};
      for (const x of p.tools) usedLeft[x] = (usedLeft[x] || 0) + 1;
      for (const x of p.tools_unused) usedLeft[x] -= 1;
      const tools = p.tools.map((x) => {
        const isUsed = usedLeft[x] > 0;
        if (isUsed) usedLeft[x] -= 1;
        return `<span class="sa-tool${isUsed ? " used" : ""}" ${isUsed ? `title="${h(t("usedT"))}"` : ""}>${x}</span>`;
      }).join("") || `<span class="muted">${h(t("noneYet"))}</span>`;
      const once = p.once_tools.map((x) => `<span class="sa-tool once">${x}</span>`).join("");
      const cultures = {}; const mults = {};
      for (const c of p.cards) { const cc = cardOf(c); if (!cc) continue; if (cc.bottom.culture) cultures[cc.bottom.culture] = (cultures[cc.bottom.culture] || 0) + 1; else mults[cc.bottom.multiplier] = (mults[cc.bottom.multiplier] || 0) + cc.bottom.figures; }
      const cardsTxt = [...Object.entries(cultures).map(([c, n]) => `${t("cu_" + c)}${n > 1 ? ` ×${n}` : ""}`), ...Object.entries(mults).map(([m, f]) => t("mult_fig", { f, m: t("m_" + m) }))].join(", ");
      return `<div class="sa-tribe${p.to_move ? " on" : ""}" data-testid="tableau-${p.seat}"><div>${dot(p.colour)} <b>${h(p.name)}</b>${p.start_player ? ` <span class="sa-sp">${h(t("startPlayer"))}</span>` : ""}</div>
        <div>${p.people} ${h(t("people"))}${v.phase === "place" && p.people_left ? ` (${h(t("toPlace", { n: p.people_left }))})` : ""} · ${resIcon("food")}${p.food} ${h(t("food"))} · ${h(t("agriculture"))} ${p.agriculture}</div>
        <div>${resList(p.resources)}</div>
        <div>${h(t("tools"))}: ${tools}${once ? ` · ${h(t("once"))}: ${once}` : ""}${maxTools !== null ? ` <span class="muted${tp ? " prov" : ""}" ${tp ? `title="${h(t("provisional"))}"` : ""}>(${h(t("toolsMax", { n: maxTools }))}${tp ? "*" : ""})</span>` : ""}</div>
        <div>${h(t("cardsN", { n: p.cards.length }))}${cardsTxt ? `: <span class="muted">${h(cardsTxt)}</span>` : ""} · ${h(t("buildingsN", { n: p.buildings.length }))} · ${h(t("track"))} ${p.points}</div></div>`;
    });
    el.innerHTML = `<h2>${h(t("players"))}</h2><div class="sa-tribes">${rows.join("")}</div>${tp ? `<p class="muted">* ${provTag()}</p>` : ""}`;
  }

  // --- events (the shell handles its own attributes first: data-nav, data-step, data-shell, …) -------
  async function onClick(ev) {
    const el = ev.target.closest("[data-sa]");
    if (!el || !root.contains(el) || !live()) return;
    const v = shell.view;
    if (!v || !v.has_game) return;
    const p = v.prompt;
    const a = el.dataset.arg;
    const sel = S.sel;
    switch (el.dataset.sa) {
      case "place": {
        const o = p.options.find((x) => x.place === a);
        setSel({ kind: "place", place: a, people: o && o.open && o.people && o.people.min === o.people.max ? o.people.min : (o && o.open && o.people && o.people.max === 1 ? 1 : null) });
        return;
      }
      case "people": if (sel && sel.kind === "place") { sel.people = Number(a); renderEntry(v); } return;
      case "act": {
        const o = p.options.find((x) => x.place === a);
        const first = o && o.moves && o.moves.find((m) => m.startsWith("buy "));
        setSel({ kind: "act", place: a, pay: first ? payFromMove(first) : emptyPay() });
        return;
      }
      case "pay+": if (sel && sel.pay) { sel.pay[a] = (sel.pay[a] || 0) + 1; renderEntry(v); } return;
      case "pay-": if (sel && sel.pay && sel.pay[a]) { sel.pay[a] -= 1; renderEntry(v); } return;
      case "pip": {
        const cur = selFor("roll") || { kind: "roll", dice: [] };
        if (cur.dice.length < p.dice) cur.dice.push(Number(a));
        setSel(cur); return;
      }
      case "unpip": if (sel && sel.kind === "roll") { sel.dice.splice(Number(a), 1); renderEntry(v); } return;
      case "topt": { const me = v.tableau[p.seat]; setSel(fromOption(p.roll.options[Number(a)], me.tools_unused, me.once_tools)); return; }
      case "tool": if (sel && sel.kind === "tools") { sel.tools[Number(a)] = !sel.tools[Number(a)]; renderEntry(v); } return;
      case "once": if (sel && sel.kind === "tools") { sel.once[Number(a)] = !sel.once[Number(a)]; renderEntry(v); } return;
      case "pick": setSel({ kind: "pick", face: Number(a) }); return;
      case "reveal": setSel({ kind: "reveal", id: a }); return;
      case "any": setSel({ kind: "any", pay: emptyPay() }); return;
      case "cancel": S.sel = null; shell.setError(null); renderEntry(v); return;
      case "skip": el.disabled = true; await send({ kind: "skip", place: sel.place }); return;
      case "starve": el.disabled = true; await send({ kind: "starve" }); return;
      case "confirm": {
        const move = builtMove(v);
        if (!move) return;
        el.disabled = true;
        await send(move);
        return;
      }
      default:
    }
  }

  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = new URL("./stoneage.css", import.meta.url).href;
  document.head.append(css);
  root.innerHTML = LAYOUT;
  shell.listen("click", onClick);
  return { strings: STRINGS, clause, update, render, unmount: () => css.remove() };
}
